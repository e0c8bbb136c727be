/**
 * The whole suite (every scenario, run in this process by the engine npm run contract uses) against the
 * fault-injecting server's conforming and lenient variants: the conforming server passes; the lenient ones, taking
 * every freedom the document leaves, pass with warnings; a document copy with an added operation is exercised in
 * every generic phase with no suite code for it; budgets, breakers and huge bodies end in a verdict. (The fault
 * catalogue is in faults.test.ts, other security schemes in security-schemes.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { LENIENT, type Lenient } from "../fault-server/lenient.js";
import { buildReport } from "../report/render.js";
import { loadBaseline } from "../report/baseline.js";
import { DEFAULT_BASELINE_PATH } from "../config/settings.js";
import { errorsOf, faultRuns, type Plan, warningsOf, errorsWithoutPromise } from "./support/fault-runs.js";
import type { ScenarioResult } from "../model/types.js";

const runs = faultRuns((server): Plan[] => [
  ["conforming", { CONTRACT_BASE_URL: server.baseUrl() }],
  ["conforming-main-document", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_SPEC: "" }],
  ["conforming-strict", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_STRICT: "1" }],
  ["without-params", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_PARAMS: "", CONTRACT_SECOND_API_KEY: "" }],
  ["enveloped", { CONTRACT_BASE_URL: server.baseUrl("enveloped-responses") }],
  ["enveloped-strict", { CONTRACT_BASE_URL: server.baseUrl("enveloped-responses"), CONTRACT_STRICT: "1" }],
  [
    "enveloped-strict-baseline",
    {
      CONTRACT_BASE_URL: server.baseUrl("enveloped-responses"),
      CONTRACT_STRICT: "1",
      CONTRACT_BASELINE: DEFAULT_BASELINE_PATH,
    },
  ],
  ["budget", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_MAX_REQUESTS: "10" }],
  // Each freedom alone with two generated requests per operation (npm test stays fast); all of them together in full.
  ...(Object.keys(LENIENT) as Lenient[]).map(
    (v): Plan => [v, { CONTRACT_BASE_URL: server.baseUrl(v), CONTRACT_EXAMPLES: "2" }],
  ),
  ["lenient", { CONTRACT_BASE_URL: server.baseUrl("lenient") }],
  ["lenient-strict", { CONTRACT_BASE_URL: server.baseUrl("lenient"), CONTRACT_STRICT: "1" }],
  // One request at a time: the three in a row are then exactly three (with N workers, N go out together).
  [
    "never-answers",
    { CONTRACT_BASE_URL: server.baseUrl("never-answers"), CONTRACT_TIMEOUT_MS: "300", CONTRACT_WORKERS: "1" },
  ],
  [
    "huge-bodies",
    {
      CONTRACT_BASE_URL: server.baseUrl("huge-bodies"),
      CONTRACT_MAX_BODY_BYTES: String(1024 * 1024),
      CONTRACT_MAX_REQUESTS: "30",
    },
  ],
  ["deep-bodies", { CONTRACT_BASE_URL: server.baseUrl("deep-bodies"), CONTRACT_MAX_REQUESTS: "40" }],
]);

describe("the conforming server", () => {
  it(
    "passes every scenario of every phase, the added operation and " +
      "the isolation phase included, with warnings only",
    () => {
      const { results } = runs.get("conforming")!;
      expect(
        results
          .filter((r) => r.status !== "passed")
          .map((r) => `${r.id}: ${r.skipReason ?? r.error ?? JSON.stringify(r.findings.map((f) => f.title))}`),
      ).toEqual([]);
      expect(warningsOf(results)).toContain("undocumented_properties");
      for (const phase of [
        "examples",
        "positive",
        "negative",
        "auth",
        "links",
        "isolation",
        "semantics",
        "edges",
        "hostile",
        "unsupported-method",
      ])
        expect(
          results.some((r) => r.phase === phase && r.exchanges > 0),
          phase,
        ).toBe(true);
      // Its 405 with Allow for a method a path does not take: not even a warning.
      expect(results.flatMap((r) => r.findings).filter((f) => f.check === "unsupported_method")).toEqual([]);
    },
  );

  it("fails under CONTRACT_STRICT=1 only because of its undocumented members", () => {
    expect(errorsOf(runs.get("conforming-strict")!.results)).toEqual(["undocumented_properties"]);
  });

  it(
    "skips what needs a setting, naming it (a PUT needs " +
      "CONTRACT_PARAMS, isolation a second key), and passes the rest",
    () => {
      const { results } = runs.get("without-params")!;
      const skipped = results.filter((r) => r.status === "skipped");
      expect(skipped.filter((r) => r.operation === "updateDataSchema").map((r) => r.phase)).toEqual([
        "examples",
        "positive",
        "negative",
        "auth",
        "edges",
        "hostile",
      ]);
      expect(skipped.find((r) => r.operation === "updateDataSchema")!.skipReason).toMatch(
        /CONTRACT_PARAMS \{"updateDataSchema\.id": \.\.\.\}/,
      );
      expect(skipped.find((r) => r.phase === "isolation")!.skipReason).toMatch(/CONTRACT_SECOND_API_KEY/);
      expect(errorsOf(results)).toEqual([]);
    },
  );

  it('accepts {"data": ...} envelopes with a warning, and fails them under strict', () => {
    expect(errorsOf(runs.get("enveloped")!.results)).toEqual([]);
    expect(warningsOf(runs.get("enveloped")!.results)).toContain("response_envelope");
    expect(errorsOf(runs.get("enveloped-strict")!.results)).toContain("response_envelope");
  });

  it(
    "is accepted under strict by the committed baseline (the live " +
      "service's envelope and action query), no entry stale",
    () => {
      const { results } = runs.get("enveloped-strict-baseline")!;
      const report = buildReport(
        { kind: "live", baseUrl: "", strict: true, spec: "" },
        [],
        results,
        loadBaseline(DEFAULT_BASELINE_PATH),
        0,
      );
      // One finding per cause: the same envelope on two operations is one finding listing both.
      expect(report.accepted.flatMap((f) => (f.operations ?? [f.operation]).map((o) => `${o} ${f.check}`))).toEqual(
        expect.arrayContaining([
          "createSitemapRequest response_envelope",
          "listBrowserRequests undocumented_properties",
          "updateDataSchema response_envelope",
        ]),
      );
      expect(report.baseline.fixed).toEqual([]);
      expect(report.findings.filter((f) => f.severity === "error").map((f) => f.check)).not.toContain(
        "response_envelope",
      );
    },
  );
});

/** A scenario's error findings, as `check: title`. */
const errorTitles = (r: ScenarioResult) =>
  r.findings.filter((f) => f.severity === "error").map((f) => `${f.check}: ${f.title}`);

