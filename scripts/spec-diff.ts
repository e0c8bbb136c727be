/**
 * `npm run spec:diff -- --base <git ref> [--repo DIR] [--out FILE] [--summary FILE]`: compares
 * openapi/openapi.yaml at the ref with the working tree, puts every change under a rule of the rule
 * table (scripts/spec-diff/rules.ts: breaking, warning, non-breaking or annotation-only), prints a
 * markdown report with each change's rule and reason and writes it to FILE (default
 * reports/spec-diff.md in the repository), appending it to --summary FILE too when given. Warnings are
 * listed for a person and do not fail the gate.
 * Exit 0: no breaking change, or breaking changes with a major bump of info.version; 1: breaking
 * changes without one; 2: bad arguments; 3: any other failure.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseOptions, runCli } from "./spec-diff/cli.js";
import { renderReport } from "./spec-diff/report.js";
import { diffSpec } from "./spec-diff/run.js";

const USAGE = "usage: npm run spec:diff -- --base <git ref> [--repo DIR] [--out FILE] [--summary FILE]";

runCli(() => {
  const options = parseOptions(process.argv.slice(2), { out: { type: "string" }, summary: { type: "string" } }, USAGE);
  const diff = diffSpec(options.repo, options.base);
  const markdown = renderReport(diff);
  const out = options.out ? resolve(options.out) : join(diff.repo, "reports", "spec-diff.md");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, markdown);
  if (options.summary) appendFileSync(options.summary, `${markdown}\n`);
  process.stdout.write(markdown);
  process.stderr.write(`report written to ${out}\n`);
  return diff.verdict.ok ? 0 : 1;
});
