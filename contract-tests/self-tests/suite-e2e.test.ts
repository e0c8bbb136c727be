/**
 * The whole suite (npm run contract's entry point) against the fault-injecting server: non-zero with the
 * expected checks named for every fault, a pass for the conforming server, and a pass against the mock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULTS, type Fault } from "../fault-server/faults.js";
import { FAULT_SERVER_KEY, startFaultServer, type FaultServer } from "../fault-server/server.js";
import { limited, runSuite, type SuiteRun } from "../spawn-suite.js";

const SCHEMA_ID = "dsc_contractSuiteSelfTest1";
const runs = new Map<string, SuiteRun>();
let server: FaultServer;

const live = (baseUrl: string, extra: Record<string, string> = {}) => ({ CONTRACT_BASE_URL: baseUrl, CONTRACT_API_KEY: FAULT_SERVER_KEY, CONTRACT_SCHEMA_ID: SCHEMA_ID, ...extra });

beforeAll(async () => {
  server = await startFaultServer();
  const plans: Array<[string, Record<string, string>]> = [
    ["mock", {}],
    ["conforming", live(server.baseUrl())],
    ["conforming-strict", live(server.baseUrl(), { CONTRACT_STRICT: "1" })],
    ["conforming-without-schema-id", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_API_KEY: FAULT_SERVER_KEY }],
    ["enveloped", live(server.baseUrl("enveloped-responses"))],
    ["enveloped-strict", live(server.baseUrl("enveloped-responses"), { CONTRACT_STRICT: "1" })],
    ["bad-setting", { CONTRACT_BASE_URL: server.baseUrl(), CONTRACT_API_KEY: FAULT_SERVER_KEY, CONTRACT_SITEMAP_URL: "ftp://example.com" }],
    ...(Object.keys(FAULTS) as Fault[]).map((f): [string, Record<string, string>] => [f, live(server.baseUrl(f))]),
  ];
  // Two cores are shared: at most three suites at a time.
  const done = await limited(3, plans.map(([, env]) => () => runSuite(env)));
  plans.forEach(([name], i) => runs.set(name, done[i]!));
}, 600_000);

afterAll(() => server?.stop());

const errorsOf = (run: SuiteRun) => run.report?.summary.failedChecks ?? [];

describe("the whole suite against the fault-injecting server", () => {
  it.each(Object.entries(FAULTS))("fails on %s, naming the checks that catch it and no others", (fault, { catches, ...rest }) => {
    const run = runs.get(fault)!;
    const also: string[] = "alsoFlags" in rest ? (rest.alsoFlags as string[]) : [];
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(errorsOf(run)).toEqual(expect.arrayContaining(catches));
    expect(errorsOf(run).filter((c) => !catches.includes(c as never) && !also.includes(c))).toEqual([]);
    for (const check of catches) expect(run.output).toContain(`✗ [error] ${check}:`);
    expect(run.output).toContain("Received:");
    expect(run.output).toContain("curl -X");
  });

  it("passes against the conforming server, which chose 401/403, a page-size cap and extra members", () => {
    const run = runs.get("conforming")!;
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.report!.summary).toMatchObject({ errors: 0, skippedTests: 0 });
    expect(run.report!.summary.warnings).toBeGreaterThan(0); // the extra members are reported, not failed
    expect(run.reportFiles()).toContain('<property name="warning" value="undocumented_properties: Undocumented property');
  });

  it("fails the conforming server under CONTRACT_STRICT=1 because of its undocumented members", () => {
    const run = runs.get("conforming-strict")!;
    expect(run.code).toBe(1);
    expect(errorsOf(run)).toEqual(["undocumented_properties"]);
  });

  it("reports the schema checks as skipped when CONTRACT_SCHEMA_ID is not set on a live target", () => {
    const run = runs.get("conforming-without-schema-id")!;
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.report!.skipped.filter((s) => s.operation === "updateDataSchema")).toHaveLength(3);
    expect(run.output).toContain("skipped: needs CONTRACT_SCHEMA_ID");
  });

  it('accepts {"data": ...} envelopes on the sitemap and schema with a warning, and fails them under strict', () => {
    const lenient = runs.get("enveloped")!;
    expect(lenient.code, lenient.output.slice(-3000)).toBe(0);
    expect(lenient.report!.violations.some((v) => v.check === "response_envelope" && v.severity === "warning")).toBe(true);
    expect(errorsOf(runs.get("enveloped-strict")!)).toContain("response_envelope");
  });

  it("never writes the API key to the output or any report file", () => {
    for (const [name, run] of runs) {
      expect(run.output, name).not.toContain(FAULT_SERVER_KEY);
      expect(run.reportFiles(), name).not.toContain(FAULT_SERVER_KEY);
    }
  });

  it("writes JUnit XML naming the failing check", () => {
    const xml = runs.get("link-count-mismatch")!.reportFiles();
    expect(xml).toMatch(/<testsuites[^>]*failures="[1-9]/);
    expect(xml).toContain("sitemap_link_count");
  });

  it("refuses a bad setting with exit code 2 and a message naming the variable and the rule", () => {
    const run = runs.get("bad-setting")!;
    expect(run.code).toBe(2);
    expect(run.output).toContain("CONTRACT_SITEMAP_URL must use http or https");
  });
});

describe("npm run contract against the Prism mock", () => {
  it("exits 0, prints the report grouped by operation and marks live-only checks as skipped", () => {
    const run = runs.get("mock")!;
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toContain("Contract report: mock target");
    for (const op of ["createSitemapRequest", "updateDataSchema", "listBrowserRequests"]) expect(run.output).toContain(`== ${op}`);
    expect(run.output).toMatch(/refuses listBrowserRequests with a wrong API key with a 4xx: skipped: needs a live target/);
    expect(run.output).toMatch(/\d+ passed, 0 failed, \d+ skipped/);
    expect(run.reportFiles()).toContain('<property name="skip-reason" value="skipped: needs a live target">');
  });
});
