// Bundles src/ and its dependencies into dist/ with one chunk per command group, so
// `sct --version` and `sct --help` load one small file (commander included) and a group's
// code, dependencies and all, is read only when that group runs. Resolving and reading
// dozens of node_modules files at start-up costs more than the code itself on a slow disk.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
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

// The hot path: what `sct orders get 1` or `sct orders list` runs (cli, context, client, output,
// the most used groups) is one CommonJS file, dist/cli.cjs. Node loads CommonJS without setting
// up its ES module loader (about 20 ms of CPU on its own), and one file without the dozen chunk
// look-ups. Modules the hot path imports only when needed (chalk, string-width) are in it too,
// but run only when first imported. Everything else (zod, csv-parse, geo, the sandbox, the other
// groups) is chunks under dist/chunks/, required when a command needs them; they take every hot
// module from dist/cli.cjs, so no module exists twice in one run. The chunks are split as ES
// modules (esbuild splits only those) and then each made CommonJS, for the same reasons: no ES
// module loader, and V8's code cache on Node 20 (src/cli/code-cache.ts) for them too.
// Source maps for a checkout (a stack read against src/); none for the package, which ships no
// .map files, so that no file it ships names one (npm runs `prepack` for `npm pack` and publish).
const SOURCEMAP = process.env.npm_lifecycle_event === 'prepack' ? false : 'linked';

const HOT_ROOTS = ['src/cli.ts', 'src/commands/orders.ts', 'src/commands/products.ts', 'chalk', 'string-width'];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Less to parse at start-up; identifiers stay, so --verbose stack traces remain readable.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { SCT_VERSION: JSON.stringify(pkg.version) },
  // jq (WebAssembly) is loaded from node_modules, and only by --jq: its loader reads jq.wasm
  // beside its own file, which a bundle would not have.
  // @napi-rs/keyring is a native .node file: never bundled, and never loaded by sct's own
  // process either (src/config/keyring.ts runs it in a child it can kill).
  external: ['jq-web', '@napi-rs/keyring'],
  metafile: true,
  logLevel: 'warning',
};

/** Resolves like esbuild does, without recursing into the plugin asking. */
async function resolveFully(b, args) {
  if (args.pluginData?.sctInner) return undefined;
  const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { sctInner: true } });
  return r.errors.length || r.external ? undefined : r.path;
}

/**
 * A build of `entries` that writes nothing, read for its metafile: ES modules split, dynamic
 * imports left out.
 */
function scan(entries) {
  return build({
    ...common,
    entryPoints: entries,
    outdir: 'dist-scan',
    write: false,
    format: 'esm',
    splitting: true,
    plugins: [lazyChildProcessForCommander, jsonAsString, {
      name: 'static-only',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
      },
    }],
  });
}

/**
 * The absolute paths of the ES modules reachable from entries by static imports. CommonJS ones
 * (commander's files, lazy-child-process.cjs) are left out: the chunks import commander through
 * its ES module entry, and making a CommonJS module's exports a namespace reads every one of
 * them (the stand-in for child_process would load it).
 */
async function staticClosure(entries) {
  const { metafile } = await scan(entries);
  return new Set([...Object.entries(metafile.inputs).filter(([, i]) => i.format !== 'cjs').map(([f]) => resolve(f)), ...entries]);
}

/**
 * The names each module exports (an ES module's, as esbuild sees them), by absolute path. The hot
 * file makes a module's namespace for the chunks from them only when a chunk first asks for it:
 * made at load, as `import * as` makes them, the 84 namespaces cost every command about 1 ms of
 * its start (bench/results.md), and `orders get` needs none of them.
 */
async function exportNames(modules) {
  const { metafile } = await scan(modules);
  return new Map(Object.values(metafile.outputs).filter((o) => o.entryPoint).map((o) => [resolve(o.entryPoint), o.exports]));
}

const LAZY_MARK = '__sct_lazy__:';

/** How step 3 names a chunk's import of a hot module, for step 3c. */
const HOT_MARK = '__sct_hot__:';

/** Where the chunks are split as ES modules, before each is made CommonJS (step 3b). */
const ESM_DIR = 'dist/.esm';

/**
 * `import.meta.url` in a CommonJS file (the hot file, each chunk): the file's own URL, made when
 * first asked for, as most runs never ask. The banner defines what the define points at.
 */
const OWN_URL = {
  banner: "const __sctFile = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
  define: { 'import.meta.url': '__sctFile.url' },
};

/**
 * The CommonJS files have no import(): an import() becomes a require() in a promise. On Node 20
 * the files are compiled through vm.Script with a code cache (src/cli/code-cache.ts), where V8
 * keeps no way back to Node's module loader for an import() in code that came from the cache;
 * and a require() never sets that loader up. The build fails on any import( left.
 */
const NO_IMPORT = { 'dynamic-import': false };

