import { defineConfig } from "vitest/config";

// `npm test`: every self-test of the project (spec, client, contract checks, docs). The contract suite
// itself (contract-tests/suite) has its own config and runs through `npm run contract`.
export default defineConfig({
  test: {
    include: ["openapi/test/**/*.test.ts", "src/**/*.test.ts", "contract-tests/self-tests/**/*.test.ts", "scripts/test/**/*.test.ts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
