// `npm run check:layers` (and .ci/run): imports point downward and no two files import each
// other, directly or round a longer loop. Type-only imports count: a cycle of types is a cycle
// of ideas. The layers, top to bottom: cli.ts; commands/; context.ts and the layers under it
// (api, output, config, bulk, sync, geo, help, sandbox); util/ and errors.ts at the bottom.
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'two modules that need each other are one module, or need a third', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'lower-layer-imports-command',
      comment: 'a lower layer never imports a command or cli.ts: what it needs goes down to it',
      severity: 'error',
      from: { path: '^src/(api|output|config|bulk|sandbox|geo|sync|help|util)/' },
      to: { path: '^src/(commands/|cli\\.ts$)' },
    },
    {
      name: 'context-imports-command',
      severity: 'error',
      from: { path: '^src/(context|errors|prompt|version)\\.ts$' },
      to: { path: '^src/(commands/|cli\\.ts$)' },
    },
    {
      name: 'util-is-the-bottom',
      comment: 'src/util holds helpers every layer may use; it uses only errors.ts and Node',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/(util/|errors\\.ts$)' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
