// Environment variables and exit codes are one table each (src/help/): the root help's lines,
// the topics and their pages in docs/ are made from them, and the guide links instead of copying.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENT_VARIABLES, environmentLine, environmentText } from '../../src/help/environment.js';
import { EXIT_CODES, exitCodesLine, exitCodesText } from '../../src/help/exit-codes.js';
import { AuthError, CancelledError, InterruptedError, PartialFailureError, SctError, UsageError } from '../../src/errors.js';
import { ROOT } from '../helpers/sct.js';
import { SIGNAL_EXIT_CODES } from '../../src/cli/signals.js';
import { fitLines } from '../../src/help/wrap.js';

const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');
const rootHelp = () => readFileSync(join(ROOT, 'dist', 'help', 'index.txt'), 'utf8');

describe('one table of environment variables', () => {
  it('the root help names the main ones in one line, the topic and its page describe every one', () => {
    expect(rootHelp()).toContain(`\n${fitLines(environmentLine(), 80)}\n`);
    for (const v of ENVIRONMENT_VARIABLES) {
      expect(environmentText()).toContain(`  ${v.names}\n`);
      expect(doc('sct-help-environment.md')).toContain(v.names);
    }
    expect(environmentLine()).toContain('SCT_TOKEN');
  });

  it('the guide links to the topic instead of keeping a table of its own', () => {
    const guide = doc('guide.md');
    expect(guide).toContain('](sct-help-environment.md)');
    expect(guide).not.toMatch(/^\| `SCT_TOKEN` \|/m);
  });
});

describe('one table of exit codes', () => {
  it("holds every code sct's errors and stop signals end with, and no other", () => {
    const codes = new Set([0, new SctError('x').exitCode, new UsageError('x').exitCode, new AuthError('x').exitCode, new PartialFailureError('x').exitCode, new InterruptedError().exitCode, ...Object.values(SIGNAL_EXIT_CODES)]);
    expect(new CancelledError('x').exitCode).toBe(2);
    expect(new Set(EXIT_CODES.map((c) => c.code))).toEqual(codes);
  });

  it('the root help has their line, the topic and its page each meaning; the guide links to it', () => {
    expect(rootHelp()).toContain(`\n${fitLines(exitCodesLine(), 80)}\n`);
    for (const c of EXIT_CODES) {
      expect(exitCodesText()).toMatch(new RegExp(`^  ${c.code} +${c.meaning.split(' ').slice(0, 3).join(' ').replace(/[()]/g, '\\$&')}`, 'm'));
    }
    expect(doc('sct-help-exit-codes.md')).toContain('130');
    expect(doc('guide.md')).toContain('](sct-help-exit-codes.md)');
    expect(doc('guide.md')).not.toMatch(/^\| 130 \|/m);
  });
});
