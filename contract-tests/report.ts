/** Records violations and skips while the suite runs, and renders them as text, JSON and per-test messages. */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { OperationId, Violation } from "./types.js";
import { OPERATIONS } from "./spec-model.js";
import { redact } from "./redact.js";

/** One line of a records file: a violation found by a test, or a test skipped with its reason. */
export type RecordLine =
  | { kind: "violation"; test: string; violation: Violation }
  | { kind: "skip"; test: string; operation: OperationId; reason: string };

/** The folder, inside the reports dir, where test files append their records (one JSON-lines file each). */
export function recordsDir(reportsDir: string): string {
  return join(reportsDir, "contract-records");
}

/** Empties the records folder before a run. */
export function resetRecords(reportsDir: string): void {
  rmSync(recordsDir(reportsDir), { recursive: true, force: true });
  mkdirSync(recordsDir(reportsDir), { recursive: true });
}

/** Appends records to this process's file (append-only, one line per record). */
export function appendRecords(reportsDir: string, file: string, lines: RecordLine[], secret: string): void {
  if (lines.length === 0) return;
  mkdirSync(recordsDir(reportsDir), { recursive: true });
  const text = lines.map((l) => redact(JSON.stringify(l), secret)).join("\n") + "\n";
  appendFileSync(join(recordsDir(reportsDir), `${file}.jsonl`), text);
}

/** Reads every record written during the run. */
export function readRecords(reportsDir: string): RecordLine[] {
  let files: string[] = [];
  try {
    files = readdirSync(recordsDir(reportsDir)).filter((f) => f.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(join(recordsDir(reportsDir), f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as RecordLine),
  );
}

/** Longest curl command printed in the text report; the JSON report always holds the whole command. */
const MAX_CURL_CHARS = 600;

/** Formats one violation as an indented block (the message of a failing test, and a report entry). */
export function formatViolation(v: Violation, count = 1): string {
  const lines = [`${v.severity === "error" ? "✗" : "!"} [${v.severity}] ${v.check}: ${v.title}${count > 1 ? ` (×${count})` : ""}`];
  const curl = v.curl.length > MAX_CURL_CHARS ? `${v.curl.slice(0, MAX_CURL_CHARS)}… (whole command in contract-report.json)` : v.curl;
  lines.push(`    Request:       ${curl}`);
  lines.push(`    Received:      ${v.received}`);
  lines.push(`    Documented:    ${v.documented}`);
  if (v.schemaPath) lines.push(`    Schema path:   ${v.schemaPath}`);
  if (v.instancePath !== undefined) lines.push(`    Instance path: ${v.instancePath || "(root)"}`);
  if (v.value !== undefined) lines.push(`    Value:         ${JSON.stringify(v.value)?.slice(0, 200)}`);
  return lines.join("\n");
}

/**
 * The same finding at several positions or in several exchanges collapses into one entry with a count:
 * array indices of the instance path are ignored, and so is the received value when a path locates it.
 */
export function dedupe(violations: ReadonlyArray<Violation>): Array<{ violation: Violation; count: number }> {
  const byKey = new Map<string, { violation: Violation; count: number }>();
  for (const v of violations) {
    // Recursion (/fields/*/fields/*/...) collapses too, so one broken rule is one entry however deep it recurs.
    const where = v.instancePath?.replace(/\/\d+(?=\/|$)/g, "/*").replace(/(\/[^/]+\/\*)\1+/g, "$1");
    const key = [v.operation, v.check, v.severity, v.title, where ?? v.received, v.documented].join("\u0000");
    const entry = byKey.get(key);
    if (entry) entry.count++;
    else byKey.set(key, { violation: v, count: 1 });
  }
  return [...byKey.values()];
}

/** The JSON report written to reports/contract-report.json. */
export interface JsonReport {
  target: { kind: string; baseUrl: string; strict: boolean };
  /** Distinct findings (errors, warnings) and how often they occurred across all exchanges. */
  summary: { errors: number; warnings: number; occurrences: number; skippedTests: number; failedChecks: string[] };
  violations: Array<Violation & { test: string; count: number }>;
  skipped: Array<{ test: string; operation: OperationId; reason: string }>;
}

/** Builds the JSON report from the records of a run. */
export function buildJsonReport(target: JsonReport["target"], records: ReadonlyArray<RecordLine>): JsonReport {
  const found = records.filter((r) => r.kind === "violation");
  const testOf = new Map(found.map((r) => [r.violation, r.test]));
  const violations = dedupe(found.map((r) => r.violation)).map(({ violation, count }) => ({ ...violation, test: testOf.get(violation) ?? "", count }));
  const skipped = records.filter((r) => r.kind === "skip").map(({ test, operation, reason }) => ({ test, operation, reason }));
  const errors = violations.filter((v) => v.severity === "error");
  return {
    target,
    summary: { errors: errors.length, warnings: violations.length - errors.length, occurrences: found.length, skippedTests: skipped.length, failedChecks: [...new Set(errors.map((v) => v.check))].sort() },
    violations,
    skipped,
  };
}

/** Renders the readable report, grouped by operation. */
export function formatReport(report: JsonReport): string {
  const out = [`Contract report: ${report.target.kind} target ${report.target.baseUrl} (strict: ${report.target.strict ? "on" : "off"})`];
  for (const op of Object.keys(OPERATIONS) as OperationId[]) {
    const { method, path } = OPERATIONS[op];
    const vs = report.violations.filter((v) => v.operation === op).sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
    const skips = report.skipped.filter((s) => s.operation === op);
    out.push("", `== ${op} (${method.toUpperCase()} ${path}) ==`);
    if (vs.length === 0) out.push("  no violations");
    for (const v of vs) out.push(`  ${formatViolation(v, v.count).replace(/\n/g, "\n  ")}\n      Test:          ${v.test}`);
    for (const s of skips) out.push(`  - ${s.test}: ${s.reason}`);
  }
  const s = report.summary;
  out.push("", `Summary: ${s.errors} error(s), ${s.warnings} warning(s) (distinct findings; ${s.occurrences} occurrences), ${s.skippedTests} skipped test(s)${s.failedChecks.length ? `; failed checks: ${s.failedChecks.join(", ")}` : ""}`);
  return out.join("\n");
}
