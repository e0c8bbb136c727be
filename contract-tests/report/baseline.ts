/**
 * The baseline: findings a team accepts while a fix is under way, each with the check, the operation, the
 * rule, the cause and place, a reason and an expiry date. A run fails only on findings the baseline does not list
 * and on expired entries; entries that no longer occur are reported as fixed.
 */
import { existsSync, writeFileSync } from "node:fs";
import {
  causeOf,
  entryCause,
  findingIdentity,
  foldedPath,
  legacyRuleOf,
  placeCounts,
  placeIn,
  ruleOf,
} from "../model/finding-identity.js";
import type { Finding } from "../model/types.js";
import { readJsonFile } from "../../openapi/lib/self-contained.js";

/**
 * One accepted finding. An entry names its check, its operation, the kind of finding (`rule`) and its cause
 * (the masked input and the answer's signature), and its place when the finding has an instance path. An entry
 * of the old format (check, operation and place only, the place an instance path or a finding's title) still
 * matches as it did; `--update-baseline` rewrites it in the new one.
 */
export interface BaselineEntry {
  check: string;
  operation: string;
  /** The kind of finding within the check (finding-identity.ts ruleOf); absent in an old-format entry. */
  rule?: string;
  /** The input and the answer's signature, masked (finding-identity.ts causeOf); absent in an old-format entry. */
  cause?: string;
  /**
   * The instance path with array indices as `*` (a new entry has one only when its finding has an instance path);
   * in an old-format entry, that path or the finding's title.
   */
  place?: string;
  reason: string;
  /** The last day (YYYY-MM-DD) the entry is accepted. */
  expires: string;
}

/** A baseline file. */
export interface Baseline {
  entries: BaselineEntry[];
}

/** A malformed baseline file (an invalid setting: the message names the file and the rule). */
export class BaselineError extends Error {
  override name = "BaselineError";
}

/** Where a finding is for an old-format entry: its instance path with indices folded, else its title. */
export function placeOf(f: Pick<Finding, "instancePath" | "title">): string {
  return f.instancePath !== undefined && f.instancePath !== "" ? foldedPath(f.instancePath) : f.title;
}

/** True for an entry of the old format (no rule and cause: matched by its place alone). */
export const isOldEntry = (e: BaselineEntry): boolean => e.rule === undefined;

/** The key a baseline entry and the findings it accepts share (for lookups in a baseline of any size). */
export function entryKey(e: BaselineEntry): string {
  return isOldEntry(e)
    ? ["old", e.check, e.operation, e.place ?? ""].join("\u0000")
    : [
        "new",
        e.check,
        e.operation,
        e.rule,
        entryCause(e.cause ?? ""),
        placeCounts(e.check) ? (e.place ?? "") : "",
      ].join("\u0000");
}

/** What a new-format entry says of a finding: check, operation, rule, cause, and its place when it has one. */
function newEntryOf(f: Finding): BaselineEntry {
  const place = placeIn(f);
  return {
    check: f.check,
    operation: f.operation,
    rule: ruleOf(f),
    cause: causeOf(f),
    ...(place ? { place } : {}),
    reason: "",
    expires: "",
  };
}

/**
 * The keys an entry accepting `f` may have: a new entry's, then an old entry's (see {@link entryKey}), for each
 * operation the finding occurred on (an entry names one of them: the one it was written for).
 */
export function findingKeys(f: Finding): string[] {
  const entry = newEntryOf(f);
  // An entry issue 28 wrote named the rule by the title's slug (its cause is read by entryCause).
  const legacy = legacyRuleOf(f);
  return (f.operations ?? [f.operation]).flatMap((operation) => [
    entryKey({ ...entry, operation }),
    ...(legacy !== entry.rule ? [entryKey({ ...entry, operation, rule: legacy })] : []),
    entryKey({ check: f.check, operation, place: placeOf(f), reason: "", expires: "" }),
  ]);
}

/** True when `entry` accepts `finding`. */
export function accepts(entry: BaselineEntry, f: Finding): boolean {
  return findingKeys(f).includes(entryKey(entry));
}

