/**
 * Reach: how much of the document a run exercised. An operation is reached when at least one request to it
 * (any phase, any credential, any method) got an HTTP answer, any status line; a request with no answer and a
 * documented example checked without sending do not count. For
 * each operation the report says which documented statuses were seen and, when it was not reached, why (its
 * skipped scenarios' reasons, grouped). `--min-reach` fails a run whose reached share of the selected
 * operations is below it.
 */
import { documentedStatusKey } from "../../openapi/lib/operations.js";
import { skipText, type SkipReason } from "../model/skip.js";
import type { ScenarioResult } from "../model/types.js";

/** One operation's reach. */
export interface OperationReach {
  operationId: string;
  reached: boolean;
  /** Every status answered, ascending (documented or not). */
  statuses: number[];
  /** The document's statuses of the operation ("200", "4XX", "default"), in its order; absent when unknown. */
  documented?: string[];
  /** The documented statuses an answer matched (exactly, by range, or by `default`), in the document's order. */
  documentedSeen?: string[];
  /** Why it was not reached: the reasons of its scenarios, grouped, the first one the headline's. */
  notReached?: Array<{ reason: string; scenarios: number; detail: string }>;
}

/** The reach of a run (`reach` of contract-report.json). */
export interface Reach {
  /** Operations of the document. */
  documentOperations: number;
  /** Operations of the document with an answered request. */
  documentReached: number;
  /** Operations this run selected: the document's, or the share --operations or --shard narrowed it to. */
  selectedOperations: number;
  /** Selected operations with an answered request. */
  reachedOperations: number;
  /** reachedOperations / selectedOperations (1 when none is selected). */
  share: number;
  /** How --operations or --shard narrowed the run, when they did (e.g. "--operations, --shard 1/2"). */
  narrowedBy?: string;
  /** Selected operations not reached, by headline reason, most first. */
  reasons: Array<{ reason: string; operations: number }>;
  /** --min-reach (a share 0..1), when set. */
  minimum?: number;
  /** The reached share is below --min-reach: the run fails. */
  belowMinimum: boolean;
  /** The selected operations, in the report's order. */
  operations: OperationReach[];
}

/** A reason class: its phrase after a count of one and of several operations, and the skips it holds. */
interface ReasonClass {
  one: string;
  many: string;
  holds(r: SkipReason): boolean;
}

/**
 * Reason classes, in priority: an operation's headline reason is the first class any of its skipped scenarios
 * has (a run cut short first), read from the scenario's typed reason (model/skip.ts). Reasons that say only why a
 * probe did not apply (no auth to probe, no input to rule out, no second account) never say why nothing was sent:
 * they explain an operation only when nothing else does.
 */
const CLASSES: ReasonClass[] = [
  {
    one: "was cut by the request budget",
    many: "were cut by the request budget",
    holds: (r) => r.kind === "cut" && r.by === "budget",
  },
  {
    one: "was cut: the target did not answer",
    many: "were cut: the target did not answer",
    holds: (r) => r.kind === "cut" && (r.by === "unanswering" || r.by === "preflight"),
  },
  {
    one: "was cut by --max-failures",
    many: "were cut by --max-failures",
    holds: (r) => r.kind === "cut" && r.by === "max-failures",
  },
  {
    one: "was refused by the request boundary",
    many: "were refused by the request boundary",
    holds: (r) => r.kind === "refused",
  },
  {
    one: "needs an id",
    many: "need an id",
    holds: (r) => r.kind === "needs-value" || (r.kind === "no-value" && /path parameter/.test(r.text)),
  },
  {
    one: "needs a live target",
    many: "need a live target",
    holds: (r) => r.kind === "needs" && r.need === "live-target",
  },
  { one: "needs a parameter value", many: "need a parameter value", holds: (r) => r.kind === "no-value" },
  {
    one: "has a body the suite cannot write",
    many: "have a body the suite cannot write",
    holds: (r) => r.kind === "body",
  },
  {
    one: "has a part of the document the suite cannot use",
    many: "have parts of the document the suite cannot use",
    holds: (r) => r.kind === "document",
  },
  {
    one: "has no link value to follow",
    many: "have no link values to follow",
    holds: (r) => r.kind === "no-link-value",
  },
];

/** Reasons that say why a probe did not apply, never why an operation got no request at all. */
const notApplicable = (r: SkipReason) =>
  r.kind === "not-applicable" || r.kind === "needs-records" || (r.kind === "needs" && r.need !== "live-target");

/** The groups of reasons besides the classes, in their rank after them. */
const NO_ANSWER = "got no HTTP answer";
const INTERNAL = "met an internal error of the suite";
const NO_SCENARIO = "had no scenario in this run";