let result;
try {
  // 1. The hot set: every module reachable from HOT_ROOTS by static imports.
  const roots = HOT_ROOTS.map((r) => (r.startsWith('src/') ? resolve(r) : createRequire(resolve('package.json')).resolve(r)));
  const hot = await staticClosure(roots);
  // What sct's own hot modules import statically runs as cli.cjs loads, and the chunks share it.
  // The packages imported only when needed (chalk, string-width: its Unicode tables cost tens
  // of ms to set up) must not run at load: a chunk that imports one has its own copy.
  const shared = await staticClosure(roots.filter((r) => r.startsWith(resolve('src'))));

  // 2. dist/cli.cjs: the hot set, a dynamic import of anything else marked for step 4.
  const lazyRoots = new Set();
  const hotBuild = await build({
    ...common,
    entryPoints: [{ in: 'hot-entry', out: 'cli' }],
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // import.meta.url of the ES modules bundled (createRequire, new URL(…)) is this file's URL.
    banner: { js: OWN_URL.banner },
    define: { ...common.define, ...OWN_URL.define },
    // A chunk is required (step 4), never import()ed: see NO_IMPORT.
    supported: NO_IMPORT,
    sourcemap: SOURCEMAP,
    plugins: [lazyChildProcessForCommander, jsonAsString, {
      name: 'hot-entry',
      setup(b) {
        // cli.ts's exports, and every hot module by its path for the chunks of step 3.
        b.onResolve({ filter: /^hot-entry$/ }, () => ({ path: 'hot-entry', namespace: 'sct' }));
        b.onLoad({ filter: /.*/, namespace: 'sct' }, async () => {
          const mods = [...shared].filter((f) => /\.[cm]?[jt]s$/.test(f));
          const names = await exportNames(mods);
          // A namespace as esbuild makes one (a getter per export, so a chunk sees the module's
          // bindings as they are now), made when a chunk first asks for it.
          const namespace = (f, i) => {
            const getters = (names.get(f) ?? []).map((n, j) => `${JSON.stringify(n)}: () => m${i}_${j}`);
            return `get ${JSON.stringify(relative('.', f))}() { return made[${i}] ??= namespaceOf({${getters.join(', ')}}); }`;
          };
          return {
            contents: [
              `export * from ${JSON.stringify(resolve('src/cli.ts'))};`,
              ...mods.map((f, i) => `import { ${(names.get(f) ?? []).map((n, j) => `${JSON.stringify(n)} as m${i}_${j}`).join(', ')} } from ${JSON.stringify(f)};`),
              'const made = [];',
              'const namespaceOf = (getters) => Object.defineProperties({}, Object.fromEntries(Object.entries(getters).map(([n, get]) => [n, { get, enumerable: true }])));',
              `export const __sctModules = {${mods.map(namespace).join(', ')}};`,
            ].join('\n'),
            resolveDir: resolve('.'),
            loader: 'js',
          };
        });
        // import() of a Node built-in would set up the ES module loader: required instead.
        b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'sct-builtin' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'sct-builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          const path = await resolveFully(b, args);
          if (path === undefined || hot.has(path)) return undefined;
          lazyRoots.add(path);
          return { path: LAZY_MARK + relative('.', path), external: true };
        });
      },
    }],
  });

  // 3. The chunks: every hot module they import is taken from dist/cli.cjs, by its exports' names.
  const requireHere = createRequire(import.meta.url);
  const { __sctModules } = requireHere(resolve('dist/cli.cjs'));
  // Loaded again for the help below, once step 4 has completed it.
  delete requireHere.cache[resolve('dist/cli.cjs')];
  rmSync(ESM_DIR, { recursive: true, force: true });
  const split = await build({
    ...common,
    // Sorted: the resolver adds them in whatever order its callbacks finish, and the same sources
    // must give the same chunks (their names, the code cache's file names).
    entryPoints: [...lazyRoots].sort(),
    outdir: ESM_DIR,
    entryNames: 'chunks/[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    // The chunk's own URL once it is CommonJS (step 3b's banner).
    define: { ...common.define, ...OWN_URL.define },
    sourcemap: SOURCEMAP,
    plugins: [lazyChildProcessForCommander, jsonAsString, {
      name: 'from-hot',
      setup(b) {
        // A hot module stays outside the chunks, named for step 3c, which reads it from
        // dist/cli.cjs. (As a module of its own here, each was split into a chunk file of a few
        // lines, and a command loaded a dozen of them before its own code.)
        b.onResolve({ filter: /.*/ }, async (args) => {
          const path = await resolveFully(b, args);
          if (path === undefined || !shared.has(path)) return undefined;
          const key = relative('.', path);
          if (!__sctModules[key]) throw new Error(`${key} is not in dist/cli.cjs`);
          // A default export would need esbuild's CommonJS interop, which sees a namespace as a module.exports.
          if ('default' in __sctModules[key]) throw new Error(`${key} has a default export: a chunk cannot take it from dist/cli.cjs`);
          return { path: HOT_MARK + key, external: true };
        });
      },
    }],
  });

  // Not ES modules in Node's sense for step 3b (the package is "type": "module"): an import() of
  // another chunk then gets that chunk's own exports, not Node's wrapping of a CommonJS file.
  writeFileSync(join(ESM_DIR, 'package.json'), '{ "type": "commonjs" }\n');
  // 3b. Each chunk made CommonJS, under dist/chunks/ with the same name ending .cjs: its imports
  // of other chunks and of dist/cli.cjs become require()s, its import()s require()s in a promise.
  const lazy = await build({
    ...common,
    entryPoints: Object.keys(split.metafile.outputs).filter((f) => f.endsWith('.js')),
    outbase: ESM_DIR,
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Strict, as the ES modules they were; their URL as the hot file's is.
    banner: { js: `'use strict';${OWN_URL.banner}` },
    supported: NO_IMPORT,
    sourcemap: SOURCEMAP,
    plugins: [{
      name: 'chunk-by-chunk',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          const sibling = /^\.\/.*\.js$/.test(args.path) && args.importer.startsWith(resolve(ESM_DIR));
          return { path: sibling ? args.path.replace(/\.js$/, '.cjs') : args.path, external: true };
        });
      },
    }],
  });
  rmSync(ESM_DIR, { recursive: true, force: true });

  // 3c. A chunk's imports of hot modules read them from dist/cli.cjs (one directory up), by path:
  // as its own properties, looked up as they are used (the bindings of an ES module import).
  for (const file of Object.keys(lazy.metafile.outputs).filter((f) => f.endsWith('.cjs'))) {
    const code = readFileSync(file, 'utf8').replace(new RegExp(`require\\((["'])${HOT_MARK}([^"']+)\\1\\)`, 'g'), (_, q, key) => `require(${q}../cli.cjs${q}).__sctModules[${q}${key}${q}]`);
    if (code.includes(HOT_MARK)) throw new Error(`${relative('.', file)} imports a hot module in a way step 3c does not know: ${HOT_MARK}`);
    writeFileSync(file, code);
  }

  // 4. The hot file's imports of chunks, now that their names are known.
  const chunkOf = new Map(Object.entries(split.metafile.outputs).filter(([, o]) => o.entryPoint).map(([out, o]) => [relative('.', resolve(o.entryPoint)), `./${relative(ESM_DIR, out).replace(/\.js$/, '.cjs')}`]));
  const hotFile = resolve('dist/cli.cjs');
  // esbuild wraps the require() of an import() as Node would see a CommonJS file imported
  // (__toESM(…, 1): its default export the whole module.exports); a chunk is an ES module made
  // CommonJS, whose exports are its own, default included.
  const text = readFileSync(hotFile, 'utf8').replace(new RegExp(`__toESM\\(require\\((["'])${LAZY_MARK}([^"']+)\\1\\),\\s*1\\)`, 'g'), (_, q, src) => {
    if (!chunkOf.has(src)) throw new Error(`no chunk for ${src}`);
    return `require(${q}${chunkOf.get(src)}${q})`;
  });
  if (text.includes(LAZY_MARK)) throw new Error(`dist/cli.cjs requires a chunk in a way step 4 does not know: ${LAZY_MARK}`);
  for (const [file, code] of [[hotFile, text], ...Object.keys(lazy.metafile.outputs).filter((f) => f.endsWith('.cjs')).map((f) => [f, readFileSync(f, 'utf8')])]) {
    if (/\bimport\(/.test(code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
      throw new Error(`${relative('.', file)} has an import(): see NO_IMPORT`);
    }
  }
  writeFileSync(hotFile, text);
  result = hotBuild;
  Object.assign(result.metafile.outputs, lazy.metafile.outputs);

  // The entry bin/sct.js loads: one CommonJS file of its own (bin/ is CommonJS, bin/package.json),
  // since --version and help are answered from it alone. cli.cjs is required from it when needed.
  const entry = await build({
    ...common,
    entryPoints: ['src/main.ts'],
    outfile: 'dist/main.cjs',
    format: 'cjs',
    banner: { js: "const __sctMainUrl = require('node:url').pathToFileURL(__filename).href;" },
    sourcemap: SOURCEMAP,
    // The code cache of cli.cjs is named by its content (src/cli/code-cache.ts).
    define: { ...common.define, 'import.meta.url': '__sctMainUrl', SCT_HOT_BUILD: JSON.stringify(createHash('sha256').update(text).digest('hex').slice(0, 16)) },
    external: ['./cli.cjs'],
  });
  Object.assign(result.metafile.outputs, entry.metafile.outputs);
} catch (err) {
  // esbuild has already printed its own errors.
  if (!err?.errors) console.error(err);
  process.exit(1);
}

// Every command's help as data (dist/help/…/index.txt): src/main.ts prints it without loading
// commander or the command tree. Rendered by the bundle just built, as `sct … --help` would.
const { renderHelpTexts } = createRequire(import.meta.url)(resolve('dist/cli.cjs'));
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
