import { defineConfig } from "vitest/config";

// `npm test`: every self-test of the project (spec, client, contract checks, docs). The contract suite
// itself (contract-tests/suite) has its own config and runs through `npm run contract`.
export default defineConfig({
  test: {
    include: [
      "openapi/test/**/*.test.ts",
      "src/**/*.test.ts",
      "contract-tests/self-tests/**/*.test.ts",
      "scripts/test/**/*.test.ts",
    ],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    globalSetup: ["./scripts/test/temp-dir.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The test files share a worker's module cache instead of importing the project again each (no test changes
    // global state it does not restore): measured 152.7 s isolated, 134.9 s shared, on the 2-core machine.
    isolate: false,
    // Many tests wait on child processes, servers or a browser: a third worker overlaps those waits on 2 cores
    // (measured: 128 s with 2 workers, 85 s with 3, no better with 4).
    maxWorkers: 3,
  },
});
