/**
 * The document and the server are untrusted input (issue 17): each finding of the issue on a real hostile
 * document, server, baseline or setting. Requests: the key never leaves the target's origin and base path
 * (a path without its leading `/`, dot segments from the document or a link, a parameter named
 * `__proto__`). Documents: every `$ref` is local before the suite, Prism or the docs build reads one; a
 * `$ref` fan-out, a huge maxLength or minLength and catastrophic patterns cannot hang the run. Output: names
 * and values cannot steer a terminal or a CI page in any report format (and the spec:diff report). Settings
 * and files: an error never quotes a file; CONTRACT_REPORTS_DIR is checked first; a baseline of 150,000
 * entries renders.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { startPrism } from "../../openapi/lib/prism.js";
import { SpecValidator, loadSpec } from "../../openapi/lib/spec.js";
import { pointerSegment } from "../../openapi/lib/document-error.js";
import { setUncheckedPatternHandler } from "../../openapi/lib/regex.js";
import { buildSite } from "../../scripts/docs.js";
import { classifyChanges } from "../../scripts/spec-diff/classify.js";
import { renderReport } from "../../scripts/spec-diff/report.js";
import { judgeVersion } from "../../scripts/spec-diff/run.js";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { validSamples } from "../engine/generate.js";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { SpecModel } from "../model/model.js";
import { BaselineError, loadBaseline, type BaselineEntry } from "../report/baseline.js";
import { formatJUnit } from "../report/junit.js";
import { buildReport, formatMarkdown, formatText } from "../report/render.js";
import { resolveOptions } from "../config/options.js";
import { replayReport } from "../cli/replay.js";
import { readSettings, SettingsError } from "../config/settings.js";
import { cleanUp, runSuite, tempDir } from "./support/spawn.js";

const KEY = "hostile-test-key-7f3a9c";
const ESC = "\u001b";
/** A response member name and an operationId that try to steer a terminal and a CI page. */
const HOSTILE_NAME =
  `${ESC}]0;pwned${"\u0007"}${ESC}[2J${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\\r\u202Eevil</details><img ` +
  `src=x onerror=alert(1)><script>alert(2)</script>[x](javascript:alert(3))`;
/** 150,000 undocumented members nested one level down (2 MB): no spread of them may reach a function's arguments. */
const WIDE = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`m${i}`, 1]));
const HOSTILE_OP = `report${ESC}[31mRed<script>alert(4)</script>`;

const apiKeyDoc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: "3.1.0",
  info: { title: "Hostile", version: "1.0.0" },
  security: [{ key: [] }],
  components: {
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } },
    ...((extra.components as object) ?? {}),
  },
  paths,
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "components")),
});
const ok = {
  "200": { description: "OK", content: { "application/json": { schema: {} } } },
  "404": { description: "Not found" },
};

let server: TestServer;
const write = (name: string, doc: unknown) => {
  const path = join(tempDir("contract-hostile-"), name);
  writeFileSync(path, typeof doc === "string" ? doc : stringify(doc));
  return path;
};
const run = (spec: string, base: string, env: Record<string, string> = {}) =>
  runContract(
    readSettings({
      CONTRACT_SPEC: spec,
      CONTRACT_BASE_URL: base,
      CONTRACT_API_KEY: KEY,
      CONTRACT_EXAMPLES: "1",
      CONTRACT_REPORTS_DIR: tempDir("contract-hostile-reports-"),
      ...env,
    }),
  );
const skipReasons = (results: ScenarioResult[]) => results.map((r) => r.skipReason ?? "").join("\n");

beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.endsWith("/things")) return sendJson(res, 200, { id: "..", path: "../../admin" });
    if (path.endsWith("/answer")) return sendJson(res, 200, { code: `${"a".repeat(34)}!` });
    if (path.endsWith("/wide")) return sendJson(res, 200, { inner: WIDE });
    if (path.endsWith("/hostile")) return sendJson(res, 200, { [HOSTILE_NAME]: HOSTILE_NAME, ok: true });
    sendJson(res, 404, {});
  });
});

