/**
 * A run's verdict as lines two runs must share to be the same verdict (the same seed with another number of
 * workers, `npm run bench:workers`): each scenario in report order with its status, and each of its findings.
 */
import type { ScenarioResult } from "../model/types.js";

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
