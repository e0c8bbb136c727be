/** Writes every file of a run's report, each through the scrubber: no file the suite writes can hold a key. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scrubber } from "../../wire/redact.js";
import type { ScenarioResult } from "../model/types.js";
import { formatJUnit } from "./junit.js";
import { formatMarkdown, formatText, type RunReport } from "./render.js";
import { formatHar, type TimedExchange } from "./har.js";
import { formatSarif } from "./sarif.js";

/** The files of a report, by name. */
const REPORT_FILES = {
  json: "contract-report.json",
  junit: "contract-junit.xml",
  markdown: "contract-summary.md",
  text: "contract-report.txt",
  sarif: "contract-report.sarif",
  har: "contract-exchanges.har",
} as const;

/**
 * Writes the JSON, JUnit, markdown, text and SARIF reports into `dir`, and the HAR archive of `exchanges` when the
 * run recorded them (a merged report has none: each shard's is beside its own reports); returns their paths.
 */
export function writeReports(
  dir: string,
  report: RunReport,
  results: ScenarioResult[],
  scrubber: Scrubber,
  exchanges?: readonly TimedExchange[],
): Partial<Record<keyof typeof REPORT_FILES, string>> {
  mkdirSync(dir, { recursive: true });
  const contents: Partial<Record<keyof typeof REPORT_FILES, string>> = {
    json: `${JSON.stringify(report, null, 2)}\n`,
    junit: formatJUnit(results, report.reach),
    markdown: formatMarkdown(report),
    text: `${formatText(report)}\n`,
    sarif: `${JSON.stringify(formatSarif(report), null, 2)}\n`,
    ...(exchanges ? { har: `${JSON.stringify(formatHar(exchanges), null, 2)}\n` } : {}),
  };
  const paths: Partial<Record<keyof typeof REPORT_FILES, string>> = {};
  for (const [kind, content] of Object.entries(contents) as Array<[keyof typeof REPORT_FILES, string]>) {
    const path = join(dir, REPORT_FILES[kind]);
    paths[kind] = path;
    writeFileSync(path, scrubber.text(content));
  }
  return paths;
}