/** The rank of a grouped reason: a class's by its place, any other after them. */
const rankOf = (reason: string) => {
  const i = CLASSES.findIndex((c) => c.many === reason);
  return i < 0 ? CLASSES.length : i;
};

/** A reason's group (a class's plural phrase, or the reason itself) and rank (lower explains an operation first). */
function groupOf(r: ScenarioResult): { group: string; rank: number; detail: string } {
  if (r.status !== "skipped")
    return r.error
      ? { group: INTERNAL, rank: CLASSES.length + 1, detail: "an internal error of the suite" }
      : { group: NO_ANSWER, rank: CLASSES.length, detail: "no request got an HTTP answer" };
  const detail = (r.skip ? skipText(r.skip) : (r.skipReason ?? "skipped")).replace(/^skipped: /, "");
  if (!r.skip) return { group: detail, rank: CLASSES.length + 2, detail };
  if (notApplicable(r.skip)) return { group: detail, rank: CLASSES.length + 3, detail };
  const i = CLASSES.findIndex((c) => c.holds(r.skip!));
  return i < 0 ? { group: detail, rank: CLASSES.length + 2, detail } : { group: CLASSES[i]!.many, rank: i, detail };
}

/** What the reach of a run is computed from. */
export interface ReachInput {
  /** Every operation of the document, by id. */
  document: readonly string[];
  /** The operations the run selected (default: those listed). */
  selected?: readonly string[];
  /** How --operations or --shard narrowed the run. */
  narrowedBy?: string;
  /** --min-reach, a share 0..1. */
  minimum?: number;
}

/** The reach of a run from its results; `listed` are the report's operations (with their documented statuses). */
export function computeReach(
  listed: ReadonlyArray<{ operationId: string; responses?: string[] }>,
  results: readonly ScenarioResult[],
  input: ReachInput,
): Reach {
  const seen = new Map<string, Set<number>>();
  for (const r of results)
    for (const [op, statuses] of Object.entries(r.answered ?? {})) {
      const set = seen.get(op) ?? new Set<number>();
      seen.set(op, set);
      for (const s of statuses) set.add(s);
    }
  const selected = new Set(input.selected ?? listed.map((o) => o.operationId));
  const byId = new Map(listed.map((o) => [o.operationId, o]));
  // The selected operations in the report's order (a selected one the report does not list, at the end).
  const order = [...listed.map((o) => o.operationId).filter((id) => selected.has(id))];
  for (const id of selected) if (!byId.has(id)) order.push(id);
  const resultsOf = new Map<string, ScenarioResult[]>();
  for (const r of results) {
    const list = resultsOf.get(r.operation);
    if (list) list.push(r);
    else resultsOf.set(r.operation, [r]);
  }
  const operations = order.map((id): OperationReach => {
    const statuses = [...(seen.get(id) ?? [])].sort((a, b) => a - b);
    const documented = byId.get(id)?.responses;
    const out: OperationReach = { operationId: id, reached: statuses.length > 0, statuses };
    if (documented) {
      const matched = new Set(statuses.map((s) => documentedStatusKey(documented, s)).filter((k) => k !== undefined));
      out.documented = documented;
      out.documentedSeen = documented.filter((d) => matched.has(d));
    }
    if (!out.reached) out.notReached = whyNotReached(resultsOf.get(id) ?? []);
    return out;
  });
  const reachedOperations = operations.filter((o) => o.reached).length;
  const headline = new Map<string, number>();
  for (const o of operations) {
    if (o.reached) continue;
    const key = o.notReached![0]!.reason;
    headline.set(key, (headline.get(key) ?? 0) + 1);
  }
  const share = operations.length === 0 ? 1 : reachedOperations / operations.length;
  return {
    documentOperations: input.document.length,
    documentReached: input.document.filter((id) => (seen.get(id)?.size ?? 0) > 0).length,
    selectedOperations: operations.length,
    reachedOperations,
    share,
    ...(input.narrowedBy ? { narrowedBy: input.narrowedBy } : {}),
    // Most operations first; a tie in the classes' order (a run cut short first).
    reasons: [...headline]
      .map(([reason, n]) => ({ reason, operations: n }))
      .sort((a, b) => b.operations - a.operations || rankOf(a.reason) - rankOf(b.reason)),
    ...(input.minimum !== undefined ? { minimum: input.minimum } : {}),
    belowMinimum: input.minimum !== undefined && share < input.minimum,
    operations,
  };
}

/**
 * Why an operation got no answered request, from its scenarios: their reasons grouped, the one that explains
 * the operation best first (see CLASSES).
 */
