/**
 * The contract suite as vitest tests: every scenario of the run (the generic phases of every operation of the
 * document, then its module's), one test each, grouped by operation. A test fails on a finding the baseline
 * does not accept, with the findings as its message; it is skipped with the reason when it cannot run.
 */
import { describe, inject, it } from "vitest";
import "../context.js";
import { ContractRun, preflightFailure } from "../engine/run.js";
import { formatFinding } from "../report/render.js";

const { settings, preflight } = inject("contract");
const run = new ContractRun(settings);
const scenarios = run.scenarios();

if (preflight) {
  it("preflight: the target answers HTTP at its base URL", (t) => {
    t.task.meta.contract = preflightFailure(run, preflight);
    throw new Error(`the target did not answer: ${preflight}`);
  });
}

for (const operation of [...new Set(scenarios.map((s) => s.operation))]) {
  describe(operation, () => {
    for (const scenario of scenarios.filter((s) => s.operation === operation)) {
      it(scenario.title, async (t) => {
        const result = preflight
          ? { ...(await run.execute({ ...scenario, skip: `skipped: the target did not answer the preflight (${preflight})` })) }
          : await run.execute(scenario);
        t.task.meta.contract = { ...result, requestsSent: run.target.requestsSent() };
        if (result.error) throw new Error(`internal error of the suite: ${result.error}`);
        const errors = result.findings.filter((f) => f.severity === "error");
        if (errors.length > 0) throw new Error(`${errors.length} contract finding(s):\n${errors.map(formatFinding).join("\n")}${result.skipReason ? `\nthen stopped: ${result.skipReason}` : ""}`);
        if (result.status === "skipped") t.skip(result.skipReason);
      });
    }
  });
}
