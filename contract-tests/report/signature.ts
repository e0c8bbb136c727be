/**
 * A run's verdict as lines two runs must share to be the same verdict (the same seed with another number of
 * workers, `npm run bench:workers`): each scenario in report order with its status, and each of its findings.
 */
import type { ScenarioResult } from "../model/types.js";
import type { RunReport } from "./render.js";

/**
 * What two runs must share to be the same verdict: each scenario in report order with its status, and each of its
 * findings with severity, check, rule, title and count. (Timings and the order requests went out in may differ.)
 */
export function verdictSignature(results: readonly ScenarioResult[]): string[] {
  return results.flatMap((r) => [
    `${r.id} ${r.status}${r.skipReason ? ` (${r.skipReason})` : ""}`,
    ...r.findings.map((f) => `  ${f.severity} ${f.check} ${f.rule ?? ""} ${f.title} x${f.count ?? 1}`),
  ]);
}

/** Where two signatures part: empty when they are the same, else the first differing line of each (by position). */
export function signatureDiff(a: readonly string[], b: readonly string[]): string[] {
  const at = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => i).find((i) => a[i] !== b[i]);
  return at === undefined ? [] : [`line ${at + 1}:`, `- ${a[at] ?? "(none)"}`, `+ ${b[at] ?? "(none)"}`];
}

/**
 * The same as {@link verdictSignature}, read from a run's JSON report (a run measured as a process, `npm run
 * bench:workers`): the verdict, the scenarios passed, failed and skipped, each finding (severity, check, rule,
 * operation, title, count) in report order, and each skipped scenario with its reason.
 */
export function reportSignature(report: RunReport): string[] {
  const { passed, failed, skipped } = report.summary.scenarios;
  return [
    `verdict ${report.verdict}: ${passed} passed, ${failed} failed, ${skipped} skipped`,
    ...report.findings.map(
      (f) => `  ${f.severity} ${f.check} ${f.rule ?? ""} ${f.operation} ${f.title} x${f.count ?? 1}`,
    ),
    ...report.skipped.map((s) => `skipped ${s.scenario}: ${s.reason}`),
  ];
}
