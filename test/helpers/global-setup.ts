import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  // The run's temporary directories in one of its own, removed when the run ends: a test that
  // makes one and leaves it (a pager's output, a failed test's sandbox) leaves nothing behind.
  // The workers, started after this, take TMPDIR from here.
  const before = process.env.TMPDIR;
  const own = mkdtempSync(join(tmpdir(), 'sct-run-'));
  process.env.TMPDIR = own;
  return () => {
    rmSync(own, { recursive: true, force: true });
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  };
}
