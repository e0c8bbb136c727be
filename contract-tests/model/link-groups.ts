/**
 * The operations of a document in the groups its OpenAPI links join, and the share of them one shard of a run
 * takes (--shard i/n): operations joined by links always go to the same shard, so a link is followed exactly as
 * in a single run. Groups are dealt largest first to the shard with the fewest operations so far (ties: the
 * lower shard), so the split depends on the document alone.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { type SourcedLink, writtenLinks } from "./links.js";

/** One share of a run: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** The operations of the document in groups that links join (union-find), each group in document order. */
export function linkGroups(
  operations: OperationEntry[],
  links: ReadonlyArray<Pick<SourcedLink, "source" | "link">> = writtenLinks(operations),
): OperationEntry[][] {
  const index = new Map(operations.map((op, i) => [op.operationId, i]));
  const parent = operations.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const { source, link } of links) {
    const a = index.get(source);
    const b = index.get(link.operationId);
    if (a !== undefined && b !== undefined) parent[find(a)] = find(b);
  }
  const groups = new Map<number, OperationEntry[]>();
  operations.forEach((op, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(op);
    else groups.set(root, [op]);
  });
  return [...groups.values()];
}

/** The operations shard `shard` runs, in document order; every operation is in exactly one shard. */
export function shardOperations(
  operations: OperationEntry[],
  shard: Shard,
  links?: ReadonlyArray<Pick<SourcedLink, "source" | "link">>,
): OperationEntry[] {
  const groups = linkGroups(operations, links);
  // Largest group first; equal sizes in document order (Array.prototype.sort is stable).
  const order = groups.map((g, i) => ({ g, i })).sort((a, b) => b.g.length - a.g.length);
  const load = Array.from({ length: shard.count }, () => 0);
  const mine = new Set<OperationEntry>();
  for (const { g } of order) {
    let target = 0;
    for (let s = 1; s < shard.count; s++) if (load[s]! < load[target]!) target = s;
    load[target]! += g.length;
    if (target === shard.index - 1) for (const op of g) mine.add(op);
  }
  return operations.filter((op) => mine.has(op));
}
