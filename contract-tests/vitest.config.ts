import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The contract suite itself (not the self-tests): run by contract-tests/run.ts, which sets the CONTRACT_* variables.
const reportsDir = resolve(process.env.CONTRACT_REPORTS_DIR?.trim() || "reports");

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["contract-tests/suite/**/*.contract.ts"],
    reporters: ["default", "./scripts/summary-reporter.ts", ["junit", { outputFile: join(reportsDir, "contract-junit.xml"), suiteName: "contract" }]],
    // The sitemap may run 60 s per call (seed section 8) and a test makes several calls.
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: "forks",
    sequence: { concurrent: false },
  },
});
