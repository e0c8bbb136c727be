/**
 * Large and public documents: `$ref` fragments percent-decoded (RFC 6901 section 6), JSON read with
 * JSON.parse, link order linear in the operations, the mock's refusal of a document as an invalid input, a
 * run cut short by its budget reported as incomplete everywhere, and sharded runs whose merge equals the
 * single run (against one Prism mock of the project's document, in this process).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { startPrism, type PrismServer } from "../../openapi/lib/prism.js";
import { parseDocumentText as parseDocument } from "../../openapi/lib/self-contained.js";
import { loadSpec, SPEC_PATH, SpecValidator } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { refPointer } from "../../openapi/lib/document-error.js";
import { invalidValues } from "../engine/generate.js";
import { linkOrder } from "../model/links.js";
import { ContractRun, runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { startMock } from "../transport/mock-target.js";
import { specModel } from "../model/model.js";
import { formatJUnit } from "../report/junit.js";
import { buildReport, formatMarkdown, formatText } from "../report/render.js";
import { readSettings, SettingsError, type Settings } from "../config/settings.js";
import { mergeReport, type ShardRecord } from "../cli/shard.js";
import { linkGroups } from "../model/link-groups.js";
import { shardOperations } from "../model/link-groups.js";
import { parseShard } from "../config/settings.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const dir = tempDir("contract-scale-");
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};
const document = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths,
  ...extra,
});

afterAll(() => cleanUp());

describe("$ref in URI-fragment form (RFC 6901 section 6)", () => {
  it("is percent-decoded before it is resolved: a document referring to a path item's response that way loads", () => {
    const ok = { description: "ok", content: { "application/json": { schema: { type: "string" } } } };
    const path = write(
      "fragment.json",
      document({
        "/{authenticator}/x": { get: { operationId: "a", responses: { "200": ok } } },
        "/y": {
          get: {
            operationId: "b",
            responses: { "200": { $ref: "#/paths/~1%7Bauthenticator%7D~1x/get/responses/200" } },
          },
        },
      }),
    );
    const doc = loadSpec(path);
    expect(resolvePointer(doc, "#/paths/~1%7Bauthenticator%7D~1x/get/responses/200")).toEqual(ok);
    const media = specModel(path).operation("b").responses[0]!.content[0]!;
    expect(media.schemaPointer).toBe("/paths/~1{authenticator}~1x/get/responses/200/content/application~1json/schema");
    expect(specModel(path).validator.validate(media.schemaPointer!, 5)).not.toEqual([]);
    expect(specModel(path).validator.validate(media.schemaPointer!, "five")).toEqual([]);
  });

  it("keeps a fragment that is not valid percent-encoding as written, and still refuses a reference to nowhere", () => {
    expect(refPointer("#/a%zz")).toBe("/a%zz");
    expect(refPointer("#/a~1b")).toBe("/a~1b");
    const path = write(
      "dangling.json",
      document({
        "/y": { get: { operationId: "b", responses: { "200": { $ref: "#/paths/~1%7Bnone%7D/get/responses/200" } } } },
      }),
    );
    expect(() => loadSpec(path)).toThrow(/does not resolve/);
  });
});

describe("a schema that is not valid JSON Schema (a public document's `allOf` that is an object)", () => {
  it(
    "is a DocumentError naming its place, and the scenario that " +
      "meets it is skipped saying so, not an internal error",
    async () => {
      const schema = { allOf: { "3": { properties: { a: {} } } } };
      const path = write(
        "bad-schema.json",
        document({
          "/m": {
            get: {
              operationId: "m",
              responses: { "200": { description: "ok", content: { "application/json": { schema } } } },
            },
          },
        }),
      );
      const pointer = "/paths/~1m/get/responses/200/content/application~1json/schema";
      // SpecValidator says where and why; the suite's model (issue 18's TolerantValidator) records it and goes on.
      expect(() => new SpecValidator(specModel(path).doc).validate(pointer, {})).toThrow(
        /^the schema at \/paths\/~1m\/get\/responses\/200\/content\/application~1json\/schema \(or one it refers to\) is not valid JSON Schema: allOf value must be \["array"\]$/,
      );
      expect(specModel(path).validator.problem(pointer)).toMatch(/allOf value must be/);
      const run = new ContractRun(
        readSettings({ CONTRACT_SPEC: path, CONTRACT_BASE_URL: "http://127.0.0.1:9", CONTRACT_API_KEY: "k" }),
      );
      const result = await run.execute({
        id: "m/examples",
        operation: "m",
        phase: "examples",
        title: "examples",
        run: async (ctx) => void new SpecValidator(ctx.model.doc).validate(pointer, {}),
      });
      expect(result).toMatchObject({
        status: "skipped",
        skipReason: expect.stringMatching(
          /^skipped: the document cannot be used here: the schema at \/paths\/~1m\/get.* allOf value must be/,
        ),
      });
      expect(result.error).toBeUndefined();
    },
  );
});

describe("patterns public documents write that are ECMAScript only without the u flag", () => {
  it(
    "are compiled without it (ajv and the negative phase), so their " +
      "schemas are still checked, not an internal error",
    () => {
      const path = write(
        "patterns.json",
        document({
          "/p": {
            get: {
              operationId: "p",
              parameters: [
                { name: "q", in: "query", schema: { type: "string", pattern: "^[a-z\\-\\_]{2,5}$" } },
                { name: "g", in: "query", schema: { type: "string", pattern: "^(?:{[0-9a-f]{2}}|[0-9a-f]{2})$" } },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        }),
      );
      const model = specModel(path);
      const [q, g] = model.operation("p").parameters;
      expect(model.validator.validate(q!.schemaPointer, "a_b")).toEqual([]);
      expect(model.validator.validate(q!.schemaPointer, "A")).not.toEqual([]);
      expect(model.validator.validate(g!.schemaPointer, "{0f}")).toEqual([]);
      expect(model.validator.validate(g!.schemaPointer, "{0g}")).not.toEqual([]);
      expect(invalidValues(model, q!.schema).find((m) => m.what.startsWith("a string not matching"))).toMatchObject({
        value: "not matching!",
        demand: "warning",
      });
      expect(() => invalidValues(model, { type: "string", pattern: "(" })).not.toThrow();
    },
  );
});

describe("parseDocument", () => {
  it(
    "reads JSON with JSON.parse (a duplicate key, which the YAML parser refuses, keeps " +
      "the last value) and YAML, flow style included, with the YAML parser",
    () => {
      expect(parseDocument(' {"a": 1, "a": 2}')).toEqual({ a: 2 });
      expect(() => parseDocument("a: 1\na: 2\n")).toThrow(/unique/);
      expect(parseDocument("{a: 1, b: [x]}")).toEqual({ a: 1, b: ["x"] });
      expect(parseDocument("openapi: 3.1.0\n")).toEqual({ openapi: "3.1.0" });
    },
  );
});

const op = (id: string, links: string[] = []) =>
  ({
    operationId: id,
    responses: [
      {
        status: "200",
        description: "",
        content: [],
        headers: [],
        links: links.map((to) => ({ name: `to-${to}`, operationId: to, parameters: {} })),
      },
    ],
  }) as unknown as OperationEntry;

/**
 * The rule linkOrder keeps, written the slow, obvious way: the first ready operation in document order, else the
 * first unplaced one.
 */
