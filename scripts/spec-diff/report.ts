/** Renders a SpecDiff as the markdown report of `npm run spec:diff`. */
import type { Change, ChangeClass } from "./classify.js";
import type { SpecDiff } from "./run.js";
import { outsideText } from "../../openapi/lib/outside-text.js";

/** The report's heading for each class, in report order. */
const CLASS_TITLES: Record<ChangeClass, string> = {
  breaking: "Breaking",
  warning: "Warning",
  "non-breaking": "Non-breaking",
  annotation: "Annotation-only",
};

/** Text from the documents (descriptions, names, values): escaped for markdown (issue 17). */
const cell = (text: string): string => outsideText(text, "markdown-spans");
const code = (text: string): string => outsideText(text, "markdown-code");

/** A short inline rendering of a changed value; empty for objects and long values. */
function shortValue(value: unknown): string {
  if (value === undefined) return "";
  const json = JSON.stringify(value);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? "" : json.length > 60 ? "" : json;
}

/** "`a` → `b`", "`a` removed" or "`b` added" (… for a long or structured value); "" when nothing short. */
export function valueChange(change: Change): string {
  const [b, a] = [shortValue(change.before), shortValue(change.after)];
  if (change.action === "replace") return b || a ? `${code(b || "…")} → ${code(a || "…")}` : "";
  if (change.action === "remove") return b ? `${code(b)} removed` : "";
  return a ? `${code(a)} added` : "";
}

function table(changes: Change[]): string[] {
  const rows = changes.map((c) => {
    const where = `${c.operation ? `${cell(c.operation)}<br>` : ""}${code(c.pointer || "/")}`;
    return `| ${cell(c.text)} | ${where} | ${valueChange(c)} | ${code(c.rule)}: ${cell(c.reason)} |`;
  });
  return ["| change | where | value | rule and reason |", "| --- | --- | --- | --- |", ...rows];
}

/** The whole markdown report. */
export function renderReport(diff: SpecDiff): string {
  const base =
    diff.baseVersion === null
      ? `${code(diff.baseRef)} (no document there)`
      : `${code(diff.baseRef)} (info.version ${cell(String(diff.baseVersion))})`;
  const lines = [
    "# OpenAPI document changes",
    "",
    `${code(diff.specPath)} at ${base} → working tree (info.version ${cell(String(diff.headVersion))}).`,
    "",
  ];
  const classes = Object.keys(CLASS_TITLES) as ChangeClass[];
  const byClass = new Map(classes.map((k) => [k, diff.changes.filter((c) => c.cls === k)]));
  if (diff.changes.length === 0) lines.push("No changes: the document says the same as at the base.", "");
  lines.push(
    "| class | changes |",
    "| --- | ---: |",
    ...classes.map((k) => `| ${CLASS_TITLES[k]} | ${byClass.get(k)!.length} |`),
    "",
  );
  lines.push(`**Version:** ${cell(diff.verdict.message)}`, "", `**Gate:** ${diff.verdict.ok ? "pass" : "FAIL"}`, "");
  for (const k of classes) {
    const list = byClass.get(k)!;
    if (list.length > 0) lines.push(`## ${CLASS_TITLES[k]} (${list.length})`, "", ...table(list), "");
  }
  return lines.join("\n");
}
