/**
 * The SARIF report and the HAR archive of a run: valid against their published JSON Schemas (SARIF 2.1.0 as the SARIF
 * SDK ships it, HAR 1.2 from `har-schema`), the SARIF accepted by the SARIF SDK's own validator (`Sarif.Multitool
 * validate`, from `@microsoft/sarif-multitool`), findings located at the promise's line in the document, and no
 * credential in the archive in any encoding.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../cli/contract-run.js";
import { readSettings } from "../config/settings.js";
import { FAULT_SERVER_KEY, startFaultServer, type FaultServer } from "../fault-server/server.js";
import type { Exchange, ScenarioResult } from "../model/types.js";
import { buildReport, type RunReport } from "../report/render.js";
import type { TimedExchange } from "../report/har.js";
import { sarifLevel } from "../report/sarif.js";
import { writeReports } from "../report/write.js";
import { DocumentLines } from "../report/document-lines.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const require = createRequire(import.meta.url);
/** The SARIF SDK's Multitool for this platform (the path of its binary), and the SARIF 2.1.0 schema it ships. */
const MULTITOOL: string = require("@microsoft/sarif-multitool");
const SARIF_SCHEMA = JSON.parse(readFileSync(join(dirname(MULTITOOL), "sarif-2.1.0.json"), "utf8"));

let server: FaultServer;
let dir: string;
let report: RunReport;
let exchanges: TimedExchange[];
const SPEC = "openapi/openapi.yaml";

/** A server that echoes the key back in every encoding a report could carry it in. */
const echoing = (key: string): TimedExchange => {
  const forms = [
    key,
    Buffer.from(key).toString("base64"),
    Buffer.from(`${key}:`).toString("base64"),
    encodeURIComponent(key),
    [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ];
  const exchange: Exchange = {
    operation: "createSitemapRequest",
    request: {
      method: "POST",
      url: `${server.url}/v1/site/map?echo=${encodeURIComponent(key)}`,
      path: "/v1/site/map",
      query: { echo: key },
      headers: { "x-api-key": "$CONTRACT_API_KEY", "content-type": "application/json" },
      bodyText: JSON.stringify({ url: key }),
    },
    response: {
      status: 500,
      headers: { "x-echo": key, "content-type": "application/json" },
      contentType: "application/json",
      bodyText: JSON.stringify({ error: forms.join(" ") }),
      bodyBytes: 100,
      elapsedMs: 3,
    },
  };
  return { exchange, started: Date.now() };
};

/** A token endpoint the run called as an operation: a throwaway account's password sent, a token answered. */
const JWT_TEXT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjczEyMyJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
const tokenCall = (): TimedExchange => ({
  started: Date.now(),
  exchange: {
    operation: "getToken",
    request: {
      method: "POST",
      url: `${server.url}/oauth/token?client_secret=s3cr3t-client&scope=read`,
      path: "/oauth/token",
      query: {},
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "session=abc123def" },
      bodyText: "grant_type=password&username=cs123&password=Cs-123-Pw9%21",
    },
    response: {
      status: 200,
      headers: { "content-type": "application/json", "set-cookie": "session=abc123def; HttpOnly" },
      contentType: "application/json",
      bodyText: JSON.stringify({ access_token: JWT_TEXT, refresh_token: "r-123456789", token_type: "bearer" }),
      bodyBytes: 100,
      elapsedMs: 2,
    },
  },
});

beforeAll(async () => {
  server = await startFaultServer();
  dir = tempDir("contract-sarif-");
  const settings = readSettings({
    CONTRACT_API_KEY: FAULT_SERVER_KEY,
    CONTRACT_BASE_URL: server.baseUrl("missing-required-field"),
    CONTRACT_PHASES: "examples",
    CONTRACT_SPEC: SPEC,
    CONTRACT_REPORTS_DIR: dir,
  });
  const { run, results } = await runContract(settings);
  exchanges = [...run.exchanges, echoing(FAULT_SERVER_KEY), tokenCall()];
  const ops = run.model.operations.map(({ operationId, method, path }) => ({ operationId, method, path }));
  report = buildReport(
    { kind: "live", baseUrl: settings.baseUrl, strict: false, spec: SPEC },
    ops,
    results as ScenarioResult[],
    { entries: [] },
    run.target.requestsSent(),
  );
  writeReports(dir, report, results, run.target.scrubber, exchanges);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  cleanUp();
});

const file = (name: string) => readFileSync(join(dir, name), "utf8");

