// `npm run check:layers` (and .ci/run): imports point downward and no two files import each
// other, directly or round a longer loop. Type-only imports count: a cycle of types is a cycle
// of ideas. The layers, top to bottom: cli.ts; cli/ (what cli.ts builds the program from);
// commands/; context.ts and the layers under it
// (api, output, config, bulk, sync, geo, help, sandbox); util/ and errors.ts at the bottom.
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'two modules that need each other are one module, or need a third', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'lower-layer-imports-command',
      comment: 'a lower layer never imports a command or cli.ts: what it needs goes down to it',
      severity: 'error',
      from: { path: '^src/(api|output|config|bulk|sandbox|geo|sync|help|util)/' },
      to: { path: '^src/(commands/|cli/|cli\\.ts$)' },
    },
    {
      name: 'command-imports-cli',
      comment: 'a command never imports the program around it: what both need is in commands/shared',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/(cli/|cli\\.ts$)' },
    },
    {
      name: 'cli-parts-import-cli',
      comment: 'cli.ts builds the program from src/cli/, never the other way round',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/cli\\.ts$' },
    },
    {
      name: 'context-imports-command',
      severity: 'error',
      from: { path: '^src/(context|errors|prompt|version|global-flags|option-types)\\.ts$' },
      to: { path: '^src/(commands/|cli/|cli\\.ts$)' },
    },
    {
      name: 'api-imports-output',
      comment: 'output writes what api reads (src/output imports api/json-page, api/schemas): the client never imports the writers, so the two folders need each other in one direction only',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/output/' },
    },
    {
      name: 'http-only-in-the-client',
      comment: 'all HTTP behaviour is in one client (src/api): no other module opens a request of its own (the sandbox is the service side; sct\'s start only connects, src/cli/early-connection.ts)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(api/|sandbox/)' },
      to: { path: '^(node:)?(http|https|http2|tls)$|node_modules/undici/' },
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
  },
};