function naiveOrder(ops: OperationEntry[]): string[] {
  const sources = new Map(ops.map((o) => [o.operationId, new Set<string>()]));
  for (const o of ops)
    for (const r of o.responses)
      for (const l of r.links) if (l.operationId !== o.operationId) sources.get(l.operationId)?.add(o.operationId);
  const placed = new Set<string>();
  const out: string[] = [];
  while (out.length < ops.length) {
    const next =
      ops.find((o) => !placed.has(o.operationId) && [...sources.get(o.operationId)!].every((s) => placed.has(s))) ??
      ops.find((o) => !placed.has(o.operationId))!;
    placed.add(next.operationId);
    out.push(next.operationId);
  }
  return out;
}

const graphs = fc
  .integer({ min: 1, max: 12 })
  .chain((n) => fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 20 })));
const build = ([n, edges]: [number, Array<[number, number]>]) =>
  Array.from({ length: n }, (_, i) =>
    op(
      `o${i}`,
      edges.filter(([a]) => a === i).map(([, b]) => `o${b}`),
    ),
  );

describe("linkOrder at scale", () => {
  it("orders like the obvious rule on any graph of links (cycles and self-links included)", () => {
    fc.assert(
      fc.property(graphs, (g) => {
        expect(linkOrder(build(g)).map((o) => o.operationId)).toEqual(naiveOrder(build(g)));
      }),
      { numRuns: 300 },
    );
  });

  it("orders 20,000 operations linked in a chain against document order in well under a second's worth of work", () => {
    // Each operation is fed by the next one: the whole document comes out reversed. The quadratic scan took minutes.
    const ops = Array.from({ length: 20_000 }, (_, i) => op(`o${i}`, i > 0 ? [`o${i - 1}`] : []));
    const started = performance.now();
    const order = linkOrder(ops);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(order[0]!.operationId).toBe("o19999");
    expect(order.at(-1)!.operationId).toBe("o0");
  });
});