afterAll(async () => {
  await server?.close();
  cleanUp();
});

describe("requests stay on the target's origin and under its base path", () => {
  it(
    "joins a document path without its leading / to the base URL " + "(never to the port): 2/steal goes to /2/steal",
    async () => {
      const spec = write("no-slash.yaml", apiKeyDoc({ "2/steal": { get: { operationId: "steal", responses: ok } } }));
      server.requests.length = 0;
      await run(spec, server.url);
      const urls = server.requests.map((r) => r.url);
      expect(urls.some((u) => u.startsWith("/2/steal"))).toBe(true);
      expect(server.requests.filter((r) => r.headers["x-key"] === KEY).every((r) => r.url.startsWith("/2/steal"))).toBe(
        true,
      );
    },
  );

  it(
    "refuses dot segments from the document and from a link (a response's " +
      "'..'), and reports them; a __proto__ parameter keeps its value",
    async () => {
      const spec = write(
        "dots.yaml",
        apiKeyDoc({
          "/../../tenant-b/steal": { get: { operationId: "dotdot", responses: ok } },
          "/%2e%2e/%2E%2e/tenant-c/steal": { get: { operationId: "encodedDots", responses: ok } },
          "/things": {
            get: {
              operationId: "listThings",
              responses: {
                "200": {
                  description: "OK",
                  content: { "application/json": { schema: { type: "object" } } },
                  links: {
                    thing: { operationId: "getThing", parameters: { id: "$response.body#/id" } },
                    encoded: { operationId: "getThing", parameters: { id: "$response.body#/path" } },
                  },
                },
              },
            },
          },
          "/{id}/steal": {
            get: {
              operationId: "getThing",
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
              responses: ok,
            },
          },
          "/items/{__proto__}": {
            get: {
              operationId: "getItem",
              parameters: [{ name: "__proto__", in: "path", required: true, schema: { type: "string" } }],
              responses: ok,
            },
          },
        }),
      );
      server.requests.length = 0;
      const { results } = await run(spec, `${server.url}/api/tenant-a`, {
        CONTRACT_PARAMS: '{"__proto__": "thing_given_1"}',
      });
      const urls = server.requests.map((r) => r.url);
      expect(urls.filter((u) => !u.startsWith("/api/tenant-a/"))).toEqual([]);
      // No keyed request reached the base path's root through a resolved '..' (only the keyless preflight asks there).
      const keyed = server.requests.filter((r) => r.headers["x-key"] === KEY).map((r) => r.url);
      expect(keyed.filter((u) => u.split("?")[0] === "/api/tenant-a/")).toEqual([]);
      expect(urls.some((u) => u.startsWith("/api/tenant-a/things"))).toBe(true);
      const reasons = skipReasons(results);
      expect(reasons).toMatch(/refused to send GET \/\.\.\/\.\.\/tenant-b\/steal of dotdot: .*dot segment/);
      expect(reasons).toMatch(/refused to send GET \/%2e%2e\/%2E%2e\/tenant-c\/steal of encodedDots/);
      expect(reasons).toMatch(/the link thing gave the path parameter id the value "\.\." from a listThings response/);
      // A value that is a dot segment only once percent-decoded (a server or proxy may decode %2F before routing).
      expect(reasons).toMatch(/the link encoded gave the path parameter id the value "\.\.\/\.\.\/admin"/);
      expect(urls.filter((u) => /%2e|\.\.%2f/i.test(u))).toEqual([]);
      // The parameter named __proto__ kept its configured value: every getItem request went to that item.
      const items = urls.filter((u) => u.startsWith("/api/tenant-a/items/"));
      expect(items.length).toBeGreaterThan(0);
      // Only the unknown-ids and hostile probes (generated ids that do not exist, hostile strings) name another item.
      const probes = ["getItem/unknown-ids", "getItem/hostile"]
        .map((id) => results.find((r) => r.id === id)?.exchanges ?? 0)
        .reduce((a, b) => a + b, 0);
      expect(items.filter((u) => !u.startsWith("/api/tenant-a/items/thing_given_1")).length).toBe(probes);
      expect(items.length).toBeGreaterThan(probes);
    },
  );
});

