/**
 * The baseline: findings a team accepts while a fix is under way, each with the check, the operation, the
 * place, a reason and an expiry date. A run fails only on findings the baseline does not list and on
 * expired entries; entries that no longer occur are reported as fixed.
 */
import { existsSync, writeFileSync } from "node:fs";
import type { Finding } from "../model/types.js";
import { readJsonFile } from "../../openapi/lib/self-contained.js";

/** One accepted finding. */
export interface BaselineEntry {
  check: string;
  operation: string;
  /** Where: the instance path with array indices as `*`, or the finding's title when it has no path. */
  place: string;
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

/** Where a finding is, for matching: array indices and repeated nesting folded, so one rule is one place. */
export function placeOf(f: Pick<Finding, "instancePath" | "title">): string {
  return f.instancePath !== undefined && f.instancePath !== ""
    ? f.instancePath.replace(/\/\d+(?=\/|$)/g, "/*").replace(/(\/[^/]+\/\*)\1+/g, "$1")
    : f.title;
}

/** What makes two findings the same (within an operation): the check, severity, title, place, answer and promise text. */
export function sameFindingKey(f: Finding): string {
  return [f.check, f.severity, f.title, f.instancePath !== undefined ? placeOf(f) : f.received, f.documented].join(
    "\u0000",
  );
}

/** The key a baseline entry and the findings it accepts share (for lookups in a baseline of any size). */
export const entryKey = (e: Pick<BaselineEntry, "check" | "operation" | "place">) =>
  `${e.check}\u0000${e.operation}\u0000${e.place}`;
/** The key of a finding, as {@link entryKey}. */
export const findingKey = (f: Finding) => entryKey({ check: f.check, operation: f.operation, place: placeOf(f) });

/** True when `entry` accepts `finding`. */
export function accepts(entry: BaselineEntry, f: Finding): boolean {
  return entry.check === f.check && entry.operation === f.operation && entry.place === placeOf(f);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads and validates a baseline; an absent file is an empty baseline. */
export function loadBaseline(path: string | undefined): Baseline {
  if (!path || !existsSync(path)) return { entries: [] };
  const data = readJsonFile(path, `CONTRACT_BASELINE ${path}`, (m) => new BaselineError(m));
  const entries = (data as { entries?: unknown })?.entries;
  if (!Array.isArray(entries))
    throw new BaselineError(`CONTRACT_BASELINE ${path} must be an object with an "entries" array`);
  entries.forEach((e: Record<string, unknown>, i) => {
    for (const key of ["check", "operation", "place", "reason", "expires"])
      if (typeof e?.[key] !== "string")
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
 * The baseline that accepts `findings` (errors only): existing entries kept with their reason and expiry,
 * new ones added with a placeholder reason and an expiry `days` from today. Entries that no longer occur go.
 */
export function updatedBaseline(previous: Baseline, findings: Finding[], now = new Date(), days = 90): Baseline {
  const expires = today(new Date(now.getTime() + days * 86_400_000));
  const out: BaselineEntry[] = [];
  for (const f of findings.filter((x) => x.severity === "error")) {
    if (out.some((e) => accepts(e, f))) continue;
    const kept = previous.entries.find((e) => accepts(e, f));
    out.push(
      kept ?? {
        check: f.check,
        operation: f.operation,
        place: placeOf(f),
        reason: `accepted on ${today(now)}: ${f.title} (say why, and link the fix)`,
        expires,
      },
    );
  }
  return {
    entries: out.sort((a, b) =>
      `${a.operation}${a.check}${a.place}`.localeCompare(`${b.operation}${b.check}${b.place}`),
    ),
  };
}

/** Writes a baseline file (through the scrubber, like every file the suite writes). */
export function writeBaseline(path: string, baseline: Baseline, scrub: (text: string) => string): void {
  writeFileSync(path, scrub(`${JSON.stringify(baseline, null, 2)}\n`));
}
