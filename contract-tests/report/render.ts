/**
 * The run's report, built from the scenario results and the baseline: the JSON document, the text report
 * grouped by operation, and the markdown summary (for a CI job summary).
 */
import type { ScenarioResult } from "../model/types.js";
import type { Finding } from "../model/types.js";
import {
  entryKey,
  entryText,
  findingKeys,
  isExpired,
  isOldEntry,
  oldFormatText,
  today,
  type Baseline,
  type BaselineEntry,
} from "./baseline.js";
import { absorb, asOccurrences, findingIdentity, inputsText, specificityOf } from "../model/finding-identity.js";
import { capped, leftOutText, type LeftOut } from "./capped.js";
import { fenceFor, outsideText } from "../../openapi/lib/outside-text.js";
import {
  belowMinimumText,
  computeReach,
  operationReachText,
  reachText,
  verdictText,
  type Reach,
  type ReachInput,
} from "./reach.js";
import { computeSecurity, runWideSecurity, runWideText, securityText, type OperationSecurity } from "./security.js";

/**
 * Outside strings (names, values and prose from the document, the server, the baseline) for a terminal or text file.
 */
const t = (v: unknown) => outsideText(v, "terminal");
/** The markdown summary's heading mark of each verdict. */
const VERDICT_MARK = { pass: "✅ pass", incomplete: "⚠️ incomplete", fail: "❌ fail" } as const;

/** A finding of the run: one distinct failure, seen in one or more scenarios, with its count and first example. */
export type ReportedFinding = Finding & {
  scenario: string;
  test: string /** Every scenario it occurred in. */;
  tests: string[];
};

/**
 * One entry per distinct failure across the whole run (findingIdentity): counts summed, inputs, operations and
 * scenarios listed, the shortest example kept.
 */
function merge(findings: Array<Finding & { scenario: string; test: string }>): ReportedFinding[] {
  const byKey = new Map<string, ReportedFinding>();
  for (const f of findings) {
    const key = findingIdentity(f);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, asOccurrences({ ...f, tests: [f.test] }));
    else {
      const tests = seen.tests.includes(f.test) ? seen.tests : [...seen.tests, f.test];
      byKey.set(key, { ...absorb(seen, { ...f, tests }), tests });
    }
  }
  return [...byKey.values()];
}

/** The JSON report (reports/contract-report.json). */
export interface RunReport {
  /**
   * `lighter`: on the embedded mock, the phases that sent less than on a live target, and why (engine/mock-plan.ts).
   */
  target: { kind: string; baseUrl: string; strict: boolean; spec: string; lighter?: string[] };
  /** The run's causes (its distinct findings, not those the baseline accepts), worst first, one line each. */
  causes?: Cause[];
  /** The document's operations (a shard's: its own), in its order, with their documented statuses. */
  operations: Array<{ operationId: string; method: string; path: string; responses?: string[] }>;
  /**
   * `incomplete`: nothing failed, but the run was cut short (see `summary.notRun`); it is not a pass. `fail`
   * also when the reach is below --min-reach.
   */
  verdict: "pass" | "fail" | "incomplete";
  /** How much of the document the run reached: operations with an answered request, statuses seen, why not. */
  reach: Reach;
  summary: {
    scenarios: { passed: number; failed: number; skipped: number };
    /** Distinct findings not accepted by the baseline. */
    errors: number;
    warnings: number;
    /** Distinct findings the baseline accepts. */
    accepted: number;
    occurrences: number;
    requests: number;
    failedChecks: string[];
    expiredBaselineEntries: number;
    fixedBaselineEntries: number;
    /** Scenarios, and the operations they belong to, that were not run (or not to their end), and why. */
    notRun: NotRun;
  };
  findings: ReportedFinding[];
  accepted: Array<ReportedFinding & { reason: string; expires: string }>;
  skipped: Array<{ scenario: string; operation: string; test: string; reason: string }>;
  /** `oldFormat`: how many entries are of the old format (check, operation and place only), when any are. */
  baseline: { path: string | null; expired: BaselineEntry[]; fixed: BaselineEntry[]; oldFormat?: number };
  internalErrors: Array<{ scenario: string; error: string }>;
  /**
   * What scenarios told the reader besides findings: each inferred link followed, what a live run created and left
   * behind.
   */
  notes?: Array<{ scenario: string; text: string }>;
  /** Per selected operation, which security checks ran and why the others did not (absent in older reports). */
  security?: OperationSecurity[];
}