describe("shards", () => {
  it("reads i/n and refuses anything else, naming the setting", () => {
    expect(parseShard(" 2/4 ")).toEqual({ index: 2, count: 4 });
    for (const bad of ["0/2", "3/2", "1/0", "2", "a/b", "1/2/3"])
      expect(() => parseShard(bad), bad).toThrow(SettingsError);
    expect(() => readSettings({ CONTRACT_SHARD: "5/4" })).toThrow(/CONTRACT_SHARD must be i\/n/);
    expect(readSettings({ CONTRACT_SHARD: "2/3" })).toMatchObject({
      shard: { index: 2, count: 3 },
      reportsDir: expect.stringMatching(/reports\/shard-2-of-3$/),
    });
  });

  it("deal every operation to exactly one shard, the same way every time, links kept with their sources", () => {
    fc.assert(
      fc.property(graphs, fc.integer({ min: 1, max: 5 }), (g, count) => {
        const ops = build(g);
        const shares = Array.from({ length: count }, (_, i) =>
          shardOperations(ops, { index: i + 1, count }).map((o) => o.operationId),
        );
        expect(shares.flat().sort()).toEqual(ops.map((o) => o.operationId).sort());
        expect(shardOperations(ops, { index: 1, count }).map((o) => o.operationId)).toEqual(shares[0]);
        const shardOf = new Map(shares.flatMap((ids, i) => ids.map((id) => [id, i])));
        for (const o of ops)
          for (const l of o.responses[0]!.links) expect(shardOf.get(l.operationId)).toBe(shardOf.get(o.operationId));
        // Groups are dealt largest first to the least-loaded shard: no shard holds more than another plus the largest
        // group.
        const largest = Math.max(...linkGroups(ops).map((x) => x.length));
        const sizes = shares.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(largest);
      }),
      { numRuns: 200 },
    );
  });
});

