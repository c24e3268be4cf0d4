// Bundles src/ and its dependencies into dist/ with one chunk per command group, so
// `sct --version` and `sct --help` load one small file (commander included) and a group's
// code, dependencies and all, is read only when that group runs. Resolving and reading
// dozens of node_modules files at start-up costs more than the code itself on a slow disk.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const lazyChildProcessForCommander = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: fileURLToPath(new URL('./lazy-child-process.cjs', import.meta.url)) } : undefined,
    );
  },
};

// The Natural Earth outlines (src/geo/world-50m.js) as JSON.parse of a string: V8 reads that
// about twice as fast as the same data as an object literal (42 vs 77 ms), and in 10 MB less.
const jsonAsString = {
  name: 'json-as-string',
  setup(b) {
    b.onLoad({ filter: /[\\/]world-atlas[\\/]countries-50m\.json$/ }, (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(readFileSync(args.path, 'utf8'))});`,
      loader: 'js',
    }));
  },
};

let result;
try {
  result = await build({
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies call require() for Node built-ins; ESM output needs a real one.
  banner: { js: "import { createRequire as __sctCreateRequire } from 'node:module'; const require = __sctCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  // Less to parse at start-up; identifiers stay, so --verbose stack traces remain readable.
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { SCT_VERSION: JSON.stringify(pkg.version) },
  plugins: [lazyChildProcessForCommander, jsonAsString],
  metafile: true,
  // jq (WebAssembly) is loaded from node_modules, and only by --jq: its loader reads jq.wasm
  // beside its own file, which a bundle would not have.
  // @napi-rs/keyring is a native .node file: never bundled, and never loaded by sct's own
  // process either (src/config/keyring.ts runs it in a child it can kill).
  external: ['jq-web', '@napi-rs/keyring'],
  logLevel: 'warning',
  });
  // The entry bin/sct.js loads: one CommonJS file of its own (bin/ is CommonJS, bin/package.json),
  // since --version and help are answered from it alone, and Node starts a CommonJS script
  // without setting up its ES module loader. cli.js (ES modules) is imported from it when needed.
  const entry = await build({
    entryPoints: ['src/main.ts'],
    outfile: 'dist/main.cjs',
    bundle: true,
    format: 'cjs',
    banner: { js: "const __sctMainUrl = require('node:url').pathToFileURL(__filename).href;" },
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    minifyWhitespace: true,
    minifySyntax: true,
    define: { SCT_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__sctMainUrl' },
    external: ['./cli.js'],
    metafile: true,
    logLevel: 'warning',
  });
  Object.assign(result.metafile.outputs, entry.metafile.outputs);
} catch {
  // esbuild has already printed the errors.
  process.exit(1);
}

// Every command's help as data (dist/help/…/index.txt): src/main.ts prints it without loading
// commander or the command tree. Rendered by the bundle just built, as `sct … --help` would.
const { renderHelpTexts } = await import(`${pathToFileURL(resolve('dist/cli.js')).href}?${Date.now()}`);
const helpDir = resolve('dist/help');
const written = new Set();
for (const [path, text] of await renderHelpTexts()) {
  const file = join(helpDir, ...path.split(' ').filter(Boolean), 'index.txt');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.add(file);
}
// Help of commands that no longer exist must not be printed.
for (const entry of readdirSync(helpDir, { recursive: true })) {
  const file = join(helpDir, entry);
  if (statSync(file).isFile() && !written.has(file)) rmSync(file);
}

// dist/ is not wiped before the build (a test run elsewhere may be executing it); chunks
// the new build no longer references are removed afterwards instead.
const keep = new Set(Object.keys(result.metafile.outputs).map((f) => resolve(f)));
for (const dir of ['dist', 'dist/chunks']) {
  for (const name of readdirSync(dir)) {
    const file = resolve(dir, name);
    if (statSync(file).isFile() && !keep.has(file)) rmSync(file);
  }
}
