import { defineConfig } from "tsup";

// The package: ESM (with the optional validation schemas split into their own chunk) and CommonJS, each with
// its own declarations (index.d.ts / index.d.cts), bundled from src/ and generated/.
export default defineConfig({
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
});
