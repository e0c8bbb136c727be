/**
 * Sharded runs: `--shard i/n` (CONTRACT_SHARD) runs a deterministic share of the document's operations, each
 * shard writes its reports and a record of its scenario results, and `npm run contract:merge` joins the
 * records into the one verdict, baseline comparison and four report files a single run gives.
 *
 * Operations joined by OpenAPI links (a source whose responses feed a target) always go to the same shard,
 * so a link is followed exactly as in a single run. Groups are dealt largest first to the shard with the
 * fewest operations so far (ties: the lower shard), so the split depends on the document alone.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OperationEntry } from "../openapi/lib/operations.js";
import type { Scrubber } from "../src/redact.js";
import { writtenLinks } from "./engine/links.js";
import type { ScenarioResult } from "./engine/run.js";
import { loadBaseline } from "./report/baseline.js";
import { buildReport, type RunReport } from "./report/render.js";
import { SettingsError } from "./options.js";
import { readJsonFile } from "../openapi/lib/self-contained.js";

/** One share of a run: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `i/n` (1 ≤ i ≤ n); `name` is the flag or variable it came from, for the message. */
export function parseShard(raw: string, name = "CONTRACT_SHARD"): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count || count > 1000)
    throw new SettingsError(
      `${name} must be i/n with 1 ≤ i ≤ n ≤ 1000 (e.g. 2/4), got ${JSON.stringify(raw.slice(0, 20))}`,
    );
  return { index, count };
}

/** The operations of the document in groups that links join (union-find), each group in document order. */
export function linkGroups(operations: OperationEntry[]): OperationEntry[][] {
  const index = new Map(operations.map((op, i) => [op.operationId, i]));
  const parent = operations.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const { source, link } of writtenLinks(operations)) {
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
export function shardOperations(operations: OperationEntry[], shard: Shard): OperationEntry[] {
  const groups = linkGroups(operations);
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

/** The file a shard writes next to its reports, read by the merge. */
export const SHARD_FILE = "contract-shard.json";

/** What a shard records for the merge. */
export interface ShardRecord {
  version: 1;
  shard: Shard;
  target: RunReport["target"];
  /** Every operation of the document, in document order (the merged report lists them all). */
  documentOperations: RunReport["operations"];
  /** The operations in the order a single run takes them (link sources first): the merge orders results by it. */
  runOrder: string[];
  /** The baseline file the shard was judged against, if any. */
  baselinePath: string | null;
  /** Requests the shard sent. */
  requests: number;
  results: ScenarioResult[];
}

/** Writes a shard's record next to its reports, through the scrubber like every report file; returns its path. */
export function writeShardRecord(dir: string, record: ShardRecord, scrubber: Scrubber): string {
  const path = join(dir, SHARD_FILE);
  writeFileSync(path, scrubber.text(`${JSON.stringify(record)}\n`));
  return path;
}

/** The results of every shard in the order a single run would have produced them; throws SettingsError for an incomplete or mixed set. */
export function mergeRecords(records: ShardRecord[]): {
  first: ShardRecord;
  results: ScenarioResult[];
  requests: number;
} {
  if (records.length === 0)
    throw new SettingsError(`no shard records (${SHARD_FILE}) found: run each shard with --shard i/n first`);
  const first = records[0]!;
  const { count } = first.shard;
  for (const r of records) {
    if (r.version !== 1)
      throw new SettingsError(`a shard record has version ${String(r.version)}; this merge reads version 1`);
    if (r.shard.count !== count)
      throw new SettingsError(`the shard records mix runs split ${count} and ${r.shard.count} ways`);
    if (
      r.target.spec !== first.target.spec ||
      r.target.strict !== first.target.strict ||
      r.target.kind !== first.target.kind
    )
      throw new SettingsError(
        `the shard records are of different runs (${first.target.kind} ${first.target.spec} and ${r.target.kind} ${r.target.spec})`,
      );
  }
  const seen = new Set(records.map((r) => r.shard.index));
  if (seen.size !== records.length)
    throw new SettingsError(
      `a shard is given twice (shards ${records.map((r) => r.shard.index).join(", ")} of ${count})`,
    );
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new SettingsError(
      `shard(s) ${missing.join(", ")} of ${count} missing: the merged verdict would leave their operations out`,
    );
  const position = new Map(first.runOrder.map((id, i) => [id, i]));
  const pos = (r: ScenarioResult) => position.get(r.operation) ?? -1;
  // The preflight (and any result not of an operation) first, as in a single run; then by the single run's order.
  const tagged = records.flatMap((rec) => rec.results.map((r, i) => ({ r, rank: [pos(r), rec.shard.index, i] })));
  tagged.sort((a, b) => a.rank[0]! - b.rank[0]! || a.rank[1]! - b.rank[1]! || a.rank[2]! - b.rank[2]!);
  // One preflight result is enough: every shard that could not reach the target says the same.
  const results: ScenarioResult[] = [];
  for (const { r } of tagged)
    if (!(r.phase === "preflight" && results.some((x) => x.phase === "preflight"))) results.push(r);
  return { first, results, requests: records.reduce((n, r) => n + r.requests, 0) };
}

/** Reads the shard records in `dirs`; throws SettingsError naming a folder without a readable record. */
export function readRecords(dirs: string[]): ShardRecord[] {
  return dirs.map((dir) => {
    const file = join(dir, SHARD_FILE);
    if (!existsSync(file))
      throw new SettingsError(
        `${dir} holds no ${SHARD_FILE}: it is not the reports folder of a shard (npm run contract -- --shard i/n)`,
      );
    return readJsonFile(file, file, (m) => new SettingsError(m)) as ShardRecord;
  });
}

/** The merged report of shard records, judged against `baselinePath` (default: the shards' own). */
export function mergeReport(
  records: ShardRecord[],
  baselinePath?: string,
  now = new Date(),
): { report: RunReport; results: ScenarioResult[] } {
  const { first, results, requests } = mergeRecords(records);
  const path = baselinePath ?? first.baselinePath ?? undefined;
  const baseline = loadBaseline(path);
  const report = buildReport(
    first.target,
    first.documentOperations,
    results,
    { ...baseline, ...(path ? { path } : {}) },
    requests,
    now,
  );
  return { report, results };
}