function whyNotReached(results: readonly ScenarioResult[]): NonNullable<OperationReach["notReached"]> {
  if (results.length === 0)
    return [{ reason: NO_SCENARIO, scenarios: 0, detail: "no scenario of this run sends to it" }];
  const groups = new Map<string, { rank: number; scenarios: number; detail: string }>();
  for (const r of results) {
    const { group, rank, detail } = groupOf(r);
    const g = groups.get(group);
    if (g) g.scenarios++;
    else groups.set(group, { rank, scenarios: 1, detail });
  }
  return [...groups]
    .sort(([, a], [, b]) => a.rank - b.rank)
    .map(([reason, g]) => ({ reason, scenarios: g.scenarios, detail: g.detail }));
}

/** Most reasons the verdict line names (the report lists every operation's). */
const MAX_HEADLINE_REASONS = 4;
/** Longest reason of no class the verdict line quotes. */
const MAX_QUOTED_REASON = 120;

/** A headline reason with its count of operations: "3 need an id", "1 needs a live target", "2 were skipped: ...". */
function counted(reason: string, n: number): string {
  const c = CLASSES.find((x) => x.many === reason);
  if (c) return `${n} ${n === 1 ? c.one : c.many}`;
  if (reason === NO_ANSWER || reason === INTERNAL || reason === NO_SCENARIO) return `${n} ${reason}`;
  const quoted = reason.length > MAX_QUOTED_REASON ? `${reason.slice(0, MAX_QUOTED_REASON)}…` : reason;
  return `${n} ${n === 1 ? "was" : "were"} skipped: ${quoted}`;
}

/** A share as a percentage, rounded down to a tenth (a hair of float error is not rounded down: 0.57 is 57%). */
const pct = (share: number) => `${Math.floor(share * 1000 + 1e-9) / 10}%`;

/** The reasons for what was not reached, counted: "3 need an id; 1 needs a live target". */
function reasonsText(reach: Reach): string {
  const shown = reach.reasons.slice(0, MAX_HEADLINE_REASONS).map((r) => counted(r.reason, r.operations));
  const rest = reach.reasons.slice(MAX_HEADLINE_REASONS).reduce((n, r) => n + r.operations, 0);
  if (rest > 0) shown.push(`${rest} for other reasons (see the report)`);
  return shown.join("; ");
}

/**
 * The reach next to a verdict: "reached all 6 operations", "reached 3 of 6 operations: 3 need an id", or,
 * when the run was narrowed, "reached 2 of 3 selected operations (--operations; 2 of 6 of the document): ...".
 */
export function reachText(reach: Reach): string {
  if (reach.selectedOperations === 0) return "no operation selected";
  const ops = (n: number) => `${n} operation${n === 1 ? "" : "s"}`;
  const narrowed = reach.narrowedBy ?? (reach.selectedOperations < reach.documentOperations ? "selected" : undefined);
  const of = narrowed
    ? `${reach.reachedOperations === reach.selectedOperations ? `all ${reach.selectedOperations}` : `${reach.reachedOperations} of ${reach.selectedOperations}`} ` +
      `selected ${reach.selectedOperations === 1 ? "operation" : "operations"} ` +
      `(${narrowed}; ${reach.documentReached} ` +
      `of the document's ${ops(reach.documentOperations)})`
    : reach.reachedOperations === reach.selectedOperations
      ? `all ${ops(reach.selectedOperations)}`
      : `${reach.reachedOperations} of ${ops(reach.selectedOperations)}`;
  const why = reasonsText(reach);
  return `reached ${of}${why ? `: ${why}` : ""}`;
}

/** The verdict with its reach: "PASS (reached 3 of 6 operations: 3 need an id)". */
export function verdictText(verdict: string, reach: Reach | undefined): string {
  return reach ? `${verdict.toUpperCase()} (${reachText(reach)})` : verdict.toUpperCase();
}

/** The sentence of a run below --min-reach ("" when it is not). */
export function belowMinimumText(reach: Reach | undefined): string {
  if (!reach?.belowMinimum) return "";
  return (
    `FAIL: reach ${pct(reach.share)} (${reach.reachedOperations} of ${reach.selectedOperations} selected ` +
    `operations) is below the minimum ${pct(reach.minimum!)} (--min-reach)`
  );
}

/** One operation's reach as a line: "200, 404 of 200, 404, 422", or why it was not reached. */
export function operationReachText(o: OperationReach): string {
  if (!o.reached)
    return `not reached: ${o.notReached!.map((n) => (n.scenarios ? `${n.scenarios} scenario(s): ${n.detail}` : n.detail)).join("; ")}`;
  const undocumented = o.documented
    ? o.statuses.filter((s) => documentedStatusKey(o.documented!, s) === undefined)
    : [];
  const seen = o.documented
    ? `${o.documentedSeen!.join(", ") || "none"} of ${o.documented.join(", ") || "(none documented)"}`
    : o.statuses.join(", ");
  return `reached: ${seen}${undocumented.length ? ` (undocumented: ${undocumented.join(", ")})` : ""}`;
}
