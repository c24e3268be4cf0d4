// Natural Earth 1:50m country outlines (world-atlas). A JavaScript shim with a hand-written
// .d.ts beside it: the type checker then never reads the 750 KB JSON (inferring its type cost
// ~8 s and 55 MB per `tsc` run), while esbuild and vitest bundle it as usual.
export { default } from 'world-atlas/countries-50m.json';
