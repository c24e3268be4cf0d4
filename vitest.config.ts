import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end tests run the built bin/sct.js: build it once, before any test starts.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker more than cores: much of an e2e file's time is waiting (rate-limit pauses,
    // backoffs, latency faults, runs killed at a chosen point), and the extra worker uses the CPU
    // the others leave idle. On 2 cores: 2 workers 156 s, 3 workers 83–112 s, 4 workers 119 s.
    maxWorkers: availableParallelism() + 1,
    // Node's own ESM semantics for CommonJS packages, as the bundle has: vitest's default interop
    // would copy jq-web's export (a promise) onto the module object, which then reads as a
    // promise itself, and --jq fails in an in-process run.
    deps: { interopDefault: false },
  },
});