describe("documents: every $ref local, before any tool reads them", () => {
  const places: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "an x- extension (a URL)",
      { "x-logo": { $ref: "http://127.0.0.1:9/ssrf" } },
      /the \$ref "http:\/\/127\.0\.0\.1:9\/ssrf" at \/paths\/~1a\/get\/x-logo points outside/,
    ],
    [
      "an Example Object (a local file)",
      {
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { examples: { leak: { $ref: "/etc/passwd" } } } },
          },
        },
      },
      /"\/etc\/passwd" at \/paths\/~1a\/get\/responses\/200\/content\/application~1json\/examples\/leak points outside/,
    ],
    [
      "an example value (a ../ file)",
      {
        responses: {
          "200": { description: "OK", content: { "application/json": { example: { nested: { $ref: "../.npmrc" } } } } },
        },
      },
      /"\.\.\/\.npmrc" at \/paths\/~1a\/get\/responses\/200\/content\/application~1json\/example\/nested points outside/,
    ],
  ];
  it.each(places)("refuses a $ref in %s (exit 2), naming the place", (_what, op, message) => {
    const spec = write("ref.yaml", apiKeyDoc({ "/a": { get: { operationId: "a", responses: ok, ...op } } }));
    let caught: unknown;
    try {
      readSettings({ CONTRACT_SPEC: spec });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    expect((caught as Error).message).toMatch(message);
  });

  it("is refused before Prism starts and before the docs build runs Redocly", async () => {
    const spec = write(
      "ref.yaml",
      apiKeyDoc({ "/a": { get: { operationId: "a", responses: ok, "x-logo": { $ref: `${server.url}/ssrf` } } } }),
    );
    server.requests.length = 0;
    await expect(startPrism({ spec })).rejects.toThrow(/points outside the document/);
    await expect(buildSite({ out: join(tempDir("contract-hostile-site-"), "site"), specPath: spec })).rejects.toThrow(
      /points outside the document/,
    );
    expect(server.requests).toEqual([]);
  });
});

