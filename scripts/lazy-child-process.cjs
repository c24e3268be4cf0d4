// Stands in for node:child_process inside commander, which needs it only to run external
// sub-command executables (sct has none); the real module (≈5 ms to load) loads on first use.
let real;
module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });
