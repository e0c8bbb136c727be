/**
 * What the text report and the markdown summary print of a long list of findings: per operation and check the
 * first few distinct failures, then how many more (the JSON report holds every one).
 */
import type { Finding } from "../model/types.js";

/** Most distinct failures of one check per operation the text report and the markdown summary show. */
const MAX_PER_CHECK = 5;

/** What a capped list left out of one check: how many errors and warnings. */
export interface LeftOut {
  operation: string;
  check: string;
  errors: number;
  warnings: number;
}

/**
 * The findings of a list by operation and check (in order of first appearance): each group's first
 * `MAX_PER_CHECK`, and what it left out (the JSON report has them all).
 */
export function capped<T extends Pick<Finding, "operation" | "check" | "severity">>(
  list: readonly T[],
): Array<{ shown: T[]; more?: LeftOut }> {
  const groups = new Map<string, T[]>();
  for (const f of list) {
    const key = `${f.operation}\u0000${f.check}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()].map((group) => {
    const rest = group.slice(MAX_PER_CHECK);
    const errors = rest.filter((f) => f.severity === "error").length;
    const { operation, check } = group[0]!;
    return {
      shown: group.slice(0, MAX_PER_CHECK),
      ...(rest.length ? { more: { operation, check, errors, warnings: rest.length - errors } } : {}),
    };
  });
}

/** The line saying what a capped list left out of one check (`what`: "distinct failures", "accepted findings"). */
export function leftOutText(m: LeftOut, what: string, check: string): string {
  const n = m.errors + m.warnings;
  const kinds = [m.errors ? `${m.errors} error(s)` : "", m.warnings ? `${m.warnings} warning(s)` : ""].filter(Boolean);
  return `and ${n} more ${what} of ${check} (${kinds.join(", ")}; all in contract-report.json)`;
}
