import { defineConfig } from "tsup";

// The package: ESM (with the optional validation schemas split into their own chunk) and CommonJS, each with
// its own declarations (index.d.ts / index.d.cts), bundled from src/ and generated/.
// And the contract suite's command line (`webauto-contract`, dist/contract-cli.js): one ESM file for Node with
// every library it uses bundled in, so installing the package adds no dependency for client users. Prism is
// the exception: the mock starts it as a separate process from @stoplight/prism-cli (an optional peer).
export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    splitting: true,
    treeshake: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
    outDir: "dist",
    external: ["openapi-fetch", "ajv", "ajv-formats", "ajv/dist/2020.js"],
    tsconfig: "tsconfig.build.json",
  },
  {
    entry: { "contract-cli": "contract-tests/cli/run.ts" },
    format: ["esm"],
    dts: false,
    splitting: false,
    clean: false,
    target: "node20",
    platform: "node",
    outDir: "dist",
    noExternal: [/.*/],
    external: ["@stoplight/prism-cli"],
    // Bundled CommonJS libraries call require(): give the ESM file one.
    banner: {
      js:
        '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module";\nconst require = ' +
        "__createRequire(import.meta.url);",
    },
    tsconfig: "tsconfig.build.json",
  },
]);
