/**
 * Reach in the verdict: which operations got an answered request, the documented statuses seen, why the rest
 * was not reached, in the closing lines and every report (text, JSON, JUnit, markdown); --min-reach failing a
 * run below it; shards merged into one reach; the default request budget scaling with the document. The
 * runs talk HTTP to a small node:http API on 127.0.0.1.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { runContract } from "../cli/contract-run.js";
import { needs, reason, skipText, type SkipReason } from "../model/skip.js";
import type { ScenarioResult } from "../model/types.js";
import { resolveOptions, SettingsError } from "../config/options.js";
import { finishRun } from "../cli/finish.js";
import { formatJUnit } from "../report/junit.js";
import { buildReport, formatMarkdown, formatText } from "../report/render.js";
import { readSettings, settingsFrom, type Settings } from "../config/settings.js";
import { mergeReport, type ShardRecord } from "../cli/shard.js";
import { cleanUp, runSuite, tempDir } from "./support/spawn.js";

const dir = tempDir("contract-reach-");
afterAll(() => cleanUp());

const json = (schema: unknown) => ({ "application/json": { schema } });
/** Three operations: two the suite can send, one whose body only XML may be (the suite writes no XML). */
const PATHS = {
  "/health": {
    get: {
      operationId: "health",
      responses: { "200": { description: "up", content: json({ type: "object" }) }, "503": { description: "down" } },
    },
  },
  "/notes": {
    post: {
      operationId: "createNote",
      requestBody: {
        required: true,
        content: json({
          type: "object",
          required: ["text"],
          properties: { text: { type: "string", minLength: 1, maxLength: 40 } },
          additionalProperties: false,
        }),
      },
      responses: {
        "201": { description: "created", content: json({ type: "object" }) },
        "400": { description: "invalid" },
        "409": { description: "a duplicate" },
      },
    },
  },
  "/uploads": {
    put: {
      operationId: "upload",
      requestBody: { required: true, content: { "application/xml": { schema: { type: "string" } } } },
      responses: { "204": { description: "stored" } },
    },
  },
};
const doc = (paths: Record<string, unknown>) => ({ openapi: "3.0.3", info: { title: "Reach", version: "1" }, paths });
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const FULL = write("full.json", doc(PATHS));
/**
 * Every phase that sends the upload's own method: the unsupported-method probe (GET /uploads) is answered 405, and
 * any status line reaches an operation, so with it the upload would count as reached.
 */
const OWN_METHODS = { CONTRACT_PHASES: "examples,positive,negative,auth" };
const REACHABLE = write("reachable.json", doc({ "/health": PATHS["/health"], "/notes": PATHS["/notes"] }));

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    const known = { "/health": "GET", "/notes": "POST", "/uploads": "PUT" }[path ?? ""];
    if (!known) return sendJson(res, 404, { error: "no such path" });
    if (req.method !== known) return sendJson(res, 405, { error: "method not allowed" }, { allow: known });
    if (path === "/health") return sendJson(res, 200, {});
    if (path === "/uploads") return void res.writeHead(204).end();
    if (!String(req.headers["content-type"]).startsWith("application/json"))
      return sendJson(res, 400, { error: "JSON only" });
    let body: unknown;
    try {
      body = JSON.parse(req.body);
    } catch {
      return sendJson(res, 400, { error: "not JSON" });
    }
    const text = (body as { text?: unknown } | null)?.text;
    const ok =
      typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).every((k) => k === "text") &&
      typeof text === "string" &&
      text.length >= 1 &&
      text.length <= 40;
    return ok ? sendJson(res, 201, { text }) : sendJson(res, 400, { error: "invalid note" });
  });
}, 30_000);
afterAll(() => server?.close());

const settingsFor = (spec: string, extra: Record<string, string> = {}): Settings =>
  readSettings({
    CONTRACT_SPEC: spec,
    CONTRACT_BASE_URL: server.url,
    CONTRACT_API_KEY: "reach-test-key-0000",
    CONTRACT_EXAMPLES: "2",
    CONTRACT_REPORTS_DIR: tempDir("contract-reach-reports-"),
    CONTRACT_BASELINE: join(dir, "no-baseline.json"),
    ...extra,
  });

