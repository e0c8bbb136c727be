/** Writes every file of a run's report, each through the scrubber: no file the suite writes can hold a key. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scrubber } from "../../wire/redact.js";
import type { ScenarioResult } from "../model/types.js";
import { formatJUnit } from "./junit.js";
import { formatMarkdown, formatText, type RunReport } from "./render.js";

/** The files of a report, by name. */
const REPORT_FILES = {
  json: "contract-report.json",
  junit: "contract-junit.xml",
  markdown: "contract-summary.md",
  text: "contract-report.txt",
} as const;

/** Writes the JSON, JUnit, markdown and text reports into `dir`; returns their paths. */
export function writeReports(
  dir: string,
  report: RunReport,
  results: ScenarioResult[],
  scrubber: Scrubber,
): Record<keyof typeof REPORT_FILES, string> {
  mkdirSync(dir, { recursive: true });
  const contents: Record<keyof typeof REPORT_FILES, string> = {
    json: `${JSON.stringify(report, null, 2)}\n`,
    junit: formatJUnit(results, report.reach),
    markdown: formatMarkdown(report),
    text: `${formatText(report)}\n`,
  };
  const paths = {} as Record<keyof typeof REPORT_FILES, string>;
  for (const [kind, content] of Object.entries(contents) as Array<[keyof typeof REPORT_FILES, string]>) {
    paths[kind] = join(dir, REPORT_FILES[kind]);
    writeFileSync(paths[kind], scrubber.text(content));
  }
  return paths;
}
