/**
 * The end of a run: the baseline applied (and rewritten with `--update-baseline`), the report built, and the
 * JSON, JUnit, markdown and text files written through the scrubber.
 */
import type { Scrubber } from "../../wire/redact.js";
import type { ScenarioResult } from "../model/types.js";
import { specModel } from "../model/model.js";
import { writeShardRecord } from "./shard.js";
import { linkOrder, orderingLinks } from "../model/links.js";
import type { Settings } from "../config/settings.js";
import { loadBaseline, updatedBaseline, writeBaseline, type Baseline } from "../report/baseline.js";
import { buildReport, type RunReport } from "../report/render.js";
import type { ReachInput } from "../report/reach.js";
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { writeReports } from "../report/write.js";
import type { TimedExchange } from "../report/har.js";
import { runShare } from "../config/select-operations.js";
import { lighterOnMock } from "../engine/mock-plan.js";

/** What the end of a run produced. */
export interface Finished {
  report: RunReport;
  /** The report files, by kind. */
  paths: Record<string, string>;
  /** Set when `--update-baseline` wrote the baseline: how many entries, where. */
  baselineWritten?: { path: string; entries: number };
}

/** Applies `--update-baseline`, builds the report and writes its files. */
export function finishRun(
  settings: Settings,
  results: ScenarioResult[],
  requests: number,
  scrubber: Scrubber,
  options: { updateBaseline?: boolean; baseline?: Baseline; exchanges?: readonly TimedExchange[] } = {},
): Finished {
  const baseline = options.baseline ? { entries: [...options.baseline.entries] } : loadBaseline(settings.baselinePath);
  let baselineWritten: Finished["baselineWritten"];
  if (options.updateBaseline) {
    const next = updatedBaseline(
      baseline,
      results.flatMap((r) => [...r.findings, ...r.accepted]),
    );
    // The file a plain run reads (CONTRACT_BASELINE, else contract-baseline.json): the next run accepts these.
    writeBaseline(settings.baselinePath, next, scrubber.text);
    // The run is judged against the baseline it just wrote.
    for (const r of results) {
      const accepted = r.findings.filter((f) => f.severity === "error");
      r.accepted = [...r.accepted, ...accepted];
      r.findings = r.findings.filter((f) => f.severity !== "error");
      if (r.status === "failed" && !r.error) r.status = "passed";
    }
    baseline.entries = next.entries;
    baselineWritten = { path: settings.baselinePath, entries: next.entries.length };
  }
  const model = specModel(settings.specPath);
  const all = model.operations;
  const listed = (ops: typeof all) =>
    ops.map(({ operationId, method, path, responses }) => ({
      operationId,
      method,
      path,
      responses: responses.map((r) => r.status),
    }));
  // A shard's reports list its own operations; its record, for the merge, all of them.
  const { share, selected } = runShare(model, settings);
  const operations = listed(share);
  const reach = reachInputOf(settings, all, selected);
  const report = buildReport(
    {
      kind: settings.kind,
      baseUrl: settings.baseUrl,
      strict: settings.strict,
      spec: settings.specPath,
      ...(settings.kind === "mock" ? { lighter: lighterOnMock(settings) } : {}),
    },
    operations,
    results,
    { ...baseline, path: settings.baselinePath },
    requests,
    new Date(),
    reach,
  );
  const paths: Record<string, string> = writeReports(settings.reportsDir, report, results, scrubber, options.exchanges);
  if (settings.shard)
    paths.shard = writeShardRecord(
      settings.reportsDir,
      {
        version: 1,
        shard: settings.shard,
        target: report.target,
        documentOperations: listed(all),
        runOrder: linkOrder(all, orderingLinks(model.forRequests, settings.inferLinks)).map((op) => op.operationId),
        baselinePath: settings.baselinePath,
        selectedOperations: [...reach.selected!],
        ...(settings.operations ? { operationsSelector: settings.operations } : {}),
        ...(settings.minReach !== undefined ? { minReach: settings.minReach } : {}),
        requests,
        results,
      },
      scrubber,
    );
  return { report, paths, ...(baselineWritten ? { baselineWritten } : {}) };
}

/** What a run's reach is measured against: the document, the operations the run selected, and --min-reach. */
function reachInputOf(
  settings: Pick<Settings, "operations" | "shard" | "minReach">,
  all: OperationEntry[],
  chosen: OperationEntry[],
): ReachInput {
  const selected = chosen.map((op) => op.operationId);
  const by = [
    ...(settings.operations ? ["--operations"] : []),
    ...(settings.shard ? [`--shard ${settings.shard.index}/${settings.shard.count}`] : []),
  ];
  return {
    document: all.map((op) => op.operationId),
    selected,
    ...(by.length && selected.length < all.length ? { narrowedBy: by.join(", ") } : {}),
    ...(settings.minReach !== undefined ? { minimum: settings.minReach } : {}),
  };
}