/** A run in this process, finished as the command line finishes it: the report and its four files. */
async function run(settings: Settings) {
  const { run, results } = await runContract(settings);
  const { report, paths } = finishRun(settings, results, run.target.requestsSent(), run.target.scrubber);
  const files = Object.fromEntries(Object.entries(paths).map(([k, p]) => [k, readFileSync(p, "utf8")]));
  return { report, results, files };
}

describe("reach, from the run's exchanges", () => {
  it("a run that reaches every operation says so next to PASS, " +
    "with the documented statuses seen per operation", async () => {
    const { report, files } = await run(settingsFor(REACHABLE));
    expect(
      report.findings.filter((f) => f.severity === "error").map((f) => `${f.check}: ${f.title} ${f.curl}`),
    ).toEqual([]);
    expect(report.verdict).toBe("pass");
    expect(report.reach).toMatchObject({
      documentOperations: 2,
      selectedOperations: 2,
      reachedOperations: 2,
      share: 1,
      reasons: [],
      belowMinimum: false,
    });
    const note = report.reach.operations.find((o) => o.operationId === "createNote")!;
    // A valid note is created (201), an invalid one refused (400); the server never answers 409.
    expect(note).toMatchObject({ reached: true, documented: ["201", "400", "409"], documentedSeen: ["201", "400"] });
    expect(files.text).toContain("Summary: PASS (reached all 2 operations): ");
    expect(files.text).toContain("  reached: 201, 400 of 201, 400, 409");
    expect(JSON.parse(files.json!).reach.reachedOperations).toBe(2);
    expect(files.markdown).toContain("**PASS (reached all 2 operations)**");
    expect(files.junit).toContain('<property name="reach" value="reached all 2 operations"/>');
  }, 60_000);

  it("counts any status line as an answer: the unsupported-method probe's 405 reaches the upload's path", async () => {
    const { report } = await run(settingsFor(FULL));
    const upload = report.reach.operations.find((o) => o.operationId === "upload")!;
    expect(upload).toMatchObject({ reached: true, statuses: [405] });
    expect(report.reach.reachedOperations).toBe(3);
  }, 60_000);

  it("a run that cannot reach an operation passes saying how " +
    "many it reached and why not, in every report", async () => {
    const { report, files } = await run(settingsFor(FULL, OWN_METHODS));
    expect(report.verdict).toBe("pass");
    expect(report.reach).toMatchObject({ documentOperations: 3, selectedOperations: 3, reachedOperations: 2 });
    expect(report.reach.reasons).toEqual([{ reason: "have a body the suite cannot write", operations: 1 }]);
    const upload = report.reach.operations.find((o) => o.operationId === "upload")!;
    expect(upload.reached).toBe(false);
    expect(upload.notReached![0]!.detail).toMatch(
      /^the request body is application\/xml, which the suite does not write/,
    );
    const verdict = "PASS (reached 2 of 3 operations: 1 has a body the suite cannot write)";
    expect(files.text).toContain(`Summary: ${verdict}: `);
    expect(files.text).toMatch(
      /== upload \(PUT \/uploads\) ==[\s\S]*not reached: \d+ scenario\(s\): the request body is/,
    );
    expect(files.markdown).toContain(`**${verdict}**`);
    expect(files.markdown).toMatch(/\| upload \| no \| not reached: /);
    expect(files.junit).toContain('<property name="not-reached" value="upload: not reached: ');
    expect(JSON.parse(files.json!).reach.operations.map((o: { reached: boolean }) => o.reached)).toEqual([
      true,
      true,
      false,
    ]);
  }, 60_000);

  it("a run narrowed by --operations says its reach of the selected operations and of the whole document", async () => {
    const { report, files } = await run(settingsFor(FULL, { ...OWN_METHODS, CONTRACT_OPERATIONS: "health,upload" }));
    expect(report.reach).toMatchObject({
      documentOperations: 3,
      documentReached: 1,
      selectedOperations: 2,
      reachedOperations: 1,
      share: 0.5,
      narrowedBy: "--operations",
    });
    expect(files.text).toContain(
      "Summary: PASS (reached 1 of 2 selected operations (--operations; 1 of the " +
        "document's 3 operations): 1 has a body the suite cannot write): ",
    );
    expect(files.text).toMatch(/== createNote \(POST \/notes\) ==\n {2}no findings\n {2}not selected in this run/);
  }, 60_000);

  it("--min-reach fails a run below it (exit 1), with a line saying " +
    "reach was below the minimum; at or above it passes", async () => {
    const below = await run(settingsFor(FULL, { ...OWN_METHODS, CONTRACT_MIN_REACH: "80%" }));
    expect(below.report.verdict).toBe("fail");
    expect(below.report.reach).toMatchObject({ minimum: 0.8, belowMinimum: true });
    const line = "FAIL: reach 66.6% (2 of 3 selected operations) is below the minimum 80% (--min-reach)";
    expect(below.files.text).toContain(line);
    expect(below.files.markdown).toMatch(/^## Contract suite: ❌ fail\n\n\*\*FAIL: reach 66\.6% /);
    expect(below.files.junit).toContain(`<failure message="${line}" type="reach"/>`);
    const at = await run(settingsFor(FULL, { ...OWN_METHODS, CONTRACT_MIN_REACH: "0.66" }));
    expect(at.report.verdict).toBe("pass");
    expect(at.report.reach).toMatchObject({ minimum: 0.66, belowMinimum: false });
  }, 60_000);
});

describe("the command line", () => {
  it("prints the verdict with its reach before the closing count line, and exits 1 below --min-reach", async () => {
    const r = await runSuite(
      { CONTRACT_SPEC: FULL, CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: "reach-test-key-0000", ...OWN_METHODS },
      ["--examples", "1", "--min-reach", "0.9", "--baseline", join(dir, "no-baseline.json")],
    );
    expect(r.code, r.output.slice(-2000)).toBe(1);
    const tail = r.lines.map((l) => l.text).slice(-3);
    expect(tail[0]).toBe("Verdict: FAIL (reached 2 of 3 operations: 1 has a body the suite cannot write)");
    expect(tail[1]).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    expect(tail[2]).toBe(
      "contract: FAIL: reach 66.6% (2 of 3 selected operations) is below the minimum 90% (--min-reach)",
    );
    expect(r.report!.reach.belowMinimum).toBe(true);
  }, 60_000);

  it("refuses an invalid --min-reach with exit 2, naming the " +
    "option and the rule, before sending anything", async () => {
    const before = server.requests.length;
    const r = await runSuite(
      { CONTRACT_SPEC: FULL, CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: "k-0000", ...OWN_METHODS },
      ["--min-reach", "150%"],
    );
    expect(r.code).toBe(2);
    expect(r.output).toContain(
      "contract: invalid setting: --min-reach must be a share from 0 to 1 (e.g. " +
        '0.8) or a percentage from 0% to 100% (e.g. 80%), got "150%"',
    );
    expect(server.requests.length).toBe(before);
  }, 60_000);
});

describe("--min-reach as an option", () => {
  const parse = (o: { argv?: string[]; env?: Record<string, string> }) =>
    settingsFrom(resolveOptions({ ...o, configFile: false })).minReach;
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(SettingsError);
      return (err as Error).message;
    }
    return "accepted";
  };

  it("reads a share or a percentage, from a flag, the environment or the config file", () => {
    expect(parse({ argv: ["--min-reach", "0.75"] })).toBe(0.75);
    expect(parse({ argv: ["--min-reach=80%"] })).toBe(0.8);
    expect(parse({ env: { CONTRACT_MIN_REACH: "100%" } })).toBe(1);
    expect(parse({ env: { CONTRACT_MIN_REACH: "0" } })).toBe(0);
    expect(parse({})).toBeUndefined();
    const config = join(dir, "contract.config.json");
    writeFileSync(config, JSON.stringify({ minReach: 0.5 }));
    expect(settingsFrom(resolveOptions({ env: { CONTRACT_CONFIG: config } })).minReach).toBe(0.5);
    writeFileSync(config, JSON.stringify({ minReach: "95%" }));
    expect(settingsFrom(resolveOptions({ env: { CONTRACT_CONFIG: config } })).minReach).toBe(0.95);
    writeFileSync(config, JSON.stringify({ minReach: 2 }));
    expect(refusal(() => settingsFrom(resolveOptions({ env: { CONTRACT_CONFIG: config } })))).toMatch(
      /^.*contract\.config\.json: minReach must be a share from 0 to 1 .*, got 2$/,
    );
  });

  it("refuses anything else, naming where it came from and the rule", () => {
    const rule = "must be a share from 0 to 1 (e.g. 0.8) or a percentage from 0% to 100% (e.g. 80%)";
    expect(refusal(() => parse({ argv: ["--min-reach", "1.5"] }))).toBe(`--min-reach ${rule}, got "1.5"`);
    expect(refusal(() => parse({ env: { CONTRACT_MIN_REACH: "-10%" } }))).toBe(
      `CONTRACT_MIN_REACH ${rule}, got "-10%"`,
    );
    expect(refusal(() => parse({ env: { CONTRACT_MIN_REACH: "most" } }))).toBe(
      `CONTRACT_MIN_REACH ${rule}, got "most"`,
    );
    expect(refusal(() => parse({ argv: ["--min-reach", "101%"] }))).toBe(`--min-reach ${rule}, got "101%"`);
  });
});

