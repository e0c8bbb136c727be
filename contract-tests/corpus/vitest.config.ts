import { defineConfig } from "vitest/config";

// `npm run test:corpus`: every public document of contract-tests/corpus runs to a verdict or is refused
// clearly, and a sharded run of a large one equals its single run. Minutes, not seconds: CI runs it before
// `npm test` (.ci/run), so `npm test`'s closing line stays the last line of CI's output.
export default defineConfig({
  test: {
    include: ["contract-tests/corpus/**/*.test.ts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    globalSetup: ["./scripts/test/temp-dir.setup.ts"],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: "forks",
  },
});
