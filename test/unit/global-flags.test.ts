// The global options are records (src/global-flags.ts): the program's options are made from them
// and the flags a run reads are typed from them, so a new global flag is one entry.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { buildProgram } from '../../src/cli.js';
import { createIO } from '../../src/output/iostreams.js';
import { GLOBAL_OPTIONS, type GlobalFlags } from '../../src/global-flags.js';

const program = () => buildProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));

describe('global options as records', () => {
  it("the program has exactly the records' options, in their order, with their help and defaults", () => {
    const p = program();
    const options = p.options.filter((o) => o.long !== '--version');
    expect(options.map((o) => o.flags)).toEqual(GLOBAL_OPTIONS.map((o) => o.flags));
    expect(options.map((o) => o.description)).toEqual(GLOBAL_OPTIONS.map((o) => o.description));
    expect(p.opts()).toMatchObject({ timeout: '30', maxWait: '10m' });
    expect(options.find((o) => o.long === '--output')?.argChoices).toEqual(['table', 'json', 'ndjson', 'csv', 'geojson']);
  });

  it('-o takes its values in any case', () => {
    const p = program().exitOverride();
    p.parse(['-o', 'JSON'], { from: 'user' });
    expect(p.opts().output).toBe('json');
  });

  it('the flags a run reads are typed from the records', () => {
    expectTypeOf<GlobalFlags>().toEqualTypeOf<{
      output?: string;
      json?: string | true;
      columns?: string;
      jq?: string;
      color?: boolean;
      quiet?: boolean;
      verbose?: boolean;
      yes?: boolean;
      profile?: string;
      baseUrl?: string;
      timeout?: string;
      maxWait?: string;
      csvFormulas?: boolean;
      bom?: boolean;
    }>();
  });
});
