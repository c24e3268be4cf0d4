#!/usr/bin/env node
// CommonJS (bin/package.json): see scripts/build.mjs, dist/main.cjs.
let main;
try {
  main = require('../dist/main.cjs');
} catch (err) {
  // A checkout linked or run before its build (`npm install -g .` straight after a clone).
  if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).startsWith("Cannot find module '../dist/main.cjs'")) {
    process.stderr.write(`error: sct is not built: run \`npm run build\` in ${require('node:path').dirname(__dirname)}\n`);
    process.exit(1);
  }
  throw err;
}
main.run(process.argv.slice(2));
