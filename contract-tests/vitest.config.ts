import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The contract suite itself (not its self-tests), run by `npm run contract` (contract-tests/run.ts), which
// passes the parsed settings; started directly (`vitest run --config contract-tests/vitest.config.ts`) the
// global setup reads CONTRACT_* itself.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["contract-tests/suite/**/*.contract.ts"],
    globalSetup: ["contract-tests/global-setup.ts"],
    reporters: ["default", "./contract-tests/reporter.ts", "./scripts/summary-reporter.ts"],
    // A sitemap read may take 60 s (seed section 8) and a scenario makes several requests.
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One file, one worker: the scenarios share the run's state (links) and its request budget.
    fileParallelism: false,
  },
});
