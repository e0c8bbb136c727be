import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { ARTIFACT_TESTS } from "./vitest.artifacts.config.js";

/**
 * The files that take longest on the 2-core machine (CPU seconds of each run alone, longest first): started first,
 * so no worker is left with one of them while the others have nothing to do. Without a cache of past durations (a
 * fresh CI checkout) vitest would start the largest files first, which are not these: measured 145 s without the
 * cache against 125 s with it before this list named every such file.
 */
const SLOW_FIRST = [
  "contract-tests/self-tests/engine/accounts.test.ts",
  "contract-tests/self-tests/cli.test.ts",
  "openapi/test/mock-lifecycle.test.ts",
  "contract-tests/self-tests/real-documents.test.ts",
  "contract-tests/self-tests/conforming-servers.test.ts",
  "contract-tests/self-tests/hostile.test.ts",
  "contract-tests/self-tests/crud.test.ts",
  "contract-tests/self-tests/hostile-runs.test.ts",
  "contract-tests/self-tests/scale.test.ts",
  "contract-tests/self-tests/security-schemes.test.ts",
  "contract-tests/self-tests/mock-crash.test.ts",
  "contract-tests/self-tests/reach.test.ts",
  "scripts/test/readme.test.ts",
  "contract-tests/self-tests/faults.test.ts",
  "openapi/test/mock.test.ts",
  "contract-tests/self-tests/owned-members.test.ts",
  "contract-tests/self-tests/documents.test.ts",
  "contract-tests/self-tests/engine/unsendable.test.ts",
  "src/test/prism.test.ts",
  "contract-tests/self-tests/transport-faults.test.ts",
  "contract-tests/self-tests/output-flush.test.ts",
  "scripts/test/summary-reporter.test.ts",
  "src/test/browser.test.ts",
  "contract-tests/self-tests/target.test.ts",
  "src/test/transport.test.ts",
  "src/test/secrets.test.ts",
  "scripts/test/workflows.test.ts",
];

/** The known slow files first, in their order; the rest in vitest's (failed, then longest, first). */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((path) => f.moduleId.endsWith(`/${path}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// `npm test`: every self-test of the project (spec, client, contract checks, docs building blocks), but the
// published artifacts' (vitest.artifacts.config.ts) and the public-document corpus's, which CI runs first.
export default defineConfig({
  test: {
    include: [
      "openapi/test/**/*.test.ts",
      "src/**/*.test.ts",
      "wire/**/*.test.ts",
      "contract-tests/self-tests/**/*.test.ts",
      "scripts/test/**/*.test.ts",
    ],
    // The published artifacts (the packed tarball, the docs site in Chromium): `npm run test:artifacts`.
    exclude: ["**/node_modules/**", ...ARTIFACT_TESTS],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    sequence: { sequencer: SlowFirst },
    globalSetup: ["./scripts/test/temp-dir.setup.ts", "./scripts/test/cli-bundle.setup.ts"],
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
