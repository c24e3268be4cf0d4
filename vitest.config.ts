import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end tests run the built bin/sct.js: build it once, before any test starts.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: e2e files each start a sandbox and spawn node processes.
    maxWorkers: 2,
    // Node's own ESM semantics for CommonJS packages, as the bundle has: vitest's default interop
    // would copy jq-web's export (a promise) onto the module object, which then reads as a
    // promise itself, and --jq fails in an in-process run.
    deps: { interopDefault: false },
  },
});
