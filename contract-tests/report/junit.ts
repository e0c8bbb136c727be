/** The JUnit XML of a run (junit-report-builder): one test case per scenario, grouped by operation. */
import junitModule, { type Builder } from "junit-report-builder";
import type { ScenarioResult } from "../model/types.js";
import { formatFinding, notRunOf, notRunText } from "./render.js";
import { belowMinimumText, operationReachText, reachText, type Reach } from "./reach.js";
import { outsideText } from "../../openapi/lib/outside-text.js";

/** Outside strings (XML escaping is the builder's; control characters, invalid in XML 1.0, are made visible here). */
const t = (v: unknown) => outsideText(v, "terminal");

// junit-report-builder is CommonJS with a default export: under Node's ESM the default import is the module object.
const junit: Builder = (junitModule as unknown as { default?: Builder }).default ?? (junitModule as unknown as Builder);

/** Most warnings attached to one test case as properties. */
const MAX_WARNING_PROPERTIES = 20;

/**
 * Renders the results as JUnit XML: failures carry the formatted findings, skips their reason, passes their
 * warnings; with `reach`, a case `the document's operations were reached` says the reach (and fails below --min-reach).
 */
export function formatJUnit(results: ScenarioResult[], reach?: Reach): string {
  const builder = junit.newBuilder().name("contract");
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const r of results) {
    let suite = suites.get(r.operation);
    if (!suite) {
      suite = builder.testSuite().name(t(r.operation));
      suites.set(r.operation, suite);
    }
    const tc = suite
      .testCase()
      .className(`contract.${t(r.operation)}`)
      .name(t(r.title));
    const errors = r.findings.filter((f) => f.severity === "error");
    if (r.error)
      tc.error(`internal error: ${t(r.error.split("\n")[0])}`, "internal", r.error.split("\n").map(t).join("\n"));
    else if (r.status === "failed")
      tc.failure(
        `${errors.length} contract finding(s): ${[...new Set(errors.map((f) => f.check))].map(t).join(", ")}`,
        "contract",
      ).stacktrace(errors.map(formatFinding).join("\n"));
    else if (r.status === "skipped") tc.skipped().property("skip-reason", t(r.skipReason ?? ""));
    for (const w of r.findings.filter((f) => f.severity === "warning").slice(0, MAX_WARNING_PROPERTIES))
      tc.property("warning", t(`${w.check}: ${w.title}`));
    for (const a of r.accepted) tc.property("accepted", t(`${a.check}: ${a.title}`));
  }
  // A run cut short is no pass: one failing case says how much was left out and why.
  const notRun = notRunOf(results);
  let run: ReturnType<typeof builder.testSuite> | undefined;
  const runSuite = () => {
    run = run ?? builder.testSuite().name("(run)");
    return run;
  };
  if (notRun.scenarios > 0)
    runSuite()
      .testCase()
      .className("contract.(run)")
      .name("every planned scenario ran")
      .failure(notRunText(notRun), "incomplete");
  if (reach) {
    const tc = runSuite()
      .testCase()
      .className("contract.(run)")
      .name("the document's operations were reached")
      .property("reach", t(reachText(reach)));
    for (const o of reach.operations.filter((x) => !x.reached).slice(0, MAX_WARNING_PROPERTIES))
      tc.property("not-reached", t(`${o.operationId}: ${operationReachText(o)}`));
    if (reach.belowMinimum) tc.failure(t(belowMinimumText(reach)), "reach");
  }
  return builder.build();
}