describe("lenient, conforming servers: every promise kept, every freedom the document leaves taken", () => {
  it.each([...Object.keys(LENIENT), "lenient"])("%s passes every scenario with no error finding", (variant) => {
    const { results } = runs.get(variant)!;
    expect(
      results
        .filter((r) => r.status !== "passed")
        .map((r) => `${r.id}: ${r.skipReason ?? r.error ?? JSON.stringify(errorTitles(r))}`),
    ).toEqual([]);
    expect(errorsOf(results)).toEqual([]);
  });

  it("is told what the document does not promise, as warnings naming why", () => {
    const warnings = runs
      .get("lenient")!
      .results.flatMap((r) => r.findings)
      .filter((f) => f.check === "negative_data_rejection");
    // One finding per cause and reason: each input that got the same answer is listed among its inputs.
    const said = (f: (typeof warnings)[number]) => [f.title, ...(f.inputs ?? [])].join("\n");
    expect(
      warnings.some((f) => /text\/plain/.test(said(f)) && /the document promises no refusal/.test(f.documented)),
    ).toBe(true);
    expect(
      warnings.some((f) => /beyond int32/.test(said(f)) && /without saying it is enforced/.test(f.documented)),
    ).toBe(true);
    expect(
      warnings.some((f) => /parameter (ids|status)/.test(said(f)) && /cannot be told apart/.test(f.documented)),
    ).toBe(true);
    expect(warnings.every((f) => f.severity === "warning")).toBe(true);
  });

  it("is held to every refusal under CONTRACT_STRICT=1 (what the strict setting changes)", () => {
    const strict = errorsOf(runs.get("lenient-strict")!.results);
    expect(strict).toEqual(expect.arrayContaining(["negative_data_rejection", "undocumented_properties"]));
    const held = runs
      .get("lenient-strict")!
      .results.flatMap((r) => r.findings)
      .filter((f) => f.check === "negative_data_rejection" && f.severity === "error");
    expect(held.every((f) => f.promise?.includes("CONTRACT_STRICT=1") || f.promise?.endsWith("/responses/400"))).toBe(
      true,
    );
  });

  it("names a promise for every error finding of every run of this file", () => {
    const { errors, unnamed } = errorsWithoutPromise(runs);
    expect(errors).toBeGreaterThan(0);
    expect(unnamed).toEqual([]);
  });
});