/** An entry in one line of a report: operation, check, and its rule, place and cause as it has them. */
export function entryText(e: BaselineEntry): string {
  if (isOldEntry(e)) return `${e.operation} ${e.check} at ${e.place}`;
  return `${e.operation} ${e.check} ${e.rule}${e.place !== undefined ? ` at ${e.place}` : ""} (${e.cause})`;
}

/** What a run says once when its baseline has old-format entries: that they still match, and how to migrate. */
export function oldFormatText(entries: number, path: string | null): string {
  return (
    `The baseline${path ? ` ${path}` : ""} has ${entries} entr${entries === 1 ? "y" : "ies"} in the old format ` +
    "(check, operation and place only; still matched as before). To migrate, run with --update-baseline: it " +
    "rewrites the file with each finding's rule and cause, keeping the reason and expiry of every entry that matched."
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads and validates a baseline (old-format entries, new ones, or both); an absent file is an empty baseline. */
export function loadBaseline(path: string | undefined): Baseline {
  if (!path || !existsSync(path)) return { entries: [] };
  const data = readJsonFile(path, `CONTRACT_BASELINE ${path}`, (m) => new BaselineError(m));
  const entries = (data as { entries?: unknown })?.entries;
  if (!Array.isArray(entries))
    throw new BaselineError(`CONTRACT_BASELINE ${path} must be an object with an "entries" array`);
  entries.forEach((e: Record<string, unknown>, i) => {
    // An entry without a rule is of the old format: its place is what it matches by.
    const required = ["check", "operation", ...(e?.rule === undefined ? ["place"] : ["cause"]), "reason", "expires"];
    for (const key of [...required, "rule", "cause", "place"])
      if ((required.includes(key) || e?.[key] !== undefined) && typeof e?.[key] !== "string")
        throw new BaselineError(`CONTRACT_BASELINE ${path}: entries[${i}].${key} must be a string`);
    if (!DATE.test(String(e.expires)) || Number.isNaN(Date.parse(String(e.expires))))
      throw new BaselineError(`CONTRACT_BASELINE ${path}: entries[${i}].expires must be a date YYYY-MM-DD`);
  });
  return { entries: entries as BaselineEntry[] };
}

/** True when the entry's expiry day is over (`today` as YYYY-MM-DD). */
export function isExpired(entry: BaselineEntry, today: string): boolean {
  return entry.expires < today;
}

/** Today as YYYY-MM-DD (UTC). */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The baseline that accepts `findings` (errors only), in the new format: an entry per distinct failure (rule and
 * cause), each keeping the reason and expiry of the entry that accepted it (an old-format entry too: a rewrite
 * migrates it), new ones with a placeholder reason and an expiry `days` from today. Entries that no longer
 * occur go.
 */
export function updatedBaseline(previous: Baseline, findings: Finding[], now = new Date(), days = 90): Baseline {
  const expires = today(new Date(now.getTime() + days * 86_400_000));
  const before = new Map<string, BaselineEntry>();
  for (const e of previous.entries) if (!before.has(entryKey(e))) before.set(entryKey(e), e);
  const out = new Map<string, BaselineEntry>();
  // One entry per distinct failure: the first occurrence's (in report order) names its operation.
  const seen = new Set<string>();
  for (const f of findings.filter((x) => x.severity === "error")) {
    const identity = findingIdentity(f);
    if (seen.has(identity)) continue;
    seen.add(identity);
    const entry = newEntryOf(f);
    const key = entryKey(entry);
    if (out.has(key)) continue;
    const kept = findingKeys(f)
      .map((k) => before.get(k))
      .find((e) => e !== undefined);
    out.set(key, {
      ...entry,
      reason: kept?.reason ?? `accepted on ${today(now)}: ${f.title} (say why, and link the fix)`,
      expires: kept?.expires ?? expires,
    });
  }
  const order = (e: BaselineEntry) => [e.operation, e.check, e.rule, e.place ?? "", e.cause].join("\u0000");
  return { entries: [...out.values()].sort((a, b) => order(a).localeCompare(order(b))) };
}

/** Writes a baseline file (through the scrubber, like every file the suite writes). */
export function writeBaseline(path: string, baseline: Baseline, scrub: (text: string) => string): void {
  writeFileSync(path, scrub(`${JSON.stringify(baseline, null, 2)}\n`));
}