describe("the SARIF report", () => {
  it("is valid against the SARIF 2.1.0 schema, one result per finding, one rule per check", () => {
    const sarif = JSON.parse(file("contract-report.sarif"));
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(SARIF_SCHEMA);
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const [run] = sarif.runs;
    expect(report.findings.length).toBeGreaterThan(0);
    expect(run.results).toHaveLength(report.findings.length);
    const checks = [...new Set(report.findings.map((f) => f.check))].sort();
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual(checks);
    for (const rule of run.tool.driver.rules) expect(rule.help.text.length).toBeGreaterThan(20);
    expect(run.results.map((r: { level: string }) => r.level)).toEqual(
      report.findings.map((f) => (f.severity === "error" ? "error" : "warning")),
    );
  });

  it("locates each finding at its promise: the document's file, on the line its pointer is written", () => {
    const sarif = JSON.parse(file("contract-report.sarif"));
    const lines = new DocumentLines(readFileSync(SPEC, "utf8"));
    const schemaFinding = report.findings.find((f) => f.check === "response_schema_conformance")!;
    expect(schemaFinding.promise).toMatch(/^#\/paths\//);
    const result = sarif.runs[0].results[report.findings.indexOf(schemaFinding)];
    const location = result.locations[0].physicalLocation;
    expect(location.artifactLocation.uri).toBe(SPEC);
    const place = lines.placeOf(schemaFinding.promise!)!;
    expect(location.region.startLine).toBe(place.line);
    expect(place.line).toBeGreaterThan(1);
    // The line holds the last member the pointer names.
    const last = schemaFinding.promise!.split("/").pop()!.replace(/~1/g, "/");
    expect(readFileSync(SPEC, "utf8").split("\n")[place.line - 1]).toContain(last);
  });

  it("maps severities: error to error, warning to warning, anything else to note", () => {
    expect(["error", "warning", "note", "info"].map(sarifLevel)).toEqual(["error", "warning", "note", "note"]);
  });

  it("loads in the SARIF SDK's own validator (Sarif.Multitool validate) with no error", () => {
    const out = join(dir, "validation.sarif");
    const ran = spawnSync(MULTITOOL, ["validate", join(dir, "contract-report.sarif"), "--output", out], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    const validation = JSON.parse(readFileSync(out, "utf8"));
    const problems = validation.runs[0].results.filter((r: { level?: string }) => (r.level ?? "warning") === "error");
    expect(problems, JSON.stringify(problems.slice(0, 3))).toEqual([]);
    // It reads the file: a broken log is an error there (the validator is no rubber stamp).
    const broken = join(dir, "broken.sarif");
    require("node:fs").writeFileSync(broken, JSON.stringify({ version: "2.1.0", runs: [{ tool: { driver: {} } }] }));
    spawnSync(MULTITOOL, ["validate", broken, "--output", `${broken}.out`], { encoding: "utf8", timeout: 60_000 });
    const brokenRun = JSON.parse(readFileSync(`${broken}.out`, "utf8")).runs[0];
    expect(brokenRun.results.some((r: { level?: string }) => r.level === "error")).toBe(true);
  }, 60_000);
});

describe("the HAR archive", () => {
  it("is valid against the HAR 1.2 schema and holds every exchange of the run", () => {
    const har = JSON.parse(file("contract-exchanges.har"));
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
    const schemas: Record<string, object> = require("har-schema");
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
    const validate = ajv.getSchema("har.json#")!;
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(har.log.version).toBe("1.2");
    expect(har.log.entries).toHaveLength(exchanges.length);
    expect(exchanges.length).toBeGreaterThan(3);
    const first = har.log.entries[0];
    expect(first.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(first.response.status).toBeGreaterThan(0);
  });

  it("holds no credential in any encoding: sent as the variable, a server's echo scrubbed", () => {
    const text = file("contract-exchanges.har");
    const key = FAULT_SERVER_KEY;
    for (const form of [
      key,
      Buffer.from(key).toString("base64"),
      Buffer.from(`${key}:`).toString("base64"),
      encodeURIComponent(key),
      JSON.stringify(key).slice(1, -1),
    ])
      expect(text.includes(form), form).toBe(false);
    expect(text).toContain("$CONTRACT_API_KEY");
    const echoed = JSON.parse(text).log.entries.find(
      (e: { response: { status: number } }) => e.response.status === 500,
    );
    expect(echoed.response.content.text).toContain("***");
  });

  it("holds no credential the run did not configure: tokens, passwords, cookies of a body, a form or a header", () => {
    const text = file("contract-exchanges.har");
    for (const secret of [JWT_TEXT, "r-123456789", "Cs-123-Pw9", "abc123def", "s3cr3t-client"])
      expect(text.includes(secret), secret).toBe(false);
    const entry = JSON.parse(text).log.entries.find((e: { comment: string }) => e.comment === "getToken");
    expect(JSON.parse(entry.response.content.text)).toEqual({
      access_token: "***",
      refresh_token: "***",
      token_type: "bearer",
    });
    expect(entry.request.postData.text).toBe("grant_type=password&username=cs123&password=***");
    expect(entry.request.queryString).toEqual([
      { name: "client_secret", value: "***" },
      { name: "scope", value: "read" },
    ]);
  });
});
