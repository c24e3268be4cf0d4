// The build gives the same files for the same sources: the chunks' names are hashes of their
// content, and the code cache keeps a file per chunk name, so a build that came out different
// each time would throw away every user's cache with each release of the same code.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeDir, tempDir } from '../helpers/sct.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every .cjs file the build wrote under dist/, by its path, as a hash of its bytes. */
function built(dir: string): Record<string, string> {
  const files = readdirSync(join(dir, 'dist'), { recursive: true }).map(String).filter((f) => f.endsWith('.cjs')).sort();
  return Object.fromEntries(files.map((f) => [f, createHash('sha256').update(readFileSync(join(dir, 'dist', f))).digest('hex')]));
}

describe('the build', () => {
  it('writes the same files, chunk names included, every time it builds the same sources', { timeout: 120_000 }, () => {
    const dir = tempDir('sct-build-');
    try {
      for (const part of ['src', 'scripts', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      const builds = [];
      // The order the chunks' entry points were found in varied between runs: three builds.
      for (let i = 0; i < 3; i++) {
        execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'pipe' });
        builds.push(built(dir));
      }
      expect(Object.keys(builds[0]).filter((f) => f.startsWith('chunks')).length).toBeGreaterThan(50);
      expect(builds[1]).toEqual(builds[0]);
      expect(builds[2]).toEqual(builds[0]);
      // The package's build (npm runs prepack for pack and publish): no map, and no file naming one.
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'pipe', env: { ...process.env, npm_lifecycle_event: 'prepack' } });
      const files = readdirSync(join(dir, 'dist'), { recursive: true }).map(String);
      expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
      expect(files.filter((f) => f.endsWith('.cjs') && readFileSync(join(dir, 'dist', f), 'utf8').includes('sourceMappingURL'))).toEqual([]);
      // The same files, their names hashes of their content (without the comment, other names).
      expect(Object.keys(built(dir)).length).toBe(Object.keys(builds[0]).length);
    } finally {
      removeDir(dir);
    }
  });
});
