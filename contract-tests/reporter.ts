/**
 * The suite's reporter (in vitest's main process): gathers every scenario's result from the test meta,
 * applies the baseline, writes the JSON, JUnit, markdown and text reports through the scrubber, prints the
 * text report, updates the baseline when asked, and keeps the verdict for run.ts.
 */
import type { Reporter, TestModule, Vitest } from "vitest/node";
import "./context.js";
import type { ScenarioResult } from "./engine/run.js";
import { loadBaseline, updatedBaseline, writeBaseline } from "./report/baseline.js";
import { buildReport, formatText, type RunReport } from "./report/render.js";
import { writeReports } from "./report/write.js";
import { specModel } from "./model.js";
import { DEFAULT_BASELINE_PATH } from "./settings.js";
import { runScrubber } from "./target.js";

/** Where the verdict of the last run is kept for run.ts (the reporter may be loaded through vite's module runner). */
export const VERDICT = Symbol.for("webauto-api.contract.verdict");

/** The contract reporter. */
export default class ContractReporter implements Reporter {
  #vitest: Vitest | undefined;
  /** The report of the last run (undefined until it ends). */
  report: RunReport | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const project = this.#vitest?.getRootProject();
    const provided = project?.getProvidedContext();
    const context = provided?.contract;
    if (!context) return; // the global setup failed: vitest prints why
    const { settings } = context;
    const results: ScenarioResult[] = [];
    for (const mod of modules)
      for (const test of mod.children.allTests()) {
        const meta = test.meta().contract;
        if (meta) results.push(meta);
        else if (test.result().state === "failed")
          results.push({ id: test.name, operation: "(suite)", phase: "internal", title: test.name, status: "failed", findings: [], accepted: [], exchanges: 0, error: test.result().errors?.map((e) => e.message).join("\n") ?? "failed" });
      }
    const baseline = loadBaseline(settings.baselinePath);
    const requests = Math.max(0, ...results.map((r) => r.requestsSent ?? 0));
    const scrubber = runScrubber(settings);
    if (provided?.contractOptions?.updateBaseline) {
      const path = settings.baselinePath ?? DEFAULT_BASELINE_PATH;
      const next = updatedBaseline(baseline, results.flatMap((r) => [...r.findings, ...r.accepted]));
      writeBaseline(path, next, scrubber.text);
      // The run is judged against the baseline it just wrote.
      for (const r of results) {
        const accepted = r.findings.filter((f) => f.severity === "error");
        r.accepted = [...r.accepted, ...accepted];
        r.findings = r.findings.filter((f) => f.severity !== "error");
        if (r.status === "failed" && !r.error) r.status = "passed";
      }
      baseline.entries = next.entries;
      console.log(`Baseline: wrote ${next.entries.length} entr${next.entries.length === 1 ? "y" : "ies"} to ${path}`);
    }
    const operations = specModel(settings.specPath).operations.map(({ operationId, method, path }) => ({ operationId, method, path }));
    const report = buildReport({ kind: settings.kind, baseUrl: settings.baseUrl, strict: settings.strict, spec: settings.specPath }, operations, results, { ...baseline, ...(settings.baselinePath ? { path: settings.baselinePath } : {}) }, requests);
    const paths = writeReports(settings.reportsDir, report, results, scrubber);
    this.report = report;
    (globalThis as Record<symbol, unknown>)[VERDICT] = report.verdict;
    process.stdout.write(`\n${scrubber.text(formatText(report))}\nReports: ${Object.values(paths).join(", ")}\n`);
  }
}
