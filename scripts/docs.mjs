// `npm run docs`: writes the manual (docs/*.md, man/*.1) from the built command tree, and removes
// the pages of commands that no longer exist. The hand-written pages of docs/ (development.md,
// decisions.md, decisions/) are not the generator's and are left alone.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';

const { renderManualFiles } = createRequire(import.meta.url)(resolve('dist/cli.cjs'));
const files = await renderManualFiles();
for (const [path, text] of files) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
const generated = { docs: /^sct(-.+)?\.md$/, man: /\.1$/ };
for (const [dir, pattern] of Object.entries(generated)) {
  for (const name of readdirSync(dir)) {
    if (pattern.test(name) && !files.has(`${dir}/${name}`)) rmSync(`${dir}/${name}`);
  }
}
// npm links the man pages package.json names (`man sct` after a global install); it has no
// wildcard, and a "directories.man" folder was not linked when the tarball was installed.
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const man = [...files.keys()].filter((p) => p.startsWith('man/')).sort().map((p) => `./${p}`);
const withMan = {};
for (const [key, value] of Object.entries(pkg)) {
  if (key === 'man' || key === 'directories') continue;
  withMan[key] = value;
  if (key === 'bin') withMan.man = man;
}
writeFileSync('package.json', `${JSON.stringify(withMan, null, 2)}\n`);
console.log(`docs/ and man/ updated: ${files.size} files`);
