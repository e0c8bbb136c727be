/**
 * `npm run contract` end to end (contract-tests/run.ts spawned as users run it): the mock run and its
 * reports, exit codes (0 pass, 1 findings, 2 invalid setting, 3 internal), the baseline lifecycle, a target
 * that never answers, and no key in any output or file, in any encoding a server may echo it in.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_KEY, FAULT_SERVER_TRICKY_KEY, startFaultServer, type FaultServer } from "../fault-server/server.js";
import { cleanUp, runSuite, tempDir, type SuiteRun } from "./support/spawn.js";

let server: FaultServer;
let silent: Server;
const runs: Record<string, SuiteRun> = {};
const baselineRuns: SuiteRun[] = [];
const baselinePath = join(tempDir("contract-baseline-"), "baseline.json");
const SCHEMA = JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" });
const live = (baseUrl: string, extra: Record<string, string> = {}) => ({ CONTRACT_BASE_URL: baseUrl, CONTRACT_API_KEY: FAULT_SERVER_KEY, CONTRACT_PARAMS: SCHEMA, ...extra });

/** Every form a key can take in text: raw, JSON-escaped, percent-encoded. */
const encodings = (key: string) => [key, JSON.stringify(key).slice(1, -1), key.replace(/\+/g, "\\u002B").replace(/\//g, "\\/"), encodeURIComponent(key)];

beforeAll(async () => {
  server = await startFaultServer();
  // Accepts connections and never says a word: the preflight must give the verdict.
  silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const lifecycle = async () => {
    // The server also echoes the key JSON-escaped in every answer: nothing the suite writes may hold it.
    const env = live(server.baseUrl("link-count-mismatch", "echo-key"), { CONTRACT_API_KEY: FAULT_SERVER_TRICKY_KEY, CONTRACT_BASELINE: baselinePath });
    baselineRuns.push(await runSuite(env));
    baselineRuns.push(await runSuite(env, ["--update-baseline"]));
    baselineRuns.push(await runSuite(env));
    const expiredPath = join(tempDir("contract-baseline-"), "expired.json");
    const expired = JSON.parse(readFileSync(baselinePath, "utf8")) as { entries: Array<{ expires: string }> };
    for (const e of expired.entries) e.expires = "2020-01-01";
    writeFileSync(expiredPath, JSON.stringify(expired));
    // In parallel: a new fault with the accepted one gone (a new finding, an entry fixed), and an expired entry.
    baselineRuns.push(...(await Promise.all([runSuite({ ...env, CONTRACT_BASE_URL: server.baseUrl("wrong-total-pages") }), runSuite({ ...env, CONTRACT_BASELINE: expiredPath })])));
  };
  const others = async () => {
    runs.mock = await runSuite({});
    runs.silent = await runSuite({ CONTRACT_BASE_URL: silentUrl, CONTRACT_API_KEY: FAULT_SERVER_KEY, CONTRACT_PREFLIGHT_TIMEOUT_MS: "1000" });
    runs.badSetting = await runSuite({ CONTRACT_SITEMAP_URL: "ftp://example.com" });
    runs.credentials = await runSuite({ CONTRACT_BASE_URL: "http://user:hunter2secret@127.0.0.1:9", CONTRACT_API_KEY: FAULT_SERVER_KEY });
    runs.badBaseline = await runSuite({ CONTRACT_BASELINE: fileURLToPath(import.meta.url) });
  };
  await Promise.all([lifecycle(), others()]);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  silent?.close();
  cleanUp();
});

describe("npm run contract against the embedded Prism mock", () => {
  it("exits 0, prints the report by operation and the closing count line, and writes four reports", () => {
    const run = runs.mock!;
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toContain("Contract report: mock target");
    for (const op of ["createSitemapRequest (POST /v1/site/map)", "updateDataSchema (PUT /v1/schemas/{id})", "listBrowserRequests (GET /v1/browser/requests)"]) expect(run.output).toContain(`== ${op} ==`);
    expect(run.output).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/m);
    expect(Object.keys(run.files()).sort()).toEqual(["contract-junit.xml", "contract-report.json", "contract-report.txt", "contract-summary.md"]);
    expect(run.report).toMatchObject({ verdict: "pass", target: { kind: "mock" } });
  });

  it("marks scenarios that need a live target as skipped with the reason, in the report and the JUnit file", () => {
    const run = runs.mock!;
    expect(run.report!.skipped.map((s) => s.reason)).toContain("skipped: needs a live target (the mock answers static examples whatever the state)");
    expect(run.files()["contract-junit.xml"]).toMatch(/<property name="skip-reason" value="skipped: needs a live target[^"]*"\/>\s*<\/properties>\s*<skipped\/>/);
    expect(run.files()["contract-summary.md"]).toMatch(/^## Contract suite: ✅ pass/);
  });
});

describe("exit codes and verdicts", () => {
  it("exits 1 for a finding, naming the check in the output, the JSON, the JUnit failure and the markdown summary", () => {
    const run = baselineRuns[0]!;
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toContain("✗ [error] sitemap_link_count:");
    expect(run.report!.summary.failedChecks).toEqual(["sitemap_link_count"]);
    expect(run.files()["contract-junit.xml"]).toMatch(/<failure message="\d+ contract finding\(s\): sitemap_link_count"/);
    expect(run.files()["contract-summary.md"]).toMatch(/## Contract suite: ❌ fail[\s\S]*`sitemap_link_count`/);
  });

  it("never writes the key, echoed JSON-escaped by the server, to the output or any report file (JUnit included)", () => {
    for (const [name, run] of Object.entries({ ...runs, ...Object.fromEntries(baselineRuns.map((r, i) => [`baseline${i}`, r])) })) {
      const all = [run.output, ...Object.values(run.files())].join("\n");
      for (const form of [...encodings(FAULT_SERVER_TRICKY_KEY), ...encodings(FAULT_SERVER_KEY)]) expect(all.includes(form), `${name} leaks ${form}`).toBe(false);
    }
    expect(baselineRuns[0]!.output, "the echo itself is reported, scrubbed").toContain('"served for ***"');
  });

  it("gives a target that accepts connections and never answers a verdict within the preflight deadline, saying why", () => {
    const run = runs.silent!;
    expect(run.code).toBe(1);
    expect(run.ms, "seconds, not the minutes of every request's full timeout").toBeLessThan(60_000);
    expect(run.output).toMatch(/preflight: the target answers HTTP/);
    expect(run.report!.findings[0]).toMatchObject({ check: "not_a_server_error", received: "no HTTP answer within 1000 ms" });
    expect(run.report!.skipped.every((s) => s.reason.includes("did not answer the preflight"))).toBe(true);
  });

  it("exits 2 for an invalid setting, naming the variable and the rule, before starting anything", () => {
    expect(runs.badSetting!.code).toBe(2);
    expect(runs.badSetting!.output).toContain('contract: invalid setting: CONTRACT_SITEMAP_URL must use http or https, got "ftp:"');
    expect(runs.badSetting!.output).not.toContain("RUN");
    expect(runs.credentials!.code).toBe(2);
    expect(runs.credentials!.output).toContain("CONTRACT_BASE_URL must not contain credentials");
    expect(runs.credentials!.output).not.toContain("hunter2secret");
    expect(runs.badBaseline!.code).toBe(2);
    expect(runs.badBaseline!.output).toMatch(/CONTRACT_BASELINE .* is not valid JSON/);
  });
});

describe("the baseline of accepted findings", () => {
  it("fails on a finding; --update-baseline writes it; then the run passes, showing it as accepted", () => {
    const [first, update, accepted] = baselineRuns;
    expect(first!.code).toBe(1);
    expect(update!.code).toBe(0);
    expect(update!.output).toMatch(/Baseline: wrote 1 entry to /);
    expect(accepted!.code, accepted!.output.slice(-2000)).toBe(0);
    expect(accepted!.report!.accepted[0]).toMatchObject({ check: "sitemap_link_count", operation: "createSitemapRequest" });
    expect(accepted!.output).toMatch(/~ accepted by the baseline until \d{4}-\d\d-\d\d: sitemap_link_count/);
  });

  it("fails again on a new finding the baseline does not list, and reports the entry no longer occurring as fixed", () => {
    const run = baselineRuns[3]!;
    expect(run.code).toBe(1);
    expect(run.report!.summary.failedChecks).toEqual(["listing_total_pages"]);
    expect(run.report!.baseline.fixed).toHaveLength(1);
    expect(run.output).toMatch(/✓ fixed: baseline entry createSitemapRequest sitemap_link_count/);
  });

  it("fails on an expired entry whose finding still occurs", () => {
    const run = baselineRuns[4]!;
    expect(run.code).toBe(1);
    expect(run.report!.baseline.expired).toHaveLength(1);
    expect(run.output).toMatch(/✗ baseline entry expired on 2020-01-01/);
  });
});
