/**
 * `npm test`'s global setup: the contract suite's command line bundled once, as the package ships it (tsup.config.ts's
 * `contract-cli` entry, `webauto-contract`), for the tests that spawn it (contract-tests/self-tests/support/spawn.ts).
 * A spawn of the bundle starts in 0.25 s of CPU; run.ts under tsx's loader took 1.6 s, some 60 spawns a test pass.
 * The bundle goes under node_modules/.cache of the project, where it finds the project's document and Prism as the
 * installed package finds its own; each run its own folder, removed when the run ends.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Options } from "tsup";
import configs from "../../tsup.config.js";
import { CLI_BUNDLE_VARIABLE } from "../../contract-tests/self-tests/support/spawn.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Builds the bundle and points CLI_BUNDLE_VARIABLE at it; returns the teardown that removes it. */
export default async function setup(): Promise<() => void> {
  const entry = (configs as Options[]).find((c) => typeof c.entry === "object" && "contract-cli" in c.entry);
  if (!entry) throw new Error("tsup.config.ts has no contract-cli entry");
  const cache = join(ROOT, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, "webauto-contract-cli-"));
  await build({ ...entry, outDir, config: false, silent: true });
  process.env[CLI_BUNDLE_VARIABLE] = join(outDir, "contract-cli.js");
  return () => rmSync(outDir, { recursive: true, force: true });
}