describe("why an operation was not reached", () => {
  const ops = ["a", "b", "c", "d", "e"].map((id) => ({ operationId: id, method: "GET", path: `/${id}/{id}` }));
  const skipped = (operation: string, phase: string, skip: SkipReason, notRun?: string): ScenarioResult => ({
    id: `${operation}/${phase}`,
    operation,
    phase,
    title: phase,
    status: "skipped",
    skipReason: skipText(skip),
    skip,
    findings: [],
    accepted: [],
    exchanges: 0,
    ...(notRun ? { notRun } : {}),
  });
  const needsId = (op: string): SkipReason => ({ kind: "needs-value", operation: op, name: "id", safe: true });
  const budget = "skipped: the request budget of 5 is spent (CONTRACT_MAX_REQUESTS)";
  const results: ScenarioResult[] = [
    {
      ...skipped("a", "positive", needsId("a")),
      status: "passed",
      skipReason: undefined,
      skip: undefined,
      answered: { a: [200] },
    },
    // Its own reasons: most scenarios need an id; the auth probe did not apply (that never explains it).
    skipped("b", "auth", reason("not-applicable", "the operation requires no authentication")),
    skipped("b", "positive", needsId("b")),
    skipped("b", "examples", needsId("b")),
    skipped("c", "positive", needsId("c")),
    skipped("d", "positive", needs("live-target")),
    skipped("e", "positive", { kind: "cut", by: "budget", text: budget }, budget),
  ];

  it("groups the reasons: the operations that need an id, a live target, or were cut by the budget", () => {
    const report = buildReport(
      { kind: "live", baseUrl: "http://x", strict: false, spec: "d.json" },
      ops,
      results,
      {
        entries: [],
      },
      1,
    );
    expect(report.verdict).toBe("incomplete");
    expect(report.reach.reasons).toEqual([
      { reason: "need an id", operations: 2 },
      { reason: "were cut by the request budget", operations: 1 },
      { reason: "need a live target", operations: 1 },
    ]);
    expect(report.reach.operations.find((o) => o.operationId === "b")!.notReached).toEqual([
      {
        reason: "need an id",
        scenarios: 2,
        detail: 'needs CONTRACT_PARAMS {"b.id": ...} (or a link that supplies it)',
      },
      {
        reason: "the operation requires no authentication",
        scenarios: 1,
        detail: "the operation requires no authentication",
      },
    ]);
    expect(formatText(report)).toContain(
      "Summary: INCOMPLETE (reached 1 of 5 operations: 2 need an id; 1 " +
        "was cut by the request budget; 1 needs a live target): ",
    );
    expect(formatMarkdown(report)).toContain("1 was cut by the request budget");
    expect(formatJUnit(results, report.reach)).toContain(
      '<property name="reach" value="reached 1 of 5 operations: 2 need an id; ' +
        '1 was cut by the request budget; 1 needs a live target"/>',
    );
  });
});

