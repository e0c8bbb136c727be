/**
 * `npm run contract:merge [-- DIR...]`: joins the records of a sharded run (`npm run contract -- --shard i/n`,
 * each shard's DIR/contract-shard.json; default: every reports/shard-*-of-* folder) into the one verdict,
 * baseline comparison, reach and four report files (JSON, JUnit, markdown, text) a single run writes, in
 * CONTRACT_REPORTS_DIR (default reports). The baseline is the one the shards were judged against, or
 * CONTRACT_BASELINE; the minimum reach the shards' --min-reach, or CONTRACT_MIN_REACH.
 *
 * Exit codes as `npm run contract`: 0 pass, 1 findings, 2 a missing, doubled or mixed shard or an invalid
 * baseline, 3 an internal error, 4 incomplete (a shard was cut short).
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BaselineError } from "../report/baseline.js";
import { closingLines, exitCodeOf, formatText } from "../report/render.js";
import { parseShare } from "../config/options.js";
import { writeReports } from "../report/write.js";
import { SettingsError } from "../config/settings.js";
import { mergeReport, readRecords } from "./shard.js";
import { runScrubber } from "../transport/target.js";

/** The default shard folders: reports/shard-<i>-of-<n>. */
function defaultDirs(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((d) => /^shard-\d+-of-\d+$/.test(d))
    .map((d) => join(root, d));
}

function main(): number {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { help: { type: "boolean", default: false } },
  });
  if (values.help) {
    console.log(
      "usage: npm run contract:merge [-- DIR...]   (default: every reports/shard-*-of-* folder; writes to " +
        "CONTRACT_REPORTS_DIR, default reports; CONTRACT_MIN_REACH overrides the shards' --min-reach)",
    );
    return 0;
  }
  const outDir = resolve(process.env.CONTRACT_REPORTS_DIR?.trim() || "reports");
  const minReachText = process.env.CONTRACT_MIN_REACH?.trim();
  const dirs = positionals.length > 0 ? positionals.map((d) => resolve(d)) : defaultDirs(resolve("reports"));
  let merged: ReturnType<typeof mergeReport>;
  try {
    merged = mergeReport(
      readRecords(dirs),
      process.env.CONTRACT_BASELINE?.trim() ? resolve(process.env.CONTRACT_BASELINE.trim()) : undefined,
      new Date(),
      minReachText ? parseShare(minReachText, "CONTRACT_MIN_REACH") : undefined,
    );
  } catch (err) {
    if (err instanceof SettingsError || err instanceof BaselineError) {
      console.error(`contract:merge: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const { report, results } = merged;
  const scrubber = runScrubber({
    apiKey: process.env.CONTRACT_API_KEY ?? "",
    secondApiKey: process.env.CONTRACT_SECOND_API_KEY,
  });
  const paths = writeReports(outDir, report, results, scrubber);
  console.log(
    `${scrubber.text(formatText(report))}\nMerged ${dirs.length} shard(s). Reports: ${Object.values(paths).join(", ")}`,
  );
  for (const line of closingLines(report, "contract:merge")) console.log(line);
  return exitCodeOf(report.verdict);
}

try {
  process.exitCode = main();
} catch (err) {
  console.error(`contract:merge: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 3;
}
