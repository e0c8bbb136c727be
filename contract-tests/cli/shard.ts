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
import type { Scrubber } from "../../wire/redact.js";
import type { ScenarioResult } from "../model/types.js";
import { loadBaseline } from "../report/baseline.js";
import { buildReport, type RunReport } from "../report/render.js";
import { SettingsError } from "../config/options.js";
import type { Shard } from "../model/link-groups.js";
import { readJsonFile } from "../../openapi/lib/self-contained.js";

/** The file a shard writes next to its reports, read by the merge. */
const SHARD_FILE = "contract-shard.json";

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
  /** The operations the shard selected (its share, narrowed by --operations); absent in older records: its share. */
  selectedOperations?: string[];
  /** --operations as the shard was given it, if at all (the merged reach says the run was narrowed). */
  operationsSelector?: string[];
  /** --min-reach of the shard, if set: the merged run is judged against it on the merged reach. */
  minReach?: number;
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

/**
 * The results of every shard in the order a single run would have produced them; throws SettingsError for an
 * incomplete or mixed set.
 */
function mergeRecords(records: ShardRecord[]): {
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
        `the shard records are of different runs (${first.target.kind} ${first.target.spec} ` +
          `and ${r.target.kind} ${r.target.spec})`,
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

/**
 * The merged report of shard records, judged against `baselinePath` (default: the shards' own) and `minReach`
 * (default: the shards' --min-reach). Reach is the union of the shards': an operation any shard reached, with
 * every status any shard saw, out of the union of the operations they selected.
 */
export function mergeReport(
  records: ShardRecord[],
  baselinePath?: string,
  now = new Date(),
  minReach?: number,
): { report: RunReport; results: ScenarioResult[] } {
  const { first, results, requests } = mergeRecords(records);
  const path = baselinePath ?? first.baselinePath ?? undefined;
  const baseline = loadBaseline(path);
  const document = first.documentOperations.map((o) => o.operationId);
  // A record without its selection (an older one) selected its whole share.
  const selected = records.every((r) => r.selectedOperations)
    ? new Set(records.flatMap((r) => r.selectedOperations!))
    : new Set(document);
  const minimum = minReach ?? records.find((r) => r.minReach !== undefined)?.minReach;
  const selector = records.find((r) => r.operationsSelector)?.operationsSelector;
  const report = buildReport(
    first.target,
    first.documentOperations,
    results,
    { ...baseline, ...(path ? { path } : {}) },
    requests,
    now,
    {
      document,
      selected: document.filter((id) => selected.has(id)),
      ...(selector && selected.size < document.length ? { narrowedBy: "--operations" } : {}),
      ...(minimum !== undefined ? { minimum } : {}),
    },
  );
  return { report, results };
}