describe("against the Prism mock of the project's document", () => {
  let prism: PrismServer;
  let settings: Settings;
  beforeAll(async () => {
    prism = await startPrism({ spec: SPEC_PATH });
    settings = { ...readSettings({ CONTRACT_EXAMPLES: "2" }), baseUrl: prism.url };
  }, 120_000);
  afterAll(async () => {
    await prism?.stop();
  });

  const record = (
    shard: { index: number; count: number },
    results: ScenarioResult[],
    requests: number,
  ): ShardRecord => {
    const all = specModel(settings.specPath).operations;
    return {
      version: 1,
      shard,
      target: { kind: "mock", baseUrl: settings.baseUrl, strict: false, spec: settings.specPath },
      documentOperations: all.map(({ operationId, method, path }) => ({ operationId, method, path })),
      runOrder: linkOrder(all).map((o) => o.operationId),
      baselinePath: null,
      requests,
      results,
    };
  };

  it("merged shards give the single run's verdict, findings, skips and counts", async () => {
    const single = await runContract(settings);
    const report = buildReport(
      record({ index: 1, count: 1 }, [], 0).target,
      record({ index: 1, count: 1 }, [], 0).documentOperations,
      single.results,
      { entries: [] },
      single.run.target.requestsSent(),
    );
    for (const count of [2, 3]) {
      const records: ShardRecord[] = [];
      for (let index = count; index >= 1; index--) {
        const { run, results } = await runContract({ ...settings, shard: { index, count } });
        records.push(record({ index, count }, results, run.target.requestsSent()));
      }
      expect(records.map((r) => r.results.length).every((n) => n > 0 || count > 2)).toBe(true);
      const merged = mergeReport(records);
      expect(merged.report.verdict).toBe(report.verdict);
      expect(merged.report.findings).toEqual(report.findings);
      expect(merged.report.skipped).toEqual(report.skipped);
      expect(merged.report.summary).toEqual(report.summary);
      // Reach too: every operation a shard reached, with the statuses it saw.
      expect(merged.report.reach).toEqual(report.reach);
      expect(merged.report.reach.reachedOperations).toBe(3);
      expect(merged.results.map((r) => r.id)).toEqual(single.results.map((r) => r.id));
      expect(formatJUnit(merged.results)).toBe(formatJUnit(single.results));
    }
    expect(() => mergeReport([record({ index: 1, count: 2 }, [], 0)])).toThrow(/shard\(s\) 2 of 2 missing/);
  }, 120_000);

  it("a run the request budget cuts short is incomplete, not a pass: the verdict, " +
    "summary line, markdown and JUnit say how much was not run and why", async () => {
    // One request at a time, so the budget cuts the plan in its order (operations run side by side otherwise).
    const { run, results } = await runContract({ ...settings, maxRequests: 12, workers: 1 });
    const report = buildReport(
      { kind: "mock", baseUrl: settings.baseUrl, strict: false, spec: settings.specPath },
      [],
      results,
      { entries: [] },
      run.target.requestsSent(),
    );
    expect(report.verdict).toBe("incomplete");
    const cut = results.filter((r) => r.notRun);
    expect(report.summary.notRun).toEqual({
      scenarios: cut.length,
      operations: new Set(cut.map((r) => r.operation)).size,
      reasons: ["skipped: the request budget of 12 is spent (CONTRACT_MAX_REQUESTS)"],
    });
    expect(cut.length).toBeGreaterThan(3);
    // Scenarios skipped by their own rule (needs a live target) are not counted as cut.
    expect(results.filter((r) => r.skipReason?.includes("needs a live target")).every((r) => !r.notRun)).toBe(true);
    const sentence =
      `INCOMPLETE: ${cut.length} scenario(s) of ${report.summary.notRun.operations} operation(s) were not ` +
      `run or not run to the end: the request budget of 12 is spent (CONTRACT_MAX_REQUESTS)`;
    // The verdict carries the reach (here of no listed operation).
    expect(formatText(report)).toContain(`Summary: INCOMPLETE (no operation selected):`);
    expect(formatText(report)).toContain(sentence);
    expect(formatMarkdown(report)).toMatch(/^## Contract suite: ⚠️ incomplete\n\n\*\*INCOMPLETE: /);
    expect(formatJUnit(results)).toContain(`<failure message="${sentence}" type="incomplete"/>`);
    // Against the document's operations, the reach names what the budget cut.
    const listed = specModel(settings.specPath).operations.map(({ operationId, method, path }) => ({
      operationId,
      method,
      path,
    }));
    const reach = buildReport(report.target, listed, results, { entries: [] }, 12).reach;
    expect(reach.reachedOperations).toBeLessThan(3);
    expect(reach.reasons).toEqual([
      { reason: "were cut by the request budget", operations: 3 - reach.reachedOperations },
    ]);
    const whole = await runContract(settings);
    expect(whole.results.some((r) => r.notRun)).toBe(false);
  }, 120_000);
});

describe("the mock's start", () => {
  it("a document Prism refuses is an invalid setting naming the " +
    "document and Prism's reason with its place", async () => {
    // Valid for the suite (it does not enter x- extensions), refused by Prism, as some public documents are.
    const path = write(
      "prism-refuses.json",
      document({
        "/a": {
          get: {
            operationId: "a",
            "x-thing": { $ref: "#/components/nothing" },
            responses: { "200": { description: "ok" } },
          },
        },
      }),
    );
    expect(readSettings({ CONTRACT_SPEC: path }).specPath).toBe(path);
    const err = await startMock({ specPath: path, prismStartTimeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as Error).message).toBe(
      `CONTRACT_SPEC: the Prism mock refuses ${path}: at "#/paths/~1a/get/x-thing", ` +
        `token "components" in "#/components/nothing" does not exist`,
    );
  }, 60_000);

  it("a start past its deadline is an invalid setting that says which one raises it", async () => {
    const err = await startMock({ specPath: SPEC_PATH, prismStartTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as Error).message).toMatch(
      /^CONTRACT_PRISM_START_TIMEOUT_MS: the Prism mock did not listen within 50 ms on .*openapi\.yaml \(0\.\d MB\); set --prism-start-timeout-ms \(CONTRACT_PRISM_START_TIMEOUT_MS\) higher/,
    );
    expect(() => readSettings({ CONTRACT_PRISM_START_TIMEOUT_MS: "5" })).toThrow(
      /CONTRACT_PRISM_START_TIMEOUT_MS must be an integer of at least 1000/,
    );
  });
});
