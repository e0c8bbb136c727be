/**
 * The whole suite (every scenario, run in this process by the engine npm run contract uses) against the
 * fault-injecting server, one run per fault of the catalogue: each fault is caught by the checks that must catch
 * it and by no others in the phases that reach it (named in the catalogue: the whole runs are the conforming and
 * lenient servers'), the ones injected into an operation added to the document copy included. The conforming and
 * lenient servers are in conforming-servers.test.ts, other security schemes in security-schemes.test.ts (the runs
 * are split over three files so that the test workers share them).
 */
import { describe, expect, it } from "vitest";
import { FAULTS, type FaultExpectation } from "../fault-server/faults.js";
import { errorFindings, errorsOf, faultRuns, errorsWithoutPromise, findingsPerFault } from "./support/fault-runs.js";

const runs = faultRuns((server) =>
  Object.entries(FAULTS).map(([f, e]) => [
    f,
    {
      CONTRACT_BASE_URL: server.baseUrl(f as keyof typeof FAULTS),
      CONTRACT_PHASES: e.phases.join(","),
      ...("strict" in e ? { CONTRACT_STRICT: "1" } : {}),
      ...("timeoutMs" in e ? { CONTRACT_TIMEOUT_MS: String(e.timeoutMs) } : {}),
    },
  ]),
);

describe("every fault of the catalogue", () => {
  it.each(Object.entries(FAULTS) as Array<[string, FaultExpectation]>)(
    "%s is caught by exactly its checks",
    (fault, { catches, alsoFlags = [] }) => {
      const errors = errorsOf(runs.get(fault)!.results);
      expect(errors).toEqual(expect.arrayContaining(catches));
      expect(
        errors.filter((c) => !catches.includes(c) && !alsoFlags.includes(c)),
        `false positives for ${fault}`,
      ).toEqual([]);
    },
  );
});

describe("one finding per cause (issue 33)", () => {
  it("each planted fault is one error finding: at most 2, on average at most 1.2", () => {
    const counts = Object.fromEntries(Object.keys(FAULTS).map((f) => [f, errorFindings(runs.get(f)!.results)]));
    const { average, above } = findingsPerFault(counts);
    expect(above).toEqual([]);
    expect(average, JSON.stringify(counts)).toBeLessThanOrEqual(1.2);
    expect(Object.values(counts).every((n) => n >= 1)).toBe(true);
  });
});

describe("an operation added to the document, with no suite code for it", () => {
  const added = (name: string) => runs.get(name)!.results.filter((r) => r.operation === "getBrowserRequest");

  it.each(
    Object.entries(FAULTS)
      .filter(([, e]) => "needsById" in e)
      .map(([f]) => f),
  )("catches %s in the added operation's own scenarios", (fault) => {
    expect(
      added(fault).some((r) => r.status === "failed") ||
        runs.get(fault)!.results.some((r) => r.id.endsWith("getById") && r.status === "failed"),
    ).toBe(true);
  });
});

describe("every error finding names its promise", () => {
  it("names a promise for every error finding of every run of the fault matrix", () => {
    const { errors, unnamed } = errorsWithoutPromise(runs);
    expect(errors).toBeGreaterThan(50);
    expect(unnamed).toEqual([]);
  });
});
