import { defineConfig } from "vitest/config";

/**
 * `npm run test:artifacts`: what the project publishes, as its users get it: the npm tarball (built, packed,
 * installed in a scratch project, imported from ESM and CommonJS, type-checked, its `webauto-contract` run) and
 * the docs site (built, then read in real headless Chromium with the network cut off); and the document's
 * toolchain as CI and a pull request run it, each a spawned command line: the spec gates (redocly, Spectral, the
 * generated-types drift check), `npm run spec:diff` and `spec:changelog` against throwaway git repositories, and an
 * operation added to the document then `npm run generate`. The slowest tests of the project (builds, installs, a
 * browser, some 40 CLI processes: about 90 s of CPU), kept out of `npm test` so that it stays within two minutes on a
 * 2-core machine; CI runs them before `npm test` (.ci/run, and the workflows' test job).
 */
export const ARTIFACT_TESTS = [
  "src/test/pack.test.ts",
  "openapi/test/docs.test.ts",
  "openapi/test/gates.test.ts",
  "scripts/test/spec-diff.test.ts",
  "scripts/test/added-operation.test.ts",
];

export default defineConfig({
  test: {
    include: ARTIFACT_TESTS,
    reporters: ["default", "./scripts/summary-reporter.ts"],
    globalSetup: ["./scripts/test/temp-dir.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
  },
});
