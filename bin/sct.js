#!/usr/bin/env node
// CommonJS (bin/package.json): see scripts/build.mjs, dist/main.cjs.
require('../dist/main.cjs').run(process.argv.slice(2));