describe("a verdict line a document cannot flood", () => {
  it("names the four commonest reasons, counts the rest, and quotes a long reason of no class cut short", () => {
    const ops = Array.from({ length: 7 }, (_, i) => ({ operationId: `op${i}`, method: "GET", path: `/${i}` }));
    const results = ops.map(
      (o, i): ScenarioResult => ({
        id: `${o.operationId}/positive`,
        operation: o.operationId,
        phase: "positive",
        title: "positive",
        status: "skipped",
        ...((skip: SkipReason) => ({ skip, skipReason: skipText(skip) }))(
          reason("step-failed", `an unusual reason number ${i} ${"x".repeat(i === 0 ? 300 : 1)}`),
        ),
        findings: [],
        accepted: [],
        exchanges: 0,
      }),
    );
    const report = buildReport(
      { kind: "mock", baseUrl: "http://x", strict: false, spec: "d.json" },
      ops,
      results,
      {
        entries: [],
      },
      0,
      new Date(),
      { document: ops.map((o) => o.operationId), minimum: 0.57 },
    );
    const text = formatText(report);
    const summary = text.split("\n").find((l) => l.startsWith("Summary: "))!;
    expect(summary).toMatch(
      /^Summary: FAIL \(reached 0 of 7 operations: 1 was skipped: an unusual reason number 0 x{80,}…; /,
    );
    expect(summary).not.toContain("x".repeat(200));
    expect(summary).toContain("; 3 for other reasons (see the report)): ");
    expect(text).toContain("FAIL: reach 0% (0 of 7 selected operations) is below the minimum 57% (--min-reach)");
  });
});

describe("sharded runs", () => {
  const document = [
    { operationId: "a", method: "GET", path: "/a", responses: ["200", "404"] },
    { operationId: "b", method: "GET", path: "/b", responses: ["200"] },
    { operationId: "c", method: "GET", path: "/c/{id}", responses: ["200"] },
  ];
  const result = (operation: string, answered?: Record<string, number[]>, skip?: SkipReason): ScenarioResult => ({
    id: `${operation}/positive`,
    operation,
    phase: "positive",
    title: `${operation} positive`,
    status: skip ? "skipped" : "passed",
    ...(skip ? { skipReason: skipText(skip), skip } : {}),
    findings: [],
    accepted: [],
    exchanges: answered ? 1 : 0,
    ...(answered ? { answered } : {}),
  });
  const record = (index: number, results: ScenarioResult[], selectedOperations: string[]): ShardRecord => ({
    version: 1,
    shard: { index, count: 2 },
    target: { kind: "mock", baseUrl: "http://x", strict: false, spec: "d.json" },
    documentOperations: document,
    runOrder: ["a", "b", "c"],
    baselinePath: null,
    selectedOperations,
    minReach: 0.6,
    requests: 3,
    results,
  });

  it(
    "merge the reach: the union of the operations reached and the " + "statuses seen, out of every shard's selection",
    () => {
      const records = [
        record(
          1,
          [
            result("a", { a: [200] }),
            result("c", undefined, { kind: "needs-value", operation: "c", name: "id", safe: false }),
          ],
          ["a", "c"],
        ),
        record(2, [result("b", { b: [200] }), result("a", { a: [404] })], ["b"]),
      ];
      const { report } = mergeReport(records);
      expect(report.reach).toMatchObject({
        documentOperations: 3,
        selectedOperations: 3,
        reachedOperations: 2,
        reasons: [{ reason: "need an id", operations: 1 }],
        minimum: 0.6,
        belowMinimum: false,
      });
      expect(report.reach.operations[0]).toMatchObject({
        operationId: "a",
        statuses: [200, 404],
        documentedSeen: ["200", "404"],
      });
      expect(report.verdict).toBe("pass");
      // Each shard alone is below 60% of the whole; merged, 2 of 3 is not. A stricter minimum at the merge fails it.
      expect(mergeReport(records, undefined, new Date(), 0.7).report).toMatchObject({
        verdict: "fail",
        reach: { belowMinimum: true },
      });
    },
  );
});

describe("npm run contract:merge", () => {
  const TSX = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");
  const MERGE = fileURLToPath(new URL("../cli/merge.ts", import.meta.url));
  const shardDir = (index: number, selected: string[], results: ScenarioResult[]) => {
    const folder = tempDir(`contract-reach-shard-${index}-`);
    const record: ShardRecord = {
      version: 1,
      shard: { index, count: 2 },
      target: { kind: "mock", baseUrl: "http://x", strict: false, spec: "d.json" },
      documentOperations: [
        { operationId: "a", method: "GET", path: "/a", responses: ["200"] },
        { operationId: "b", method: "GET", path: "/b/{id}", responses: ["200", "404"] },
        { operationId: "c", method: "POST", path: "/c", responses: ["201"] },
      ],
      runOrder: ["a", "b", "c"],
      baselinePath: null,
      selectedOperations: selected,
      requests: 2,
      results,
    };
    writeFileSync(join(folder, "contract-shard.json"), JSON.stringify(record));
    return folder;
  };
  const passed = (operation: string, answered: Record<string, number[]>): ScenarioResult => ({
    id: `${operation}/positive`,
    operation,
    phase: "positive",
    title: `${operation} positive`,
    status: "passed",
    findings: [],
    accepted: [],
    exchanges: 1,
    answered,
  });
  const dirs = () => [
    shardDir(
      1,
      ["a", "b"],
      [
        passed("a", { a: [200] }),
        {
          ...passed("b", {}),
          status: "skipped",
          skipReason: 'skipped: needs CONTRACT_PARAMS {"b.id": ...} (or a link that supplies it)',
          skip: { kind: "needs-value", operation: "b", name: "id", safe: true },
          answered: undefined,
        },
      ],
    ),
    shardDir(2, ["c"], [passed("c", { c: [201] })]),
  ];
  const merge = (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CONTRACT_")));
    const out = spawnSync(process.execPath, [TSX, MERGE, ...dirs()], {
      env: { ...clean, CONTRACT_REPORTS_DIR: tempDir("contract-reach-merged-"), ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    return { code: out.status, output: `${out.stdout}${out.stderr}` };
  };

  it("prints the merged reach with the verdict, and fails it below CONTRACT_MIN_REACH", () => {
    const ok = merge({});
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toContain("Verdict: PASS (reached 2 of 3 operations: 1 needs an id)");
    const below = merge({ CONTRACT_MIN_REACH: "90%" });
    expect(below.code, below.output).toBe(1);
    expect(below.output).toContain(
      "contract:merge: FAIL: reach 66.6% (2 of 3 selected operations) is below the minimum 90% (--min-reach)",
    );
    const invalid = merge({ CONTRACT_MIN_REACH: "2" });
    expect(invalid.code).toBe(2);
    expect(invalid.output).toContain("contract:merge: CONTRACT_MIN_REACH must be a share from 0 to 1");
  }, 60_000);
});

describe("the default request budget", () => {
  const many = (n: number) =>
    write(
      `ops-${n}.json`,
      doc(
        Object.fromEntries(
          Array.from({ length: n }, (_, i) => [
            `/r${i}`,
            { get: { operationId: `op${i}`, responses: { "200": { description: "ok" } } } },
          ]),
        ),
      ),
    );

  it("scales with the selected operations: 40 per operation on the mock, 60 live, never below 5000 and 400", () => {
    const big = many(300);
    expect(readSettings({ CONTRACT_SPEC: big }).maxRequests).toBe(12_000);
    expect(
      readSettings({ CONTRACT_SPEC: big, CONTRACT_BASE_URL: "http://127.0.0.1:9", CONTRACT_API_KEY: "k" }).maxRequests,
    ).toBe(18_000);
    // A shard or a selection takes its own share.
    expect(readSettings({ CONTRACT_SPEC: big, CONTRACT_SHARD: "1/2" }).maxRequests).toBe(6_000);
    expect(readSettings({ CONTRACT_SPEC: big, CONTRACT_OPERATIONS: "op1,op2" }).maxRequests).toBe(5_000);
    expect(readSettings({ CONTRACT_SPEC: many(3) }).maxRequests).toBe(5_000);
    expect(
      readSettings({ CONTRACT_SPEC: many(3), CONTRACT_BASE_URL: "http://127.0.0.1:9", CONTRACT_API_KEY: "k" })
        .maxRequests,
    ).toBe(400);
    expect(readSettings({ CONTRACT_SPEC: big, CONTRACT_MAX_REQUESTS: "77" }).maxRequests).toBe(77);
  });
});