describe("an operation added to the document, with no suite code for it", () => {
  const added = (name: string) => runs.get(name)!.results.filter((r) => r.operation === "getBrowserRequest");

  it("is exercised in every generic phase, its path id fed by the listing's link", () => {
    const results = added("conforming");
    expect(results.map((r) => `${r.phase}:${r.status}`)).toEqual([
      "examples:passed",
      "positive:passed",
      "negative:passed",
      "auth:passed",
      "unknown-ids:passed",
    ]);
    expect(results.every((r) => r.exchanges > 0)).toBe(true);
    const link = runs.get("conforming")!.results.find((r) => r.id === "listBrowserRequests/links/getById")!;
    expect(link.status).toBe("passed");
    expect(link.exchanges, "the linked id and a well-formed unknown one").toBe(2);
  });

  it("is not called at all when the document does not have it", () => {
    expect(added("conforming-main-document")).toEqual([]);
    expect(runs.get("conforming-main-document")!.results.some((r) => r.id.includes("getById"))).toBe(false);
  });
});

describe("a run that must stop early still gives a verdict", () => {
  it("stops at CONTRACT_MAX_REQUESTS and marks what it did not run as skipped with the reason", () => {
    const { results, requests } = runs.get("budget")!;
    expect(requests).toBeLessThanOrEqual(10);
    const stopped = results.filter((r) => r.skipReason?.includes("CONTRACT_MAX_REQUESTS"));
    expect(stopped.length).toBeGreaterThan(results.length / 2);
    // Which scenario the budget stops first depends on the workers; each says why (the clean-up's share included).
    for (const r of stopped)
      expect(r.skipReason).toMatch(
        /^skipped: the request budget of 10 is spent \(CONTRACT_MAX_REQUESTS\)(, but for what the clean-up needs)?$/,
      );
  });

  it(
    "opens the breaker after three requests without an answer (so " +
      "the run is bounded by three deadlines), saying why",
    () => {
      const { results, requests } = runs.get("never-answers")!;
      expect(requests, "timeouts are not retried: three requests, then the breaker").toBe(3);
      expect(errorsOf(results)).toEqual(["not_a_server_error"]);
      expect(results.flatMap((r) => r.findings).find((f) => f.check === "not_a_server_error")!.received).toMatch(
        /no answer within 300 ms \(timeout\)/,
      );
      expect(results.filter((r) => r.status === "skipped").at(-1)!.skipReason).toMatch(
        /the target stopped answering \(3 requests in a row got no HTTP response/,
      );
    },
  );

  it("reports bodies nested 100,000 levels deep instead of crashing on them", () => {
    const { results } = runs.get("deep-bodies")!;
    expect(results.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`)).toEqual([]);
    const finding = results.flatMap((r) => r.findings).find((f) => f.check === "body_size_limit")!;
    expect(finding.title).toMatch(/nests deeper than 512 levels/);
    expect(finding.received).toBe("100001 levels of arrays and objects");
  });

  it("reads at most CONTRACT_MAX_BODY_BYTES of a 50 MB body, reports it, and keeps memory flat", () => {
    const { results } = runs.get("huge-bodies")!;
    expect(errorsOf(results)).toContain("body_size_limit");
    const finding = results.flatMap((r) => r.findings).find((f) => f.check === "body_size_limit")!;
    expect(finding.received).toMatch(/more than 1048576 bytes/);
    expect(JSON.stringify(results).length, "findings hold excerpts, not bodies").toBeLessThan(2_000_000);
  });
});
