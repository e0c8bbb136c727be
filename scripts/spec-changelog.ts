/**
 * `npm run spec:changelog -- --base <git ref> [--repo DIR] [--changelog FILE] [--date YYYY-MM-DD]`:
 * writes (or replaces) the CHANGELOG.md entry for the working-tree document's info.version, one bullet
 * per change found by the same comparison as `spec:diff`. Exit 0, or 2 on bad arguments, 3 on failure.
 */
import { join, resolve } from "node:path";
import { UsageError, parseOptions, runCli } from "./spec-diff/cli.js";
import { writeEntry } from "./spec-diff/changelog.js";
import { diffSpec } from "./spec-diff/run.js";

const USAGE = "usage: npm run spec:changelog -- --base <git ref> [--repo DIR] [--changelog FILE] [--date YYYY-MM-DD]";

runCli(() => {
  const options = parseOptions(
    process.argv.slice(2),
    { changelog: { type: "string" }, date: { type: "string" } },
    USAGE,
  );
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UsageError(`--date ${date} is not YYYY-MM-DD`);
  const diff = diffSpec(options.repo, options.base);
  const file = options.changelog ? resolve(options.changelog) : join(diff.repo, "CHANGELOG.md");
  const bullets = writeEntry(file, diff, date);
  process.stdout.write(`${file}: entry ${diff.headVersion} (${date}) with ${bullets.length} change(s)\n`);
  return 0;
});