/** A cause of the report's opening list: one distinct finding in a line. */
export interface Cause {
  severity: Finding["severity"];
  check: string;
  /** The first operation it occurred on; `operations` how many in all. */
  operation: string;
  operations: number;
  title: string;
  /** The answer's signature (status, media type, the server's words masked). */
  signature?: string;
  occurrences: number;
  /** Distinct inputs that got this answer, and the first few in words. */
  inputs: number;
  inputsText?: string;
}

/** The causes of a list of findings, worst first: errors, the most specific checks, the most occurrences. */
function causesOf(findings: readonly ReportedFinding[]): Cause[] {
  const rank = (f: Finding) => (f.severity === "error" ? 0 : 100) + specificityOf(f.check);
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || (b.f.count ?? 1) - (a.f.count ?? 1) || a.i - b.i)
    .map(({ f }) => ({
      severity: f.severity,
      check: f.check,
      operation: f.operation,
      operations: f.operations?.length ?? 1,
      title: f.title,
      ...(f.signature ? { signature: f.signature } : {}),
      occurrences: f.count ?? 1,
      inputs: f.inputs?.length ?? 0,
      ...(f.inputs?.length ? { inputsText: inputsText(f) } : {}),
    }));
}

/** A text cut to `n` characters. */
const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…` : text);

/** One cause in one line: operation, what, the answer, how many inputs. */
function causeText(c: Cause): string {
  const more = c.operations - 1;
  const where = `${c.operation}${more > 0 ? ` (+${more} more operation${more > 1 ? "s" : ""})` : ""}`;
  const inputs = c.inputs
    ? `${c.inputs} input${c.inputs === 1 ? "" : "s"}${c.inputsText ? ` (${cut(c.inputsText, 120)})` : ""}`
    : "";
  const times = `${c.occurrences} occurrence${c.occurrences === 1 ? "" : "s"}`;
  return (
    `${c.severity === "error" ? "✗" : "!"} ${where}: ${cut(c.title, 120)} [${c.check}]` +
    `${c.signature ? `: ${cut(c.signature, 120)}` : ""}; ${inputs ? `${inputs}, ` : ""}${times}`
  );
}

/** Most causes the text report and the markdown summary list at the top (the JSON report has every one). */
const MAX_CAUSES = 50;

/** Skipped scenarios' reasons that hold for the whole run: the same reason on three operations or more (or all). */
function runWideSkips(
  report: Pick<RunReport, "skipped" | "operations">,
): Array<{ reason: string; scenarios: number; operations: number }> {
  const byReason = new Map<string, { scenarios: number; operations: Set<string> }>();
  for (const x of report.skipped) {
    const seen = byReason.get(x.reason) ?? { scenarios: 0, operations: new Set<string>() };
    seen.scenarios++;
    seen.operations.add(x.operation);
    byReason.set(x.reason, seen);
  }
  const all = report.operations.length;
  return [...byReason]
    .filter(([, v]) => v.operations.size >= Math.max(2, Math.min(3, all)))
    .map(([reason, v]) => ({ reason, scenarios: v.scenarios, operations: v.operations.size }));
}

/** The report's opening lines: its causes worst first, then what holds for the whole run (each said once). */
function openingLines(report: RunReport): { causes: string[]; runWide: string[] } {
  const causes = report.causes ?? causesOf(report.findings);
  const errors = causes.filter((c) => c.severity === "error").length;
  const head =
    causes.length === 0
      ? ["Causes: none"]
      : [
          `Causes: ${causes.length} (${errors} error(s), ${causes.length - errors} warning(s)), worst first:`,
          ...causes.slice(0, MAX_CAUSES).map(causeText),
          ...(causes.length > MAX_CAUSES
            ? [`… and ${causes.length - MAX_CAUSES} more (each below, all in contract-report.json)`]
            : []),
        ];
  const runWide = [
    ...runWideText(runWideSecurity(report.security ?? []), (report.security ?? []).length),
    ...runWideSkips(report).map(
      (r) =>
        `${r.scenarios} scenario(s) of ${r.operations} operation(s) skipped: ${r.reason.replace(/^skipped: /, "")}`,
    ),
  ];
  return { causes: head, runWide };
}

/** What a run cut short left out. */
export interface NotRun {
  scenarios: number;
  operations: number;
  /** The distinct reasons (the request budget spent, the target no longer answering). */
  reasons: string[];
}

/** The scenarios the target's stop (budget, breaker) left out, and their operations. */
export function notRunOf(results: ScenarioResult[]): NotRun {
  const cut = results.filter((r) => r.notRun !== undefined);
  return {
    scenarios: cut.length,
    operations: new Set(cut.map((r) => r.operation)).size,
    reasons: [...new Set(cut.map((r) => r.notRun!))],
  };
}

/** One sentence on a run cut short ("" when it was not). */
export function notRunText(n: NotRun): string {
  if (n.scenarios === 0) return "";
  return (
    `INCOMPLETE: ${n.scenarios} scenario(s) of ${n.operations} operation(s) were not run or not run ` +
    `to the end: ${n.reasons.map((r) => r.replace(/^skipped: /, "")).join("; ")}`
  );
}

/**
 * Builds the report; `now` decides which baseline entries are expired; `reach` says what the run selected of
 * the document (default: the operations listed, all of them selected) and --min-reach.
 */
export function buildReport(
  target: RunReport["target"],
  operations: RunReport["operations"],
  results: ScenarioResult[],
  baseline: Baseline & { path?: string },
  requests: number,
  now = new Date(),
  reachInput: ReachInput = { document: operations.map((o) => o.operationId) },
): RunReport {
  const tag = (r: ScenarioResult) => (f: Finding) => ({ ...f, scenario: r.id, test: r.title });
  const findings = merge(results.flatMap((r) => r.findings.map(tag(r))));
  const acceptedRaw = merge(results.flatMap((r) => r.accepted.map(tag(r))));
  // Lookups by key: a baseline of 150,000 entries is read once, not once per finding.
  const byKey = new Map<string, BaselineEntry>();
  for (const e of baseline.entries) if (!byKey.has(entryKey(e))) byKey.set(entryKey(e), e);
  const accepted = acceptedRaw.map((f) => {
    const entry = findingKeys(f)
      .map((k) => byKey.get(k))
      .find((e) => e !== undefined);
    return { ...f, reason: entry?.reason ?? "", expires: entry?.expires ?? "" };
  });
  const found = new Set(findings.flatMap(findingKeys));
  const occurring = new Set([...findings, ...acceptedRaw].flatMap(findingKeys));
  const oldFormat = baseline.entries.filter(isOldEntry).length;
  const day = today(now);
  const expired = baseline.entries.filter((e) => isExpired(e, day) && found.has(entryKey(e)));
  const fixed = baseline.entries.filter((e) => !occurring.has(entryKey(e)));
  const errors = findings.filter((f) => f.severity === "error");
  const internalErrors = results.filter((r) => r.error).map((r) => ({ scenario: r.id, error: r.error! }));
  const count = (s: ScenarioResult["status"]) => results.filter((r) => r.status === s).length;
  const reach = computeReach(operations, results, reachInput);
  const failed =
    errors.length > 0 || expired.length > 0 || results.some((r) => r.status === "failed") || reach.belowMinimum;
  const notRun = notRunOf(results);
  const notes = results.flatMap((r) => (r.notes ?? []).map((text) => ({ scenario: r.id, text })));
  return {
    target,
    verdict: failed ? "fail" : notRun.scenarios > 0 ? "incomplete" : "pass",
    causes: causesOf(findings),
    operations,
    reach,
    summary: {
      scenarios: { passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
      errors: errors.length,
      warnings: findings.length - errors.length,
      accepted: accepted.length,
      occurrences: [...findings, ...acceptedRaw].reduce((n, f) => n + (f.count ?? 1), 0),
      requests,
      failedChecks: [...new Set(errors.map((f) => f.check))].sort(),
      expiredBaselineEntries: expired.length,
      fixedBaselineEntries: fixed.length,
      notRun,
    },
    findings,
    accepted,
    skipped: results
      .filter((r) => r.status === "skipped")
      .map((r) => ({ scenario: r.id, operation: r.operation, test: r.title, reason: r.skipReason ?? "" })),
    baseline: { path: baseline.path ?? null, expired, fixed, ...(oldFormat ? { oldFormat } : {}) },
    internalErrors,
    ...(notes.length ? { notes } : {}),
    security: computeSecurity(
      reach.operations.map((o) => o.operationId),
      results,
      target.kind,
    ),
  };
}

/** Longest curl command printed in the text report; the JSON report always holds the whole command. */
const MAX_CURL_CHARS = 600;

/** Formats one finding as an indented block (a failing test's message, and a report entry). */
export function formatFinding(f: Finding): string {
  const count = (f.count ?? 1) > 1 ? ` (×${f.count})` : "";
  const lines = [`${f.severity === "error" ? "✗" : "!"} [${f.severity}] ${t(f.check)}: ${t(f.title)}${count}`];
  const curl =
    f.curl.length > MAX_CURL_CHARS
      ? `${t(f.curl.slice(0, MAX_CURL_CHARS))}… (whole command in contract-report.json)`
      : t(f.curl);
  lines.push(`    Request:       ${curl}`);
  if (f.inputs && f.inputs.length > 1) lines.push(`    Inputs:        ${f.inputs.length}: ${t(inputsText(f))}`);
  else if (f.cause) lines.push(`    Cause:         ${t(f.cause)}`);
  if (f.operations && f.operations.length > 1)
    lines.push(
      `    Operations:    ${t(f.operations.slice(0, 5).join(", "))}` +
        (f.operations.length > 5 ? ` and ${f.operations.length - 5} more` : ""),
    );
  lines.push(`    Received:      ${t(f.received)}`, `    Documented:    ${t(f.documented)}`);
  if (f.promise) lines.push(`    Promise:       ${t(f.promise)}`);
  if (f.schemaPath) lines.push(`    Schema path:   ${t(f.schemaPath)}`);
  if (f.instancePath !== undefined) lines.push(`    Instance path: ${t(f.instancePath) || "(root)"}`);
  if (f.value !== undefined) lines.push(`    Value:         ${t(JSON.stringify(f.value)?.slice(0, 200))}`);
  for (const note of f.also ?? []) lines.push(`    Also:          ${t(note)}`);
  return lines.join("\n");
}

/** Every operation of the document, then anything else findings were about (the preflight, the suite). */
function operationsOf(report: RunReport): Array<{ id: string; label: string }> {
  const known = report.operations.map((o) => ({
    id: o.operationId,
    label: `${t(o.operationId)} (${t(o.method)} ${t(o.path)})`,
  }));
  const ids = new Set(known.map((k) => k.id));
  const other = new Set<string>();
  for (const list of [report.findings, report.accepted, report.skipped])
    for (const x of list) if (!ids.has(x.operation)) other.add(x.operation);
  return [...known, ...[...other].map((id) => ({ id, label: t(id) }))];
}

/** The entries of a list by their operation, in list order. */
function byOperation<T extends { operation: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of list) {
    const own = out.get(x.operation);
    if (own) own.push(x);
    else out.set(x.operation, [x]);
  }
  return out;
}

/**
 * The lines a command closes its output with: the verdict, with `counts` the scenarios' `N passed, N failed, N
 * skipped`, and why the run was cut short or fell below --min-reach (each after `command: `).
 */
export function closingLines(report: RunReport, command: string, counts = false): string[] {
  const s = report.summary.scenarios;
  const cut = notRunText(report.summary.notRun);
  const below = belowMinimumText(report.reach);
  return [
    `Verdict: ${verdictText(report.verdict, report.reach)}`,
    ...(counts ? [`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`] : []),
    ...(cut ? [`${command}: ${report.verdict === "incomplete" ? "" : "FAIL, and "}${cut}`] : []),
    ...(below ? [`${command}: ${below}`] : []),
  ];
}

/** A verdict's exit code: 0 pass, 4 incomplete, 1 fail. */
export const exitCodeOf = (verdict: RunReport["verdict"]): number =>
  verdict === "pass" ? 0 : verdict === "incomplete" ? 4 : 1;

/** The readable report, grouped by operation. */
export function formatText(report: RunReport): string {
  const out = [
    `Contract report: ${report.target.kind} target ${t(report.target.baseUrl)} ` +
      `(strict: ${report.target.strict ? "on" : "off"}; ` +
      `document ${t(report.target.spec)})`,
    ...(report.target.lighter ?? []).map((line) => `Lighter on the mock: ${line}`),
    // A run that lost an account the user gave says so first: what follows was judged without it.
    ...report.findings.filter((f) => f.check === "credentials_lost").map((f) => `!! ${t(f.title)} (${t(f.received)})`),
  ];
  const opening = openingLines(report);
  out.push("", ...opening.causes.map((l, i) => (i === 0 ? t(l) : `  ${t(l)}`)));
  if (opening.runWide.length) out.push("", "For the whole run:", ...opening.runWide.map((l) => `  ${t(l)}`));
  const wideSecurity = runWideSecurity(report.security ?? []);
  // A skip whose reason is a security phase's reason said above (no second account) is not said again.
  const wideSkips = new Set([
    ...runWideSkips(report).map((r) => r.reason),
    ...wideSecurity.map((r) => `skipped: ${r.reason}`),
  ]);
  const reachOf = new Map(report.reach.operations.map((o) => [o.operationId, o]));
  const listed = new Set(report.operations.map((o) => o.operationId));
  // Each list grouped by operation once (a large document has thousands of operations).
  const findingsOf = byOperation(report.findings);
  const acceptedOf = byOperation(report.accepted);
  const skippedOf = byOperation(report.skipped);
  const securityOf = new Map((report.security ?? []).map((s) => [s.operationId, s]));
  for (const { id: op, label } of operationsOf(report)) {
    const own = [...(findingsOf.get(op) ?? [])].sort((a, b) =>
      a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1,
    );
    out.push("", `== ${label} ==`);
    if (own.length === 0) out.push("  no findings");
    for (const { shown, more } of capped(own)) {
      for (const f of shown)
        out.push(
          `  ${formatFinding(f).replace(/\n/g, "\n  ")}\n      Tests:         ${t(f.tests.slice(0, 3).join("; "))}` +
            (f.tests.length > 3 ? ` (+${f.tests.length - 3} more)` : ""),
        );
      if (more) out.push(`  … ${leftOutText(more, "distinct failures", t(more.check))}`);
    }
    for (const { shown, more } of capped(acceptedOf.get(op) ?? [])) {
      for (const a of shown)
        out.push(`  ~ accepted by the baseline until ${t(a.expires)}: ${t(a.check)}: ${t(a.title)} (${t(a.reason)})`);
      if (more) out.push(`  ~ … ${leftOutText(more, "accepted findings", t(more.check))}`);
    }
    const skipped = skippedOf.get(op) ?? [];
    for (const s of skipped.filter((x) => !wideSkips.has(x.reason))) out.push(`  - ${t(s.test)}: ${t(s.reason)}`);
    const wide = skipped.filter((x) => wideSkips.has(x.reason)).length;
    if (wide) out.push(`  - ${wide} scenario(s) skipped for a reason of the whole run (see above)`);
    const reached = reachOf.get(op);
    if (reached) out.push(`  ${t(operationReachText(reached))}`);
    else if (listed.has(op)) out.push("  not selected in this run");
    const security = securityOf.get(op);
    if (security) out.push(`  ${t(securityText(security, wideSecurity))}`);
  }
  for (const e of report.internalErrors)
    out.push("", `!! internal error in ${t(e.scenario)}: ${t(e.error.split("\n")[0])}`);
  for (const e of report.baseline.expired)
    out.push("", `✗ baseline entry expired on ${t(e.expires)}: ${t(entryText(e))} (${t(e.reason)})`);
  for (const e of report.baseline.fixed)
    out.push("", `✓ fixed: baseline entry ${t(entryText(e))} no longer occurs; remove it`);
  if (report.baseline.oldFormat)
    out.push("", `Baseline: ${t(oldFormatText(report.baseline.oldFormat, report.baseline.path))}`);
  if (report.notes?.length) out.push("", "Notes:", ...report.notes.map((n) => `  * ${t(n.text)} (${t(n.scenario)})`));
  const s = report.summary;
  out.push(
    "",
    `Summary: ${t(verdictText(report.verdict, report.reach))}: ${s.errors + s.warnings} cause(s) (${s.errors} ` +
      `error(s), ${s.warnings} warning(s)), ${s.accepted} accepted by the baseline; ${s.occurrences} ` +
      `occurrences; scenarios ${s.scenarios.passed} ` +
      `passed, ${s.scenarios.failed} failed, ${s.scenarios.skipped} skipped; ${s.requests} requests` +
      (s.failedChecks.length ? `; failed checks: ${s.failedChecks.join(", ")}` : ""),
  );
  if (s.notRun.scenarios > 0) out.push(notRunText(s.notRun));
  if (report.reach.belowMinimum) out.push(belowMinimumText(report.reach));
  return out.join("\n");
}

/** Most operations the markdown summary's reach table lists (the JSON report has every one). */
const MAX_MARKDOWN_REACH_ROWS = 300;

/** Most curl commands the markdown summary shows (the JSON report has every one). */
const MAX_MARKDOWN_CURLS = 20;

/** A fenced code block whose fence is longer than any run of backticks in `text` (control characters shown escaped). */
function fenced(lang: string, text: string): string[] {
  const fence = fenceFor(text, 3);
  return [`${fence}${lang}`, outsideText(text), fence];
}

/** An outside string in a markdown table cell or list item (cut to 300 characters before it is escaped). */
const cell = (v: unknown) => outsideText(typeof v === "string" ? v.slice(0, 300) : v, "markdown");
/** An outside string as a markdown code span. */
const code = (v: unknown) => outsideText(typeof v === "string" ? v.slice(0, 300) : v, "markdown-code");

/** A baseline entry in a markdown list item: operation, check, and its rule, place and cause as it has them. */
function markdownEntry(e: BaselineEntry): string {
  return (
    `${cell(e.operation)} ${code(e.check)}${e.rule !== undefined ? ` ${code(e.rule)}` : ""}` +
    `${e.place !== undefined ? ` at ${code(e.place)}` : ""}${e.cause !== undefined ? ` (${cell(e.cause)})` : ""}`
  );
}

/** The markdown lines saying what capped groups left out, one per operation and check (none when nothing was). */
function moreLines(groups: ReadonlyArray<{ more?: LeftOut }>, what: string): string[] {
  const lines = groups.flatMap((g) =>
    g.more ? [`- ${cell(g.more.operation)}: ${leftOutText(g.more, what, code(g.more.check))}`] : [],
  );
  return lines.length ? ["", ...lines] : [];
}

/** The markdown summary's opening: the causes worst first, then what holds for the whole run (each said once). */
function markdownOpening(report: RunReport): string[] {
  const { causes, runWide } = openingLines(report);
  const [head, ...lines] = causes;
  return [
    `### ${cell(head!.replace(/:$/, ""))}`,
    "",
    ...lines.map((l) => `- ${cell(l)}`),
    ...(lines.length ? [""] : []),
    ...(runWide.length ? ["**For the whole run:**", "", ...runWide.map((l) => `- ${cell(l)}`), ""] : []),
  ];
}

