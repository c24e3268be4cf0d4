// The built binary at a real pseudo-terminal (util-linux `script`), answered keystroke by
// keystroke as a person would. A step may first change the world (a colleague's edit made
// through the sandbox while a question waits), then type its answer.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { BIN } from './sct.js';

export const SCRIPT = '/usr/bin/script';
export const hasScript = existsSync(SCRIPT);

export interface Step {
  /** Wait until the terminal shows this… */
  when: string;
  /** …run this, if given… */
  before?: () => Promise<unknown>;
  /** …then type this. */
  type: string;
}

/** Runs sct in a pseudo-terminal with the test's config dir and sandbox, typing each answer once its prompt is on the screen. */
export async function runAtTerminal(
  where: { dir: string; url: string },
  args: string[],
  steps: Step[],
  /** undefined takes a variable away (NO_COLOR is set by default). */
  env: Record<string, string | undefined>,
  o: { columns?: number; rows?: number } = {},
): Promise<{ exitCode: number; screen: string }> {
  // `script` may report 0 columns, where sct draws no spinner or progress line: set them to see one.
  // Without rows (0) sct never pages; with them, output longer than the terminal goes to the pager.
  const stty = [o.columns ? `cols ${o.columns}` : '', o.rows ? `rows ${o.rows}` : ''].filter(Boolean).join(' ');
  const size = stty ? `stty ${stty}; ` : '';
  const command = size + [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const vars: Record<string, string | undefined> = { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: where.dir, HOME: where.dir, SCT_BASE_URL: where.url, NO_COLOR: '1', ...env };
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete vars[k];
  const child = execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
    env: vars as Record<string, string>,
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stdin: 'pipe',
  });
  let screen = '';
  let next = 0;
  let busy = false;
  const advance = async () => {
    if (busy) return;
    busy = true;
    while (next < steps.length && screen.includes(steps[next].when)) {
      const step = steps[next++];
      await step.before?.();
      child.stdin!.write(step.type);
    }
    busy = false;
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    void advance();
  });
  // A step that waits for nothing (`when: ''`) is typed without any output first: input for a
  // command that shows nothing while it reads the terminal.
  void advance();
  const r = await child;
  child.stdin!.end();
  return { exitCode: r.exitCode ?? -1, screen };
}
