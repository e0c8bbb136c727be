/**
 * Which security checks ran on each operation, and why the others did not: the security phases of the phase table
 * (model/phases.ts, the rows with `security`), read from the run's results. A phase ran on an operation when a
 * scenario of it got an HTTP answer from that operation (a resource phase's scenario answers for every operation of
 * its family); it did not when its scenarios of the operation were skipped (their reason), when every scenario of
 * the phase wanted what the run has not got (that reason), when the run selected no scenario of the phase
 * (what the phase needs that the run has not got, else --phases), or when the phase planned nothing for the operation
 * (the row's `absent`).
 */
import { PHASES, type PhaseRow } from "../model/phases.js";
import { needs, skipText } from "../model/skip.js";
import type { ScenarioResult } from "../model/types.js";

/** One operation's security checks (`security` of contract-report.json). */
export interface OperationSecurity {
  operationId: string;
  /** The security phases that got an answer from it, in the table's order. */
  ran: string[];
  /** The others, each with why it sent nothing here. */
  notRun: Array<{ phase: string; reason: string }>;
}

const SECURITY_PHASES = (PHASES as readonly PhaseRow[]).filter(
  (p): p is PhaseRow & { security: NonNullable<PhaseRow["security"]> } => p.security !== undefined,
);

/** Why a phase sent nothing to an operation, from its skipped scenarios of it (their distinct reasons). */
function skippedReason(own: readonly ScenarioResult[]): string | undefined {
  const reasons = [
    ...new Set(
      own
        .filter((r) => r.status === "skipped")
        .map((r) => (r.skip ? skipText(r.skip) : (r.skipReason ?? "skipped")).replace(/^skipped: /, "")),
    ),
  ];
  return reasons.length ? reasons.join("; ") : undefined;
}

/** The security lines of `operations` (the run's selected operations, in the report's order). */
export function computeSecurity(
  operations: readonly string[],
  results: readonly ScenarioResult[],
  kind: string,
): OperationSecurity[] {
  // Indexed once (a large document has thousands of operations and tens of thousands of scenarios).
  const phases = new Set<string>();
  const answered = new Set<string>();
  const own = new Map<string, ScenarioResult[]>();
  const key = (phase: string, operation: string) => `${phase}\u0000${operation}`;
  for (const r of results) {
    phases.add(r.phase);
    for (const [op, statuses] of Object.entries(r.answered ?? {}))
      if (statuses.length > 0) answered.add(key(r.phase, op));
    const k = key(r.phase, r.operation);
    const list = own.get(k);
    if (list) list.push(r);
    else own.set(k, [r]);
  }
  // A phase whose every scenario wanted what the run has not got (a second account, a live target): that is why
  // it sent nothing to any operation, including those of a family its scenarios are not named after.
  const runWide = new Map<string, string>();
  for (const row of SECURITY_PHASES) {
    const all = results.filter((r) => r.phase === row.id);
    if (all.length > 0 && all.every((r) => r.status === "skipped" && r.skip?.kind === "needs"))
      runWide.set(row.id, skippedReason(all.slice(0, 1))!);
  }
  return operations.map((operationId) => {
    const out: OperationSecurity = { operationId, ran: [], notRun: [] };
    for (const row of SECURITY_PHASES) {
      if (answered.has(key(row.id, operationId))) {
        out.ran.push(row.id);
        continue;
      }
      const reason = phases.has(row.id)
        ? (skippedReason(own.get(key(row.id, operationId)) ?? []) ?? runWide.get(row.id) ?? row.security.absent)
        : noScenario(row, kind);
      out.notRun.push({ phase: row.id, reason });
    }
    return out;
  });
}

/** Why a phase had no scenario at all in the run: what it needs that the run has not got, else the selection. */
function noScenario(row: PhaseRow, kind: string): string {
  if (kind !== "live" && row.needs.includes("live-target"))
    return skipText(needs("live-target")).replace(/^skipped: /, "");
  const producer = row.needs.includes("producer") ? ", or no create in the document that feeds an identifier" : "";
  return `the run had no scenario of this phase (not selected by --phases${producer})`;
}

/** A phase's reason for not running shared by several operations: said once, at the top of a report. */
interface RunWideReason {
  phase: string;
  reason: string;
  /** How many operations it holds for (all of them: `operations` equals the selection's size). */
  operations: number;
}

/**
 * The reasons said once for the whole run: a phase's reason for sending nothing that two operations or more share
 * (no second account, no scenario of the phase, a mock target; nothing of the operation the phase could send).
 */
export function runWideSecurity(security: readonly OperationSecurity[]): RunWideReason[] {
  const shared = new Map<string, RunWideReason>();
  for (const o of security)
    for (const { phase, reason } of o.notRun) {
      const key = `${phase}\u0000${reason}`;
      const seen = shared.get(key);
      if (seen) seen.operations++;
      else shared.set(key, { phase, reason, operations: 1 });
    }
  return [...shared.values()].filter((r) => r.operations >= 2);
}

/** Longest reason of one phase an operation's security line gives (the JSON report has the whole). */
const MAX_REASON = 100;

/**
 * One operation's security line in the text report: the phases that ran, those that did not with their own short
 * reason, and those whose reason several operations share (`runWide`, said once above) by name only.
 */
export function securityText(s: OperationSecurity, runWide: readonly RunWideReason[] = []): string {
  const ran = s.ran.length ? `ran ${s.ran.join(", ")}` : "ran none";
  const wide = (n: { phase: string; reason: string }) =>
    runWide.some((r) => r.phase === n.phase && r.reason === n.reason);
  const own = s.notRun
    .filter((n) => !wide(n))
    .map((n) => `${n.phase} (${n.reason.length > MAX_REASON ? `${n.reason.slice(0, MAX_REASON)}…` : n.reason})`);
  const rest = s.notRun.filter(wide).map((n) => n.phase);
  const notRun = [...own, ...(rest.length ? [`${rest.join(", ")} (see above)`] : [])].join("; ");
  return `security checks: ${ran}${notRun ? `; not run: ${notRun}` : ""}`;
}

/** The shared reasons as lines, once at the top of a report (`operations`: how many the run selected). */
export function runWideText(runWide: readonly RunWideReason[], operations: number): string[] {
  return runWide.map(
    (r) =>
      `security check ${r.phase} not run` +
      `${r.operations < operations ? ` on ${r.operations} of ${operations} operations` : ""}: ${r.reason}`,
  );
}