describe(
  "depth: a document nested deeper than its readers can " + "follow is refused, naming the bound and the place",
  () => {
    const N = 100_000;
    const head = (schema: string) =>
      `{"openapi":"3.0.3","info":{"title":"deep","version":"1"},"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"ok","content":{"application/json":{"schema":${schema}}}}}}}}`;
    /**
     * A document (as text: JSON.stringify itself cannot write one this deep) whose schema nests `levels` properties.
     */
    const nestedJson = (levels: number) =>
      `${head(`${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${"}}".repeat(levels)}`)}}`;
    const nestedYaml = (levels: number) =>
      `openapi: 3.0.3\ninfo: {title: deep, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: a\n    ` +
      `  responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n ` +
      `             schema: ${"{properties: {a: ".repeat(levels)}{type: string}${"}}".repeat(levels)}\n`;
    const refChain = (nested: boolean, length = 10_000) => {
      const schemas: Record<string, unknown> = {};
      for (let i = 0; i < length; i++) {
        const ref = { $ref: `#/components/schemas/S${i + 1}` };
        schemas[`S${i}`] = nested ? { type: "object", properties: { next: ref } } : ref;
      }
      schemas[`S${length}`] = { type: "string" };
      return JSON.stringify({
        ...JSON.parse(`${head('{"$ref":"#/components/schemas/S0"}')}}`),
        components: { schemas },
      });
    };
    const refused = (text: string, name: string) => {
      try {
        readSettings({ CONTRACT_SPEC: write(name, text) });
      } catch (err) {
        expect(err).toBeInstanceOf(SettingsError);
        return (err as Error).message;
      }
      return "read without an error";
    };
    const BOUND =
      /nests deeper than 256 levels \(each object, array and \$ref followed is one\), which the tools that read it cannot follow/;

    it("100,000 levels in JSON, and 400 in YAML: the bound and the JSON pointer where it is crossed", () => {
      const json = refused(nestedJson(N), "deep.json");
      expect(json).toMatch(BOUND);
      expect(json).toMatch(
        /the bound is crossed at \/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\/properties\/a\//,
      );
      const yaml = refused(nestedYaml(400), "deep.yaml");
      expect(yaml).toMatch(BOUND);
      expect(yaml).toMatch(
        /crossed at \/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\/properties\/a\//,
      );
    });

    it("20,000 levels in YAML, which its parser cannot read: the bound, and the line and column", () => {
      const yaml = refused(nestedYaml(20_000), "deeper.yaml");
      expect(yaml).toMatch(BOUND);
      expect(yaml).toMatch(/the YAML parser ran out of stack at line 12, column \d+$/);
    });

    it("a chain of 10,000 $refs, bare or each nested in a property: crossed at the schema named", () => {
      expect(refused(refChain(false), "chain.json")).toMatch(
        new RegExp(`${BOUND.source}: the bound is crossed at /components/schemas/S2\\d\\d$`),
      );
      expect(refused(refChain(true), "nested-chain.json")).toMatch(
        new RegExp(`${BOUND.source}: the bound is crossed at /components/schemas/S\\d+/properties(/next)?$`),
      );
    });

    it("exits 2 with the bound named, never 3 with a RangeError", async () => {
      const run = await runSuite({ CONTRACT_SPEC: write("deep-cli.json", nestedJson(N)) });
      expect(run.code).toBe(2);
      expect(run.output).toMatch(BOUND);
      expect(run.output).not.toMatch(/RangeError|internal error/);
    });

    it("reads a document nested just within the bound, and a recursive schema (a $ref back into its own path)", () => {
      const model = new SpecModel(write("within.json", nestedJson(120)));
      expect(model.operations.map((op) => op.operationId)).toEqual(["a"]);
      const recursive = apiKeyDoc(
        { "/tree": { get: { operationId: "tree", responses: ok } } },
        {
          components: {
            schemas: {
              Node: {
                type: "object",
                properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
              },
            },
          },
        },
      );
      expect(new SpecModel(write("tree.yaml", recursive)).operations).toHaveLength(1);
    });
  },
);

describe("null where a schema, a value or an object is expected (values from documents can be null anywhere)", () => {
  it(
    "runs every phase with no internal error: a nullable body whose " +
      "valid value is null, null examples, members and maps",
    async () => {
      // just-eat.co.uk's shape: a required body under a nullable object schema, whose generated valid value is null.
      const nullableBody = {
        type: "object",
        nullable: true,
        required: ["decision"],
        properties: {
          decision: { type: "string", enum: ["Accepted", "Rejected"] },
          justification: {
            type: "object",
            nullable: true,
            properties: { comments: { type: "string", nullable: true } },
          },
        },
      };
      const doc = {
        openapi: "3.0.3",
        info: { title: "nulls", version: "1", description: null, contact: null },
        servers: null,
        tags: null,
        externalDocs: null,
        components: {
          schemas: { Response: nullableBody, Nothing: null },
          responses: null,
          parameters: { Unused: null },
          securitySchemes: null,
        },
        paths: {
          "/claims/{id}": {
            parameters: null,
            summary: null,
            post: {
              operationId: "respond",
              tags: null,
              callbacks: null,
              parameters: [
                { name: "id", in: "path", required: true, schema: { type: "string", nullable: true }, example: null },
                { name: "q", in: "query", schema: { type: "string", nullable: true }, example: null, examples: null },
                { name: "broken", in: "header", schema: null },
                { name: "c", in: "cookie", required: null, schema: { type: "object", nullable: true }, style: null },
              ],
              requestBody: {
                required: true,
                content: {
                  "application/json": {
                    schema: { $ref: "#/components/schemas/Response" },
                    examples: { none: { value: null }, missing: null },
                  },
                },
              },
              responses: {
                "200": {
                  description: null,
                  headers: { "X-A": null, "X-B": { schema: null } },
                  links: { l: null, next: { operationId: "getClaim", parameters: { id: "$response.body#/decision" } } },
                  content: {
                    "application/json": {
                      schema: { type: "object", nullable: true, properties: { decision: { nullable: true } } },
                      example: null,
                      examples: { x: null },
                    },
                  },
                },
                "422": { description: "invalid", content: null },
                default: null,
              },
            },
            get: {
              operationId: "getClaim",
              parameters: [null, { name: "id", in: "path", required: true, schema: { type: "string" } }],
              requestBody: null,
              responses: {
                "200": {
                  description: "ok",
                  content: { "application/json": { schema: { properties: null, required: null } } },
                },
              },
            },
            put: {
              operationId: "justify",
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: { $ref: "#/components/schemas/Response" },
                    encoding: { decision: null, justification: { style: null, contentType: null } },
                  },
                },
              },
              responses: { "200": { description: "ok" } },
            },
            delete: null,
          },
        },
      };
      const { results } = await run(write("nulls.json", JSON.stringify(doc)), server.url, {
        CONTRACT_PARAMS: JSON.stringify({ "respond.id": "c1", "justify.id": "c1", "getClaim.id": "c1" }),
      });
      expect(results.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`)).toEqual([]);
      expect(results.find((r) => r.id === "justify/negative")?.status).not.toBe("skipped");
      // The schema written as null is named as the document's problem, never a TypeError about it.
      expect(skipReasons(results)).toMatch(
        /the schema at \/paths\/~1claims~1\{id\}\/post\/parameters\/2\/schema is null/,
      );
      expect(skipReasons(results)).not.toMatch(/Cannot read properties/);
    },
  );
});

describe("bounds: a small document cannot hang the run", () => {
  const fanout: Record<string, unknown> = {};
  for (let level = 0; level < 7; level++)
    fanout[`L${level}`] =
      level === 6
        ? { type: "string" }
        : {
            type: "object",
            properties: Object.fromEntries(
              Array.from({ length: 30 }, (_, i) => [`p${i}`, { $ref: `#/components/schemas/L${level + 1}` }]),
            ),
          };
  const body = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
  const doc = apiKeyDoc(
    {
      "/fanout": {
        post: { operationId: "fanout", requestBody: body({ $ref: "#/components/schemas/L0" }), responses: ok },
      },
      "/big": {
        post: {
          operationId: "big",
          requestBody: body({
            type: "object",
            required: ["s"],
            properties: {
              s: { type: "string", maxLength: 2147483647 },
              list: { type: "array", items: { type: "string" }, maxItems: 2147483647 },
            },
          }),
          responses: ok,
        },
      },
      "/huge": {
        post: {
          operationId: "huge",
          requestBody: body({ type: "object", required: ["s"], properties: { s: { type: "string", minLength: 1e9 } } }),
          responses: ok,
        },
      },
      "/search": {
        get: {
          operationId: "search",
          parameters: [
            { name: "q", in: "query", required: true, schema: { type: "string", pattern: `^${"(.*)".repeat(24)}#$` } },
          ],
          responses: ok,
        },
      },
      "/answer": {
        get: {
          operationId: "answer",
          responses: {
            "200": {
              description: "OK",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } },
                },
              },
            },
          },
        },
      },
    },
    { components: { schemas: fanout } },
  );

  it("a $ref fan-out (7 levels x 30 properties) stops at the node budget, naming the place", () => {
    const model = new SpecModel(write("fanout.yaml", doc));
    const started = Date.now();
    expect(() => validSamples(model, "/components/schemas/L0", 1)).toThrow(
      /generation stopped at \/components\/schemas\/L0: inlining the schema's references would build more than \d+ nodes/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a response pattern ^(a+)+$ is checked in linear time, and still catches a mismatch", () => {
    const validator = new SpecValidator(loadSpec(write("pattern.yaml", doc)));
    const started = Date.now();
    expect(
      validator
        .validate("/paths/~1answer/get/responses/200/content/application~1json/schema", { code: `${"a".repeat(34)}!` })
        .map((e) => e.keyword),
    ).toEqual(["pattern"]);
    expect(
      validator.validate("/paths/~1answer/get/responses/200/content/application~1json/schema", { code: "aaaa" }),
    ).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it(
    "a pattern RE2 cannot run (a catastrophic lookahead) is not " +
      "checked, with a warning naming it, instead of hanging",
    () => {
      const warned: string[] = [];
      setUncheckedPatternHandler((pattern) => warned.push(pattern));
      const pattern = "^(?=(a+)+$)a+$";
      const validator = new SpecValidator({
        openapi: "3.1.0",
        components: { schemas: { S: { type: "string", pattern } } },
      });
      const started = Date.now();
      expect(validator.validate("/components/schemas/S", `${"a".repeat(40)}!`)).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(warned).toEqual([pattern]);
    },
  );

  it("the whole run ends: huge sizes capped or skipped with the " +
    "place named, catastrophic patterns bounded", async () => {
    server.requests.length = 0;
    const started = Date.now();
    const { results } = await run(write("bounds.yaml", doc), server.url);
    expect(Date.now() - started).toBeLessThan(30_000);
    const reasons = skipReasons(results);
    expect(reasons).toMatch(
      /generation stopped at \/paths\/~1fanout\/post\/requestBody\S*: inlining the schema's references would build more than/,
    );
    expect(reasons).toMatch(
      /generation stopped at \S*requestBody\S* \(at \/properties\/s of its inlined copy\): minLength 1000000000 is over the 10000 characters/,
    );
    expect(Math.max(...server.requests.map((r) => r.body.length))).toBeLessThanOrEqual(30_000); // 3 x MAX_GENERATED_LENGTH (engine/bounds.ts)
    expect(server.requests.some((r) => r.url.startsWith("/big"))).toBe(true);
    expect(
      results
        .flatMap((r) => r.findings)
        .some((f) => f.operation === "answer" && f.check === "response_schema_conformance"),
    ).toBe(true);
  }, 60_000);
});

describe("output: outside strings cannot steer a terminal or a CI page", () => {
  it("a response with 150,000 undocumented members is checked " +
    "without a RangeError (findings capped per scenario)", async () => {
    const spec = write(
      "wide.yaml",
      apiKeyDoc({
        "/wide": {
          get: {
            operationId: "wide",
            security: [],
            responses: {
              "200": {
                description: "OK",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { inner: { type: "object", properties: {} } } },
                  },
                },
              },
            },
          },
        },
      }),
    );
    const { results } = await run(spec, server.url, { CONTRACT_EXAMPLES: "1", CONTRACT_PHASES: "examples" });
    const examples = results.find((r) => r.id === "wide/examples" || r.id.startsWith("wide/positive"))!;
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(
      results.flatMap((r) => r.findings).filter((f) => f.check === "undocumented_properties").length,
    ).toBeGreaterThan(0);
    expect(examples).toBeDefined();
  }, 60_000);

  it("escapes control sequences and markdown/HTML from a " +
    "response and the document in every report format", async () => {
    const spec = write(
      "names.yaml",
      apiKeyDoc({
        "/hostile": {
          get: {
            operationId: HOSTILE_OP,
            summary: HOSTILE_NAME,
            responses: {
              "200": {
                description: "OK",
                content: {
                  "application/json": { schema: { type: "object", properties: { ok: { type: "boolean" } } } },
                },
              },
            },
          },
        },
      }),
    );
    const { run: done, results } = await run(spec, server.url, { CONTRACT_STRICT: "1" });
    const report = buildReport(
      { kind: "live", baseUrl: server.url, strict: true, spec },
      done.model.operations.map(({ operationId, method, path }) => ({ operationId, method, path })),
      results,
      { entries: [] },
      done.target.requestsSent(),
    );
    expect(report.findings.some((f) => f.instancePath?.includes(pointerSegment(HOSTILE_NAME)))).toBe(true);
    const text = formatText(report);
    const markdown = formatMarkdown(report);
    const junit = formatJUnit(results);
    for (const out of [text, markdown, junit]) expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    for (const out of [text, junit]) expect(out).toContain("\\x1B]0;pwned\\x07");
    expect(text).toContain("report\\x1B[31mRed<script>");
    expect(markdown).toContain("\\\\x1B\\]0;pwned\\\\x07");
    expect(markdown).not.toMatch(/<img|<script|<\/details><img/);
    // A link needs an unescaped [ ... ]: the escaped text shows as the text it is.
    expect(markdown).not.toMatch(/(?<!\\)\[x(?<!\\)\]\(javascript:/);
    expect(markdown).toContain("\\[x\\](javascript:");
    expect(markdown.split("</details>").length).toBe(markdown.split("<details>").length);
    expect(markdown).toContain("&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;");
    // JSON stays JSON: the name is there, exactly, and only escaped as JSON escapes it.
    expect(
      JSON.parse(JSON.stringify(report)).findings.some((f: { instancePath?: string }) =>
        f.instancePath?.includes(pointerSegment(HOSTILE_NAME)),
      ),
    ).toBe(true);
  }, 30_000);

  it("escapes names and descriptions from the documents in the spec:diff markdown report", () => {
    const before = loadSpec(write("before.yaml", apiKeyDoc({ "/a": { get: { operationId: "a", responses: ok } } })));
    const after = loadSpec(
      write(
        "after.yaml",
        apiKeyDoc({
          "/a": {
            get: {
              operationId: "a",
              description: `# Gate: pass\n</details><img src=x onerror=alert(1)>${ESC}[2J`,
              responses: ok,
            },
          },
          [`/b${"</details>"}<script>x</script>`]: { get: { operationId: `b${ESC}]0;t${"\u0007"}`, responses: ok } },
        }),
      ),
    );
    const changes = classifyChanges(before, after);
    const md = renderReport({
      repo: ".",
      specPath: "openapi/openapi.yaml",
      baseRef: "main",
      baseVersion: "1.0.0",
      headVersion: "1.0.0",
      changes,
      verdict: judgeVersion("1.0.0", "1.0.0", changes.filter((c) => c.cls === "breaking").length),
    });
    expect(changes.length).toBeGreaterThan(0);
    // Code spans show their text literally (no HTML inside them is rendered): everything outside them is escaped.
    const outsideCode = md.replace(/(`+)[^`]*?\1/g, "");
    expect(md).toContain("&lt;/details&gt;&lt;script&gt;");
    expect(outsideCode).not.toMatch(/<img|<script|<\/details>/);
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(md).not.toMatch(/^# Gate/m);
  });
});

