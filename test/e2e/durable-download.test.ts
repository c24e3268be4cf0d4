// A download takes its name only once its bytes are on the disk: after a power cut right after
// "Saved", the file is whole, or not there (cli-spec.md: "a complete ZIP … else no file kept").
// Seen with strace: the part file is flushed (fsync) before it is linked to its name, and the
// directory after. Skipped, saying so, where strace is not installed.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const hasStrace = (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const t = useSandbox({}, { inProcess: true });

describe.skipIf(!hasStrace)(`a download on the disk before its name${hasStrace ? '' : ' (skipped: no strace)'}`, () => {
  it('documents download: the part file is fsynced before it is linked to its name, the directory after', async () => {
    const log = join(t.dir, 'strace.log');
    const out = join(t.dir, 'durable.pdf');
    const r = await execa('strace', ['-f', '-qq', '-e', 'trace=openat,fsync,fdatasync,link,linkat,rename,renameat,renameat2', '-o', log, process.execPath, BIN, 'documents', 'download', '1', '--out', out], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, SCT_CONFIG_DIR: t.dir, HOME: t.dir },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8').split('\n');
    // The part file's descriptor, from its exclusive open.
    const opened = lines.map((l) => /openat\(AT_FDCWD, "([^"]*\.part)", [^)]*O_EXCL[^)]*\)\s*=\s*(\d+)/.exec(l)).find(Boolean);
    expect(opened, 'the part file opened').toBeTruthy();
    const [, part, fd] = opened!;
    const openedAt = lines.findIndex((l) => l.includes(`"${part}"`) && l.includes('O_EXCL'));
    const linkedAt = lines.findIndex((l) => /link(at)?\(|rename/.test(l) && l.includes(`"${part}"`) && l.includes(`"${out}"`));
    expect(linkedAt, 'the part file linked to its name').toBeGreaterThan(openedAt);
    const flushedAt = lines.findIndex((l, i) => i > openedAt && i < linkedAt && new RegExp(`f(data)?sync\\(${fd}\\)\\s*=\\s*0`).test(l));
    expect(flushedAt, 'fsync of the part file before its link').toBeGreaterThan(openedAt);
    // The directory's entry too, after the link.
    const dirOpened = lines.map((l, i) => ({ i, m: new RegExp(`openat\\(AT_FDCWD, "${t.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}", O_RDONLY[^)]*\\)\\s*=\\s*(\\d+)`).exec(l) })).find((x) => x.i > linkedAt && x.m);
    expect(dirOpened, 'the directory opened after the link').toBeTruthy();
    expect(lines.slice(dirOpened!.i).some((l) => new RegExp(`fsync\\(${dirOpened!.m![1]}\\)\\s*=\\s*0`).test(l))).toBe(true);
  });
});
