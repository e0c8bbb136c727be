/**
 * The operations a run takes when --operations narrows it (by operationId, path glob or tag), apart from the
 * rest of the selection (select.ts) so the settings can size the request budget by them without importing
 * the checks. A selector that names nothing is an invalid setting naming the closest known name.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { type Shard, shardOperations } from "../model/link-groups.js";
import { type LinkDocument, orderingLinks } from "../model/links.js";
import { closest, SettingsError } from "./options.js";

/** A path glob as a regular expression: `*` is one segment (or part of one), `**` any number of segments. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}

/** The test of one selector, built once: `tag:<tag>`, `[METHOD ]/path/glob`, or an operationId. */
function matcher(selector: string): (op: OperationEntry) => boolean {
  if (selector.startsWith("tag:")) return (op) => op.tags.includes(selector.slice(4));
  const m = /^(?:([A-Za-z]+)\s+)?(\/.*)$/.exec(selector);
  if (m) {
    const method = m[1]?.toUpperCase();
    const path = globToRegExp(m[2]!);
    return (op) => (!method || method === op.method.toUpperCase()) && path.test(op.path);
  }
  return (op) => op.operationId === selector;
}

/** The operations the settings select (all when none are named); a selector matching none is refused. */
export function selectOperations<T extends OperationEntry>(
  operations: T[],
  settings: { operations?: readonly string[] },
): T[] {
  const selectors = settings.operations;
  if (!selectors) return operations;
  const tests = selectors.map(matcher);
  selectors.forEach((s, i) => {
    if (operations.some(tests[i]!)) return;
    const known = s.startsWith("tag:")
      ? [...new Set(operations.flatMap((op) => op.tags.map((t) => `tag:${t}`)))]
      : s.includes("/")
        ? operations.map((op) => op.path)
        : operations.map((op) => op.operationId);
    throw new SettingsError(
      `--operations (CONTRACT_OPERATIONS): ${JSON.stringify(s)} matches no operation ` +
        `of the document; closest: ${closest(s, known) ?? "(none)"}`,
    );
  });
  return operations.filter((op) => tests.some((test) => test(op)));
}

/**
 * The operations a run takes: its shard's share of the document (all of them without --shard), in the document's
 * order, and of those the ones --operations selects. The settings size the budget by it, the run plans by it and
 * the reports measure reach against it: one answer for the three.
 */
export function runShare(
  doc: LinkDocument,
  settings: { shard?: Shard | undefined; inferLinks: boolean; operations?: readonly string[] | undefined },
): { share: OperationEntry[]; selected: OperationEntry[] } {
  const share = settings.shard
    ? shardOperations(doc.operations, settings.shard, orderingLinks(doc, settings.inferLinks))
    : doc.operations;
  return { share, selected: selectOperations(share, settings) };
}
