// Bundles src/ and its dependencies into dist/ with one chunk per command group, so
// `sct --version` and `sct --help` load one small file (commander included) and a group's
// code, dependencies and all, is read only when that group runs. Resolving and reading
// dozens of node_modules files at start-up costs more than the code itself on a slow disk.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

try {
  await build({
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
  logLevel: 'warning',
  });
} catch {
  // esbuild has already printed the errors.
  process.exit(1);
}
