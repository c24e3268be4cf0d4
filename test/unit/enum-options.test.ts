// An enum flag's values are data kept with the option (enumOption): completion offers exactly
// them, and the help's description is written from them, so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import type { Command, Option } from 'commander';
import { fullProgram } from '../../src/cli.js';
import { enumValues } from '../../src/commands/completion.js';
import { ASSESSMENT_STATUSES, COMMODITIES, DDS_STATUSES, ORDER_TYPES } from '../../src/api/enums.js';
import { createIO } from '../../src/output/iostreams.js';

async function options(): Promise<Map<string, Option>> {
  const program = await fullProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));
  const out = new Map<string, Option>();
  const walk = (cmd: Command, path: string[]) => {
    for (const o of cmd.options as readonly Option[]) out.set(`${path.join(' ')} ${o.long}`, o);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}

describe('enum options', () => {
  it('offer their values from data, also where the description is not a bare list', async () => {
    const all = await options();
    const values = (key: string) => enumValues(all.get(key)!);
    expect(values('orders create --type')).toEqual([...ORDER_TYPES]);
    expect(values('orders update --assessment-status')).toEqual([...ASSESSMENT_STATUSES]);
    expect(values('origins check --commodity')).toEqual([...COMMODITIES]);
    expect(values('dds update --status')).toEqual([...DDS_STATUSES]);
    // Free text is not taken for values.
    expect(values('orders create --external-id')).toBeUndefined();
  });

  it('every enum option names each of its values in its help', async () => {
    let checked = 0;
    for (const [key, o] of await options()) {
      const values = enumValues(o);
      // commander's own .choices() (-o) are listed by commander in the help.
      if (!values || o.argChoices) continue;
      checked++;
      for (const v of values) expect(o.description, key).toContain(v);
    }
    expect(checked).toBeGreaterThan(30);
  });
});