/** The markdown summary (reports/contract-summary.md; a CI job summary). */
export function formatMarkdown(report: RunReport): string {
  const s = report.summary;
  const out = [
    `## Contract suite: ${VERDICT_MARK[report.verdict]}`,
    "",
    ...(s.notRun.scenarios > 0 ? [`**${notRunText(s.notRun)}**`, ""] : []),
    ...(report.reach.belowMinimum ? [`**${belowMinimumText(report.reach)}**`, ""] : []),
    `**${cell(verdictText(report.verdict, report.reach))}**`,
    "",
    ...markdownOpening(report),
    `Target: ${report.target.kind} ${code(report.target.baseUrl)} (strict: ${report.target.strict ? "on" : "off"}). ` +
      `Scenarios: ${s.scenarios.passed} passed, ${s.scenarios.failed} failed, ${s.scenarios.skipped} skipped. ` +
      `Requests: ${s.requests}.`,
    "",
    ...(report.target.lighter ?? []).flatMap((line) => [`Lighter on the mock: ${cell(line)}`, ""]),
    `| | count |`,
    `|---|---|`,
    `| errors (not in the baseline) | ${s.errors} |`,
    `| warnings | ${s.warnings} |`,
    `| accepted by the baseline | ${s.accepted} |`,
    `| baseline entries expired | ${s.expiredBaselineEntries} |`,
    `| baseline entries fixed | ${s.fixedBaselineEntries} |`,
  ];
  // Lines are appended one by one: a baseline of any size (150,000 entries) never becomes a spread of arguments.
  const add = (...parts: Array<string | string[]>) => {
    for (const part of parts) for (const line of [part].flat()) out.push(line);
  };
  if (report.baseline.oldFormat)
    add("", `**Baseline:** ${cell(oldFormatText(report.baseline.oldFormat, report.baseline.path))}`);
  // At most MAX_PER_CHECK distinct failures of a check per operation, then how many more.
  const errorGroups = capped(report.findings.filter((f) => f.severity === "error"));
  const errors = errorGroups.flatMap((g) => g.shown);
  if (errors.length)
    add(
      "",
      "### Errors",
      "",
      "| operation | check | finding | received | where | promise |",
      "|---|---|---|---|---|---|",
      errors.map(
        (f) =>
          `| ${cell(f.operation)} | ${code(f.check)} | ${cell(f.title)} | ${cell(f.received)} ` +
          `| ${cell(f.instancePath ?? "")} | ${cell(f.promise ?? "")} |`,
      ),
      moreLines(errorGroups, "distinct failures"),
    );
  if (errors.length)
    add(
      "",
      "<details><summary>Reproduce: a curl per error (it reads the key from $CONTRACT_API_KEY)</summary>",
      "",
      errors
        .slice(0, MAX_MARKDOWN_CURLS)
        .flatMap((f) => [`${cell(f.operation)} ${code(f.check)}: ${cell(f.title)}`, "", ...fenced("sh", f.curl), ""]),
      "</details>",
    );
  const acceptedGroups = capped(report.accepted);
  if (report.accepted.length)
    add(
      "",
      "### Accepted by the baseline",
      "",
      "| operation | check | finding | reason | expires |",
      "|---|---|---|---|---|",
      acceptedGroups
        .flatMap((g) => g.shown)
        .map(
          (f) =>
            `| ${cell(f.operation)} | ${code(f.check)} | ${cell(f.title)} | ${cell(f.reason)} | ${cell(f.expires)} |`,
        ),
      moreLines(acceptedGroups, "accepted findings"),
    );
  if (report.baseline.expired.length)
    add(
      "",
      "### Expired baseline entries",
      "",
      report.baseline.expired.map((e) => `- ${markdownEntry(e)}, expired ${cell(e.expires)}`),
    );
  if (report.baseline.fixed.length)
    add(
      "",
      "### Fixed (no longer occurring; remove from the baseline)",
      "",
      report.baseline.fixed.map((e) => `- ${markdownEntry(e)}`),
    );
  if (report.notes?.length)
    add(
      "",
      "### Notes",
      "",
      report.notes.map((n) => `- ${cell(n.text)} (${code(n.scenario)})`),
    );
  const warnings = report.findings.filter((f) => f.severity === "warning");
  const warningGroups = capped(warnings);
  if (warnings.length)
    add(
      "",
      `<details><summary>${warnings.length} warning(s)</summary>`,
      "",
      warningGroups.flatMap((g) => g.shown).map((f) => `- ${cell(f.operation)} ${code(f.check)}: ${cell(f.title)}`),
      moreLines(warningGroups, "distinct warnings"),
      "",
      "</details>",
    );
  add(
    "",
    `<details><summary>Reach: ${cell(reachText(report.reach))}</summary>`,
    "",
    "| operation | reached | documented statuses seen |",
    "|---|---|---|",
    // Operations not reached first: they are what a reader looks for.
    [...report.reach.operations.filter((o) => !o.reached), ...report.reach.operations.filter((o) => o.reached)]
      .slice(0, MAX_MARKDOWN_REACH_ROWS)
      .map((o) => `| ${cell(o.operationId)} | ${o.reached ? "yes" : "no"} | ${cell(operationReachText(o))} |`),
    report.reach.operations.length > MAX_MARKDOWN_REACH_ROWS
      ? ["", `(${report.reach.operations.length - MAX_MARKDOWN_REACH_ROWS} more in contract-report.json)`]
      : [],
    "",
    "</details>",
  );
  const security = report.security ?? [];
  const shared = runWideSecurity(security);
  const wide = (n: { phase: string; reason: string }) =>
    shared.some((r) => r.phase === n.phase && r.reason === n.reason);
  if (security.length)
    add(
      "",
      `<details><summary>Security checks: ${security.filter((o) => o.ran.length > 0).length} of ${security.length} ` +
        "operation(s) probed</summary>",
      "",
      "| operation | ran | not run, and why |",
      "|---|---|---|",
      security
        .slice(0, MAX_MARKDOWN_REACH_ROWS)
        .map(
          (o) =>
            `| ${cell(o.operationId)} | ${o.ran.join(", ") || "none"} | ` +
            `${o.notRun
              .map((n) => (wide(n) ? `${n.phase} (see above)` : `${n.phase}: ${cell(n.reason)}`))
              .join("; ")} |`,
        ),
      security.length > MAX_MARKDOWN_REACH_ROWS
        ? ["", `(${security.length - MAX_MARKDOWN_REACH_ROWS} more in contract-report.json)`]
        : [],
      "",
      "</details>",
    );
  if (report.skipped.length)
    add(
      "",
      `<details><summary>${report.skipped.length} skipped scenario(s)</summary>`,
      "",
      report.skipped.map((x) => `- ${cell(x.operation)}: ${cell(x.test)}: ${cell(x.reason)}`),
      "",
      "</details>",
    );
  return `${out.join("\n")}\n`;
}
