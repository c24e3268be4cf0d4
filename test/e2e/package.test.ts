// The package a user installs: `npm pack`, then `npm install -g` of the tarball into a prefix of
// its own, and the installed sct run from a directory that is not the checkout. What the tarball
// carries is the bundle: no install script, no source maps, only the dependencies the bundle
// leaves outside (jq-web, the keyring's native package).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, removeDir, tempDir } from '../helpers/sct.js';

const MB = 1024 * 1024;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Bytes under dir, symlinks counted as links (npm links bin/ and man/ into the prefix). */
function du(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true })) total += lstatSync(join(dir, String(entry))).size;
  return total;
}

let work: string;
let tarball: string;
let packed: Array<{ path: string }>;
let prefix: string;
/** Why the install could not be tried here (no npm, or its cache lacks the two dependencies offline). */
let unavailable: string | undefined;
let sandbox: ResultPromise | undefined;

beforeAll(async () => {
  work = tempDir('sct-package-');
  // The global set-up has built dist/; the tarball is packed from it as it is (prepack would build again).
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, reject: false });
  // The package's own fault, never a reason to skip.
  if (pack.exitCode !== 0) throw new Error(`npm pack failed: ${pack.stderr.split('\n').slice(-3).join(' ')}`);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info.filename);
  packed = info.files;
  prefix = join(work, 'prefix');
  // --prefer-offline: the two dependencies' tarballs come from npm's cache (npm ci has put them
  // there); only their version lists, which npm ci does not cache, are asked of the registry, as
  // a user's install does. A machine that cannot reach it skips, saying so.
  const install = await execa('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: work, reject: false });
  if (install.exitCode !== 0) {
    // Any other failure of the install is the package's own, and fails the tests.
    if (!/ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENOTCACHED/.test(install.stderr)) throw new Error(`npm install -g of the tarball failed: ${install.stderr}`);
    unavailable = `the registry cannot be reached for the version lists of jq-web and @napi-rs/keyring: ${install.stderr.split('\n').slice(-2).join(' ')}`;
  }
}, 180_000);

afterAll(() => {
  sandbox?.kill();
  if (work) removeDir(work);
});

describe('a checkout', () => {
  it('run before its build says so in one line, no stack (a clone linked with npm install -g .)', async () => {
    const dir = tempDir('sct-unbuilt-');
    try {
      mkdirSync(join(dir, 'bin'));
      for (const f of ['bin/sct.js', 'bin/package.json', 'package.json']) writeFileSync(join(dir, f), readFileSync(join(ROOT, f)));
      const r = await execa(process.execPath, [join(dir, 'bin', 'sct.js'), '--version'], { reject: false });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(`error: sct is not built: run \`npm run build\` in ${dir}`);
      // A build cut short: dist/main.cjs written, dist/cli.cjs not.
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'main.cjs'), readFileSync(join(ROOT, 'dist', 'main.cjs')));
      const half = await execa(process.execPath, [join(dir, 'bin', 'sct.js'), 'orders', 'list', '--buying'], { reject: false, env: { XDG_CACHE_HOME: join(dir, 'cache') } });
      expect(half.exitCode).toBe(1);
      expect(half.stderr).toBe(`error: sct is not built completely (${join(dir, 'dist', 'cli.cjs')} is missing): run \`npm run build\` in ${dir}`);
    } finally {
      removeDir(dir);
    }
  });
});

describe('the package', () => {
  it('the tarball carries the bundle, the completions and the man pages, and no source maps or sources', ({ skip }) => {
    if (!packed) skip(unavailable);
    const paths = packed.map((f) => f.path);
    expect(paths).toContain('bin/sct.js');
    expect(paths).toContain('dist/main.cjs');
    expect(paths).toContain('dist/help/index.txt');
    expect(paths).toContain('man/sct.1');
    expect(paths).toContain('man/sct-orders-list.1');
    expect(paths).toContain('completions/_sct');
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => /^(src|test|bench|scripts)\//.test(p))).toEqual([]);
    // Every page the README links to is in the package: an installed README has no dead links.
    const linked = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)].map((m) => m[1]!.replace(/^\.\//, ''));
    expect(linked.length).toBeGreaterThan(3);
    expect(linked.filter((l) => !paths.includes(l))).toEqual([]);
  });

  it('declares no install script, and only the dependencies the bundle leaves outside it', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[script], script).toBeUndefined();
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@napi-rs/keyring', 'jq-web']);
    // Each of the two is what scripts/build.mjs keeps external.
    const build = readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8');
    expect(build).toContain("external: ['jq-web', '@napi-rs/keyring']");
  });

  it('installs globally from the tarball in at most 20 MB', ({ skip }) => {
    if (unavailable) skip(unavailable);
    const installed = join(prefix, 'lib', 'node_modules', 'sct');
    expect(existsSync(installed)).toBe(true);
    expect(readdirSync(join(installed, 'node_modules')).sort()).toEqual(['@napi-rs', 'jq-web']);
    expect(du(prefix)).toBeLessThanOrEqual(20 * MB);
  });

  it('the man pages are linked where man looks for them: man sct works after a global install', async ({ skip }) => {
    if (unavailable) skip(unavailable);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'sct.1'))).toBe(true);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'sct-orders-list.1'))).toBe(true);
    // Where man itself is missing, the links above are what is checked (said, not silent).
    if (!existsSync('/usr/bin/man')) skip('man is not installed (.ci/run installs it)');
    const r = await execa('man', ['-M', join(prefix, 'share', 'man'), 'sct-orders-list'], { env: { PATH: process.env.PATH ?? '', MANPAGER: 'cat', LANG: 'C.UTF-8' }, extendEnv: false });
    expect(r.stdout).toContain('sct-orders-list - List orders you buy');
  });

  it('the installed sct runs from another directory: --version, sandbox, and commands against it', async ({ skip }) => {
    if (unavailable) skip(unavailable);
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    const sct = join(prefix, 'bin', 'sct');
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', SCT_CONFIG_DIR: join(work, 'config') };
    const version = await execa(sct, ['--version'], { cwd: elsewhere, env, extendEnv: false });
    expect(version.stdout).toBe(pkg.version);

    sandbox = execa(sct, ['sandbox', '--port', '0', '--quiet'], { cwd: elsewhere, env, extendEnv: false, reject: false });
    const url = await new Promise<string>((resolve, reject) => {
      let buf = '';
      sandbox!.stdout!.setEncoding('utf8');
      sandbox!.stdout!.on('data', (chunk: string) => {
        buf += chunk;
        if (buf.includes('\n')) resolve(buf.split('\n')[0].trim());
      });
      sandbox!.stdout!.on('end', () => reject(new Error(`the installed sandbox exited before printing its URL`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);

    const withToken = { ...env, SCT_BASE_URL: url, SCT_TOKEN: 'sct_demo_owner_cacao' };
    const list = await execa(sct, ['orders', 'list', '--buying', '--limit', '3', '-o', 'json'], { cwd: elsewhere, env: withToken, extendEnv: false, reject: false });
    expect(list.stderr).toBe('');
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(3);
    // --jq loads jq-web, one of the two dependencies installed beside the bundle.
    const jq = await execa(sct, ['orders', 'list', '--buying', '--limit', '3', '--jq', 'length'], { cwd: elsewhere, env: withToken, extendEnv: false, reject: false });
    expect(jq.exitCode).toBe(0);
    expect(jq.stdout).toBe('3');
  }, 60_000);
});