describe("settings and files", () => {
  const secret = "npm_SECRETTOKEN0123456789abcdef";
  it.each([
    ["an environ file", `CONTRACT_API_KEY=${secret}\u0000PATH=/usr/bin\u0000`],
    ["an .npmrc", `//registry.npmjs.org/:_authToken=${secret}\n`],
    ["broken YAML holding a secret", `token: "${secret}\nother: [${secret}\n`],
    ["a mapping whose openapi field is the secret", `openapi: ${secret}\n`],
  ])("CONTRACT_SPEC naming %s: the error never quotes its content", (_what, content) => {
    const path = write("secret", content);
    expect(() => readSettings({ CONTRACT_SPEC: path })).toThrow(SettingsError);
    try {
      readSettings({ CONTRACT_SPEC: path });
    } catch (err) {
      expect((err as Error).message).not.toMatch(/SECRET|npm_|_authToken/);
    }
  });

  it("CONTRACT_BASELINE naming a file that is not JSON: the error never quotes it", () => {
    const path = write("baseline", `${secret}\nCONTRACT_API_KEY=${secret}\n`);
    expect(() => loadBaseline(path)).toThrow(BaselineError);
    try {
      loadBaseline(path);
    } catch (err) {
      expect((err as Error).message).not.toContain("SECRET");
    }
  });

  it(
    "--replay of a tampered report never sends the key to the " + "report's target: the user names the target",
    async () => {
      const seen: string[] = [];
      const thief = await startServer((req, res) => {
        seen.push(String(req.headers["x-api-key"] ?? ""));
        sendJson(res, 200, {});
      });
      try {
        const report = {
          target: { kind: "live", baseUrl: thief.url, spec: "openapi/openapi.yaml", strict: false },
          findings: [
            {
              severity: "error",
              check: "not_a_server_error",
              operation: "createSitemapRequest",
              title: "t",
              curl: "",
              replay: { method: "POST", path: "/v1/site/map", query: {}, headers: {}, key: true, context: {} },
            },
          ],
        };
        const path = write("tampered-report", JSON.stringify(report));
        const lines: string[] = [];
        await expect(
          replayReport(path, resolveOptions({ env: { CONTRACT_API_KEY: KEY }, configFile: false }), (l) =>
            lines.push(l),
          ),
        ).rejects.toThrow(/name the target to replay against with --base-url/);
        expect(seen, "nothing was sent to the URL the report names").toEqual([]);
      } finally {
        await thief.close();
      }
    },
  );

  it("CONTRACT_REPORTS_DIR naming an existing file is an invalid setting before anything starts", () => {
    const path = write("a-file", "not a directory");
    expect(() => readSettings({ CONTRACT_REPORTS_DIR: path })).toThrow(/CONTRACT_REPORTS_DIR must name a directory/);
    expect(() => readSettings({ CONTRACT_REPORTS_DIR: join(path, "below") })).toThrow(
      /CONTRACT_REPORTS_DIR must name a directory/,
    );
  });

  it("a baseline of 150,000 entries renders in every format (no RangeError)", () => {
    const entries: BaselineEntry[] = Array.from({ length: 150_000 }, (_, i) => ({
      check: "response_schema_conformance",
      operation: `op${i}`,
      place: `/p${i}`,
      reason: "accepted",
      expires: i % 2 ? "2000-01-01" : "2999-01-01",
    }));
    const path = write("baseline.json", JSON.stringify({ entries }));
    const baseline = loadBaseline(path);
    const results: ScenarioResult[] = [
      {
        id: "op1/positive",
        operation: "op1",
        phase: "positive",
        title: "positive",
        status: "failed",
        findings: [
          {
            check: "response_schema_conformance",
            severity: "error",
            operation: "op1",
            title: "t",
            curl: "curl",
            received: "r",
            documented: "d",
            instancePath: "/p1",
          } as never,
        ],
        accepted: [],
        exchanges: 1,
      },
    ];
    const report = buildReport(
      { kind: "live", baseUrl: "http://x", strict: false, spec: "s" },
      [],
      results,
      baseline,
      1,
    );
    expect(report.baseline.fixed.length).toBe(149_999);
    expect(formatMarkdown(report).length).toBeGreaterThan(0);
    expect(formatText(report).length).toBeGreaterThan(0);
  });
});
