/**
 * `npm run docs`: builds the Redoc static page of the document to `site/index.html` (or `--out FILE`),
 * with Redoc's scripts inlined (`--inlineBundle`) so the page renders with no network.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SPEC_PATH } from "../openapi/lib/spec.js";

const require = createRequire(import.meta.url);

/** Builds the offline docs page at `outFile`; throws with redocly's output when the build fails. */
export function buildDocs(outFile: string): { outFile: string; bytes: number } {
  mkdirSync(dirname(outFile), { recursive: true });
  const cli = require.resolve("@redocly/cli/bin/cli.js");
  const res = spawnSync(
    process.execPath,
    [cli, "build-docs", SPEC_PATH, "--inlineBundle", "--title", "Web Automation Service API v1", "--output", outFile],
    { encoding: "utf8", cwd: fileURLToPath(new URL("../", import.meta.url)) },
  );
  if (res.status !== 0) throw new Error(`redocly build-docs failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
  return { outFile, bytes: statSync(outFile).size };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf("--out");
  const out = resolve(flag >= 0 && process.argv[flag + 1] ? process.argv[flag + 1]! : "site/index.html");
  const { bytes } = buildDocs(out);
  console.log(`wrote ${out} (${(bytes / 1024 / 1024).toFixed(2)} MB, renders offline)`);
}
