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
  },
});
