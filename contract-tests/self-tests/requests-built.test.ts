/**
 * A request the suite could not build as the document says is the suite's problem, never the target's: each
 * class of the suite's own mistakes found on real public documents, shown fixed on a small document of that
 * shape, against a real local HTTP server that records what it is sent.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { encodeBody } from "../engine/requests.js";
import { readSettings, type Settings } from "../config/settings.js";
import { createTarget } from "../transport/target.js";
import { cleanUp, tempDir } from "./support/spawn.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base = "";
let seen: Received[] = [];
const dir = tempDir("contract-built-");
/** What the server answers, per path (the rest: 200 with `[]`). */
const answers = new Map<string, (r: Received) => { status: number; body: unknown }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      seen.push(r);
      const answer = answers.get(new URL(r.url, "http://x").pathname)?.(r) ?? { status: 200, body: [] };
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  cleanUp();
});

/**
 * Writes `doc` and runs the whole suite against the recording server (as the mock when `mock`, so example pairs are
 * asked for with Prefer).
 */
async function run(name: string, doc: object, mock = false): Promise<ScenarioResult[]> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  seen = [];
  const settings: Settings = {
    ...readSettings({ CONTRACT_BASE_URL: base, CONTRACT_API_KEY: "k", CONTRACT_SPEC: file, CONTRACT_EXAMPLES: "2" }),
    ...(mock ? { kind: "mock" as const } : {}),
  };
  return (await runContract(settings)).results;
}

const errors = (results: ScenarioResult[]) =>
  results
    .flatMap((r) => r.findings)
    .filter((f) => f.severity === "error")
    .map((f) => `${f.check}: ${f.title}`);
const ok = (schema: object = { type: "array" }, extra: object = {}) => ({
  "200": { description: "ok", content: { "application/json": { schema, ...extra } } },
});
const info = { title: "shape", version: "1" };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

describe("example pairs: headers merged, only selectable examples asked for", () => {
  it("keeps a required header parameter next to Prism's Prefer header", async () => {
    const doc = {
      openapi: "3.0.3",
      info,
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            parameters: [
              {
                name: "X-Tenant",
                in: "header",
                required: true,
                schema: { type: "string", enum: ["acme"] },
                example: "acme",
              },
              { name: "q", in: "query", schema: { type: "string" }, examples: { one: { value: "first" } } },
            ],
            responses: ok({ type: "array" }, { examples: { one: { value: ["first"] } } }),
          },
        },
      },
    };
    answers.set("/items", (r) =>
      r.headers["x-tenant"] === "acme"
        ? { status: 200, body: ["first"] }
        : { status: 422, body: { message: "X-Tenant is required" } },
    );
    const results = await run("prefer", doc, true);
    const paired = seen.filter((r) => r.headers.prefer);
    expect(paired.map((r) => r.headers.prefer)).toEqual(["example=one"]);
    expect(
      paired.every((r) => r.headers["x-tenant"] === "acme"),
      "the Prefer header replaced the required header",
    ).toBe(true);
    expect(errors(results)).toEqual([]);
  });

  it("never asks for a lone `example:` by the name it was given (no Prefer: example=example)", async () => {
    const doc = {
      openapi: "3.0.3",
      info,
      paths: {
        "/things": {
          post: {
            operationId: "createThing",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: { type: "object", properties: { name: { type: "string" } } },
                  example: { name: "a" },
                },
              },
            },
            responses: ok({ type: "object" }, { example: { name: "a" } }),
          },
        },
      },
    };
    answers.set("/things", (r) =>
      r.headers.prefer
        ? { status: 404, body: { message: "no example named example" } }
        : { status: 200, body: { name: "a" } },
    );
    const results = await run("unnamed", doc, true);
    expect(seen.some((r) => r.headers.prefer)).toBe(false);
    expect(errors(results)).toEqual([]);
  });
});

describe("documented examples as the mock can serve them", () => {
  it(
    "asks for a pair in the media type that holds its response " + "example (Accept), not the first documented one",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/pets": {
            post: {
              operationId: "addPet",
              requestBody: {
                required: true,
                content: {
                  "text/plain": { examples: { ok: { value: "OK" } } },
                  "application/json": { examples: { cat: { value: { name: "Fluffy" } } } },
                },
              },
              responses: {
                "200": {
                  description: "ok",
                  content: {
                    "text/plain": { examples: { ok: { value: "OK" } } },
                    "application/json": { examples: { cat: { value: { name: "Fluffy" } } } },
                  },
                },
              },
            },
          },
        },
      };
      // Like Prism: the example named in Prefer is looked up in the media type Accept chose first; not there: 404.
      answers.set("/pets", (r) =>
        r.headers.prefer === "example=cat" && !String(r.headers.accept).startsWith("application/json")
          ? { status: 404, body: { message: "no example cat for text/plain" } }
          : { status: 200, body: { name: "Fluffy" } },
      );
      const results = await run("pair-media", doc, true);
      expect(seen.find((r) => r.headers.prefer === "example=cat")?.headers.accept).toBe("application/json");
      expect(errors(results)).toEqual([]);
    },
  );

  it(
    "sends an example that breaks its own schema with its acceptance in " +
      "doubt: a refusal is a warning naming the document's defect",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/pets": {
            put: {
              operationId: "putPets",
              requestBody: {
                required: true,
                content: {
                  "application/json": {
                    schema: { type: "array", items: { type: "object" } },
                    examples: { cat: { value: '[{"name": "Fluffy"}]' } },
                  },
                },
              },
              responses: ok(),
            },
          },
        },
      };
      answers.set("/pets", (r) =>
        r.body.startsWith("[") ? { status: 200, body: [] } : { status: 422, body: { message: "must be array" } },
      );
      const results = await run("invalid-example", doc);
      expect(errors(results)).toEqual([]);
      const refused = results.flatMap((r) => r.findings).find((f) => f.check === "positive_data_acceptance")!;
      expect(refused).toMatchObject({
        severity: "warning",
        title: "Input refused that the suite could not build as the document promises",
      });
      expect(refused.documented).toMatch(/breaks its own schema \(\(root\) must be array/);
      expect(
        seen.filter((r) => r.method === "PUT" && !r.body.startsWith('"')).length,
        "the other phases build valid bodies, not from the broken example",
      ).toBeGreaterThan(3);
    },
  );

  it(
    "holds a Swagger 2.0 body without consumes in doubt: its " + "refusal is a warning; with consumes, an error",
    async () => {
      const doc = (consumes?: string[]) => ({
        swagger: "2.0",
        info,
        paths: {
          "/orders": {
            post: {
              operationId: "placeOrder",
              ...(consumes ? { consumes } : {}),
              parameters: [
                {
                  in: "body",
                  name: "body",
                  required: true,
                  schema: { type: "object", properties: { n: { type: "integer" } } },
                },
              ],
              responses: { "200": { description: "ok" }, "400": { description: "invalid order" } },
            },
          },
        },
      });
      // Like Prism on such a document: no media type is supported, so every body is refused.
      answers.set("/orders", () => ({ status: 400, body: { message: "No supported content types" } }));
      const silent = await run("swagger-no-consumes", doc());
      expect(errors(silent)).toEqual([]);
      expect(
        silent
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /no Swagger 2.0 consumes/.test(f.documented),
          ),
      ).toBe(true);
      expect(errors(await run("swagger-consumes", doc(["application/json"])))).toContain(
        "positive_data_acceptance: Valid input rejected",
      );
    },
  );

  it(
    "never sends a media range as the Content-Type: " + "application/json first, else a concrete type in the range",
    async () => {
      const doc = (content: string[]) => ({
        openapi: "3.0.3",
        info,
        paths: {
          "/logs": {
            post: {
              operationId: "createLog",
              requestBody: {
                required: true,
                content: Object.fromEntries(
                  content.map((c) => [c, { schema: { type: "object", properties: { name: { type: "string" } } } }]),
                ),
              },
              responses: ok({ type: "object" }),
            },
          },
        },
      });
      answers.set("/logs", (r) =>
        String(r.headers["content-type"]).includes("*")
          ? { status: 400, body: { message: "a Content-Type is not a range" } }
          : { status: 200, body: {} },
      );
      expect(
        errors(
          await run("range-first", doc(["application/*+json", "application/json-patch+json", "application/json"])),
        ),
      ).toEqual([]);
      // (text/plain: the negative case of a JSON body sent in another media type.)
      expect(new Set(seen.filter((r) => r.body.startsWith("{")).map((r) => r.headers["content-type"]))).toEqual(
        new Set(["application/json", "text/plain"]),
      );
      expect(errors(await run("range-only", doc(["application/*+json"])))).toEqual([]);
      expect(seen.find((r) => r.body.startsWith("{"))?.headers["content-type"]).toBe(
        "application/vnd.contract-suite+json",
      );
    },
  );

  it(
    "holds a 3.0 `format: byte` value to base64 (the upgrade's " +
      "contentEncoding is not checked by ajv): valid values only",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/blob": {
            get: {
              operationId: "getBlob",
              parameters: [{ name: "data", in: "query", required: true, schema: { type: "string", format: "byte" } }],
              responses: ok(),
            },
          },
        },
      };
      answers.set("/blob", (r) =>
        /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(
          new URL(r.url, "http://x").searchParams.get("data") ?? "",
        )
          ? { status: 200, body: [] }
          : { status: 422, body: { message: "data must be base64" } },
      );
      const results = await run("byte", doc);
      expect(errors(results)).toEqual([]);
      expect(results.find((r) => r.phase === "positive")!.exchanges).toBeGreaterThan(1);
    },
  );
});

describe("a body the transport cannot send, or the document says to ignore", () => {
  const withBody = (method: string, version: string) => ({
    openapi: version,
    info,
    paths: {
      "/search": {
        [method]: {
          operationId: "search",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["q"], properties: { q: { type: "string" } } },
              },
            },
          },
          responses: ok(),
        },
      },
    },
  });

  it(
    "sends a GET with a documented requestBody without the body: " + "answered, no 'target did not answer', no breaker",
    async () => {
      answers.delete("/search");
      const results = await run("get-body", withBody("get", "3.0.3"));
      expect(seen.filter((r) => r.url.startsWith("/search")).length).toBeGreaterThan(3);
      expect(seen.every((r) => r.body === "")).toBe(true);
      const notPassed = results
        .filter((r) => r.status !== "passed")
        .map((r) => `${r.id}: ${r.skipReason ?? JSON.stringify(r.findings.map((f) => f.title))}`);
      // Without the body, the operation takes no input the document rules out; nothing else is skipped or failed.
      expect(notPassed).toEqual([
        "search/negative: skipped: the document rules out no input of this operation",
        "search/auth: skipped: the operation requires no authentication",
      ]);
      expect(results.flatMap((r) => r.findings).filter((f) => f.check === "not_a_server_error")).toEqual([]);
    },
  );

  it(
    "sends the body a DELETE requires, in a 3.0 document too " +
      "(where it 'SHALL be ignored'), as real servers expect",
    async () => {
      // Like a real server (GitHub's DELETEs with a body): a DELETE without its required body is refused.
      answers.set("/search", (r) =>
        r.method === "DELETE" && !r.body.startsWith("{")
          ? { status: 422, body: { message: "q is required" } }
          : { status: 200, body: [] },
      );
      for (const version of ["3.0.3", "3.1.0"]) {
        const results = await run(`delete-${version}`, withBody("delete", version));
        expect(
          seen.filter((r) => r.method === "DELETE" && r.body.startsWith("{")).length,
          `${version}: valid DELETEs carry their body`,
        ).toBeGreaterThan(2);
        expect(errors(results), version).toEqual([]);
      }
    },
  );

  it(
    "holds a refusal of a GET whose required body the transport cannot send in " +
      "doubt: a warning naming what was left out, never 'valid input rejected'",
    async () => {
      answers.set("/search", () => ({ status: 422, body: { message: "q is required" } }));
      const results = await run("get-body-required", withBody("get", "3.0.3"));
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.every((r) => r.body === "")).toBe(true);
      expect(errors(results)).toEqual([]);
      const warned = results
        .flatMap((r) => r.findings)
        .filter((f) => f.check === "positive_data_acceptance" && f.severity === "warning");
      expect(warned.length).toBeGreaterThan(0);
      expect(warned[0]!.documented).toMatch(
        /requires a request body on GET, which the suite's transport \(fetch\) cannot send/,
      );
      answers.delete("/search");
    },
  );

  it(
    "reports a request fetch refuses to build as the suite's " + "problem: a warning, and the breaker stays closed",
    async () => {
      const target = createTarget({
        kind: "live",
        baseUrl: base,
        apiKey: "k",
        secondApiKey: undefined,
        maxRequests: 50,
        maxBodyBytes: 1 << 20,
        timeoutMs: 2000,
      });
      for (let i = 0; i < 4; i++) {
        const ex = await target.send({ operation: "search", method: "GET", path: "/search", json: { q: "x" } });
        expect(ex.response).toMatchObject({
          status: 0,
          suiteError: true,
          transportError: expect.stringMatching(/^the suite could not send this request: /),
        });
      }
      expect(target.stopped()).toBeUndefined();
      expect(target.requestsSent()).toBe(0);
      const { run: runChecks } = (await import("../modules/index.js")).ALL_CHECKS;
      const { specModel } = await import("../model/model.js");
      const file = join(dir, "get-body.json");
      const ex = await target.send({ operation: "search", method: "GET", path: "/search", json: { q: "x" } });
      expect(
        runChecks(["not_a_server_error"], ex, {
          intent: "acceptance",
          strict: false,
          live: true,
          model: specModel(file),
        }),
      ).toMatchObject([{ severity: "warning", title: expect.stringMatching(/the suite's problem/) }]);
    },
  );

  it(
    "reads a 407 that fetch turns into a network error as the suite's " +
      "problem, not 'no HTTP response', and keeps sending",
    async () => {
      answers.set("/proxy", () => ({ status: 407, body: {} }));
      const target = createTarget({
        kind: "live",
        baseUrl: base,
        apiKey: "k",
        secondApiKey: undefined,
        maxRequests: 50,
        maxBodyBytes: 1 << 20,
        timeoutMs: 2000,
      });
      for (let i = 0; i < 4; i++)
        expect((await target.send({ operation: "x", method: "GET", path: "/proxy" })).response).toMatchObject({
          status: 0,
          suiteError: true,
          transportError: expect.stringMatching(/could not read the answer.*407/),
        });
      expect(target.stopped()).toBeUndefined();
      expect((await target.send({ operation: "x", method: "GET", path: "/other" })).response.status).toBe(200);
    },
  );
});

describe("a header the transport cannot send as the document gives it", () => {
  it(
    "sends what it can and holds the request in doubt, naming " + "the header: no 'No HTTP response', no error",
    async () => {
      // A document's Content-Length as a string (fetch refuses a non-numeric one), and a value with a line break.
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/upload": {
            post: {
              operationId: "upload",
              parameters: [
                { name: "Content-Length", in: "header", required: true, schema: { type: "string", enum: ["abc"] } },
                { name: "X-Sig", in: "header", required: true, schema: { type: "string", enum: ["one\ntwo"] } },
              ],
              requestBody: {
                required: true,
                content: { "application/json": { schema: { type: "object", properties: { n: { type: "integer" } } } } },
              },
              responses: { ...ok({ type: "object" }), "400": { description: "a header is missing" } },
            },
          },
        },
      };
      // Like a real server: the signature header is required.
      answers.set("/upload", (r) =>
        r.headers["x-sig"] === undefined
          ? { status: 400, body: { message: "X-Sig is required" } }
          : { status: 200, body: {} },
      );
      const results = await run("header-not-sent", doc);
      expect(errors(results)).toEqual([]);
      expect(
        seen.filter((r) => r.method === "POST").length,
        "the requests reached the server, with the Content-Length the transport writes",
      ).toBeGreaterThan(3);
      expect(
        seen.filter((r) => r.body !== "" && r.headers["content-length"] !== String(Buffer.byteLength(r.body))),
      ).toEqual([]);
      const warnings = results.flatMap((r) => r.findings).filter((f) => f.severity === "warning");
      const positive = warnings.find((f) => f.check === "positive_data_acceptance")!;
      expect(positive.documented).toMatch(
        /header Content-Length "abc": the transport writes Content-Length from the body/,
      );
      expect(positive.documented).toMatch(
        /header X-Sig "one\\ntwo": its value holds "\\n", which a header cannot carry: left out/,
      );
      expect(
        results.flatMap((r) => r.findings).some((f) => f.title === "No HTTP response"),
        "nothing is blamed on the target",
      ).toBe(false);
      expect(
        seen.some((r) => r.headers["x-sig"] !== undefined && r.method === "POST"),
        "a negative value of X-Sig the wire carries is still sent",
      ).toBe(true);
    },
  );

  it(
    "holds a refusal in doubt when the document requires an Authorization header " +
      "parameter (which OpenAPI ignores) and no security scheme sends one",
    async () => {
      // just-eat.co.uk's shape: the partner key as a required header parameter, with no security requirement.
      const doc = (security: boolean) => ({
        openapi: "3.0.3",
        info,
        ...(security
          ? { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "Authorization" } } } }
          : {}),
        paths: {
          "/order": {
            post: {
              operationId: "placeOrder",
              ...(security ? { security: [{ key: [] }] } : {}),
              parameters: [{ name: "Authorization", in: "header", required: true, schema: { type: "string" } }],
              requestBody: {
                required: true,
                content: { "application/json": { schema: { type: "object", properties: { n: { type: "integer" } } } } },
              },
              responses: {
                ...ok({ type: "object" }),
                "400": { description: "invalid" },
                "401": { description: "no key" },
              },
            },
          },
        },
      });
      // Like a real server: the key is required, and the body must be a JSON object whose n, if any, is an integer.
      answers.set("/order", (r) => {
        let body: unknown;
        try {
          body = r.headers["content-type"] === "application/json" ? JSON.parse(r.body) : undefined;
        } catch {
          body = undefined;
        }
        const n = (body as { n?: unknown } | undefined)?.n;
        const valid = isObject(body) && (n === undefined || Number.isInteger(n));
        return r.headers.authorization === "k" && valid
          ? { status: 200, body: {} }
          : { status: 400, body: { message: "Authorization and a valid order are required" } };
      });
      const results = await run("authorization-parameter", doc(false));
      expect(errors(results)).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .find((f) => f.check === "positive_data_acceptance" && f.severity === "warning")?.documented,
      ).toMatch(/requires a header parameter Authorization, which OpenAPI says to ignore/);
      // Where a security scheme sends it, the request carries it: no doubt, and it is accepted.
      const secured = await run("authorization-scheme", doc(true));
      expect(errors(secured)).toEqual([]);
      expect(secured.find((r) => r.phase === "positive")?.status).toBe("passed");
    },
  );

  it(
    "holds a refusal in doubt when a valid parameter value is not valid as " +
      "its wire text reads (a null query value sent as 'null')",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/limited": {
            get: {
              operationId: "listLimited",
              parameters: [{ name: "limit", in: "query", schema: { type: "integer", nullable: true, enum: [null] } }],
              responses: { ...ok(), "400": { description: "invalid" } },
            },
          },
        },
      };
      // Like a real server: a limit that is not an integer is refused.
      answers.set("/limited", (r) => {
        const limit = new URL(r.url, "http://x").searchParams.get("limit");
        return limit === null || /^-?\d+$/.test(limit)
          ? { status: 200, body: [] }
          : { status: 400, body: { message: "limit must be an integer" } };
      });
      const results = await run("null-query", doc);
      expect(seen.some((r) => r.url.includes("limit=null"))).toBe(true);
      expect(errors(results)).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .find((f) => f.check === "positive_data_acceptance" && f.severity === "warning")?.documented,
      ).toMatch(/the query parameter limit goes on the wire as "null", which as the server reads it breaks/);
    },
  );

  it("names each header the transport cannot carry as given (pure: what goes, and why the rest does not)", async () => {
    const { carriedHeaders } = await import("../model/wire.js");
    const { headers, doubts } = carriedHeaders(
      {
        "content-length": "2",
        host: "example.com",
        "x a": "1",
        "x-emoji": "\u{1F600}",
        "x-pad": " v ",
        connection: "close",
        expect: "100-continue",
        "x-ok": "fine",
      },
      "{}",
    );
    expect(headers).toEqual({ "x-pad": " v ", connection: "close", "x-ok": "fine" });
    expect(doubts).toEqual([
      'header host "example.com": the transport writes Host from the target\'s URL: left out',
      'header x a "1": its name is not an HTTP field name (a token), so no request can carry it: left out',
      expect.stringMatching(/^header x-emoji .*which a header cannot carry: left out$/),
      'header x-pad " v ": the transport trims the whitespace around a header value',
      'header expect "100-continue": the transport refuses an Expect: left out',
    ]);
    expect(carriedHeaders({ "Content-Length": "3" }, "{}").doubts[0]).toMatch(/from the body it sends \(2 bytes\)/);
  });
});

describe("a valid form body the wire cannot carry as it is", () => {
  it(
    "holds the refusal of a required member holding an empty array (written " +
      "as no field) in doubt, and prefers a body the wire carries",
    async () => {
      const doc = (maxItems?: number) => ({
        openapi: "3.0.3",
        info,
        paths: {
          "/tags": {
            post: {
              operationId: "setTags",
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: {
                      type: "object",
                      required: ["tags"],
                      properties: {
                        tags: {
                          type: "array",
                          items: { type: "string", enum: ["a"] },
                          ...(maxItems === undefined ? {} : { maxItems }),
                        },
                      },
                    },
                    examples: { none: { value: { tags: [] } } },
                  },
                },
              },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid form" } },
            },
          },
        },
      });
      // Like a real server: a form without the required field, or with a tag other than "a", is refused.
      answers.set("/tags", (r) => {
        const tags = new URLSearchParams(r.body).getAll("tags");
        return tags.length > 0 && tags.every((t) => t === "a")
          ? { status: 200, body: {} }
          : { status: 422, body: { message: "tags is required" } };
      });
      const results = await run("form-empty-array", doc());
      expect(errors(results)).toEqual([]);
      const warned = results
        .flatMap((r) => r.findings)
        .filter((f) => f.check === "positive_data_acceptance" && f.severity === "warning");
      expect(warned.map((f) => f.documented).join("\n")).toMatch(
        /the member tags holds \[\], which a application\/x-www-form-urlencoded form writes as no field/,
      );
      expect(
        seen.filter((r) => new URLSearchParams(r.body).has("tags")).length,
        "the base request is a body the wire carries (not the example's empty array)",
      ).toBeGreaterThan(3);
      // Every valid value is an empty array, which the wire cannot carry: the server refuses every form, rightly;
      // each refusal of a valid one is in doubt, none an error.
      answers.set("/tags", () => ({ status: 422, body: { message: "tags must be present and empty" } }));
      expect(errors(await run("form-only-empty-array", doc(0)))).toEqual([]);
    },
  );

  it(
    "holds the refusal of a string body of a " + "multipart/form-data media type (a form with no parts) in " + "doubt",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/files": {
            post: {
              operationId: "putFile",
              requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "string" } } } },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid form" } },
            },
          },
        },
      };
      answers.set("/files", (r) =>
        r.body.includes("Content-Disposition")
          ? { status: 200, body: {} }
          : { status: 422, body: { message: "no parts" } },
      );
      const results = await run("multipart-string", doc);
      expect(errors(results)).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /a string body, which a multipart\/form-data form writes as no fields/.test(f.documented),
          ),
      ).toBe(true);
    },
  );
});

describe("form bodies: required and the Encoding Object honoured", () => {
  const form = (required: boolean) => ({
    openapi: "3.0.3",
    info,
    paths: {
      "/form": {
        post: {
          operationId: "submitForm",
          requestBody: {
            required,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["meta"],
                  properties: {
                    meta: { type: "object", required: ["id"], properties: { id: { type: "integer", minimum: 1 } } },
                    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
                  },
                },
                encoding: { meta: { contentType: "application/json" }, tags: { style: "form", explode: false } },
                example: { meta: { id: 7 }, tags: ["a", "b"] },
              },
            },
          },
          responses: { ...ok({ type: "object" }), "422": { description: "the form does not validate" } },
        },
      },
    },
  });

  it("writes a member with a JSON contentType as JSON text and an unexploded array joined", () => {
    const { rawBody } = encodeBody(
      "application/x-www-form-urlencoded",
      { meta: { id: 7 }, tags: ["a", "b"] },
      { meta: { contentType: "application/json" }, tags: { style: "form", explode: false } },
    );
    expect(new URLSearchParams(rawBody).get("meta")).toBe('{"id":7}');
    expect(new URLSearchParams(rawBody).getAll("tags")).toEqual(["a,b"]);
    expect(
      new URLSearchParams(encodeBody("application/x-www-form-urlencoded", { meta: { id: 7 } }).rawBody).get("id"),
      "without an Encoding Object an object is exploded into its members",
    ).toBe("7");
  });

  it(
    "has valid forms accepted by a server that decodes them as the Encoding Object " +
      "says, and an empty optional form is not demanded to be refused",
    async () => {
      // The server decodes as the document says: meta as JSON, tags comma-joined; no body at all is fine (optional);
      // else 422.
      answers.set("/form", (r) => {
        if (r.body === "") return { status: 200, body: {} };
        const f = new URLSearchParams(r.body);
        let meta: any;
        try {
          meta = JSON.parse(f.get("meta") ?? "");
        } catch {
          return { status: 422, body: { message: "meta is not JSON" } };
        }
        const tags = f.get("tags")?.split(",") ?? [];
        const good =
          Number.isInteger(meta?.id) &&
          meta.id >= 1 &&
          tags.every((t) => t === "a" || t === "b") &&
          f.getAll("tags").length <= 1;
        return good ? { status: 200, body: {} } : { status: 422, body: { message: "invalid form" } };
      });
      const optional = await run("form-optional", form(false));
      expect(errors(optional)).toEqual([]);
      const negatives = optional.find((r) => r.phase === "negative")!;
      expect(negatives.status).toBe("passed");
      expect(seen.filter((r) => r.method === "POST" && r.body !== "").length).toBeGreaterThan(3);
      // The same form, required: an empty body is now a negative case, and the server's 200 for it is caught.
      const required = await run("form-required", form(true));
      expect(
        errors(required).some((e) =>
          /negative_data_rejection: Invalid input accepted \((no body where one is required|an empty object|missing required member meta)\)/.test(
            e,
          ),
        ),
      ).toBe(true);
    },
  );
});

describe("a required body whose valid value is empty on the wire", () => {
  it(
    "holds a refusal of an empty required form in doubt (it cannot be told " +
      "from no body): a warning, never 'valid input rejected'",
    async () => {
      // Conjur's shape: a required form body whose members are all optional, so {} is valid and serializes to "".
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/token": {
            post: {
              operationId: "token",
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: { type: "object", properties: { jwt: { type: "string" } } },
                  },
                },
              },
              responses: { ...ok({ type: "object" }), "400": { description: "no body" } },
            },
          },
        },
      };
      // Like Prism: a zero-length body is a missing body, whatever the form would decode to.
      answers.set("/token", (r) =>
        r.body === "" ? { status: 400, body: { message: "body required" } } : { status: 200, body: {} },
      );
      const results = await run("empty-required-form", doc);
      expect(
        seen.some((r) => r.method === "POST" && r.body === ""),
        "the empty form was sent",
      ).toBe(true);
      expect(errors(results).filter((e) => e.startsWith("positive_data_acceptance"))).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /serializes to nothing/.test(f.documented ?? ""),
          ),
      ).toBe(true);
    },
  );

  it(
    "holds a refusal of a JSON null body, valid under an empty schema, in " +
      "doubt too (slicebox's shape: Prism reads null as no body)",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/images": {
            post: {
              operationId: "upload",
              requestBody: {
                required: true,
                content: { "application/json": { schema: {}, examples: { nothing: { value: null } } } },
              },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid" } },
            },
          },
        },
      };
      answers.set("/images", (r) =>
        r.body === "null" || r.body === ""
          ? { status: 422, body: { message: "body required" } }
          : { status: 200, body: {} },
      );
      const results = await run("null-required-json", doc);
      expect(errors(results).filter((e) => e.startsWith("positive_data_acceptance"))).toEqual([]);
      expect(
        seen.some((r) => r.method === "POST" && r.body === "null"),
        "the documented null example was sent",
      ).toBe(true);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /JSON null/.test(f.documented ?? ""),
          ),
      ).toBe(true);
    },
  );
});

describe("credentials and headers as the document writes them (Conjur's shapes)", () => {
  const schemes = {
    basicAuth: { type: "http", scheme: "basic" },
    tokenAuth: { type: "apiKey", in: "header", name: "Authorization" },
    tls: { type: "http", scheme: "mutual" },
  };
  const refused = { ...ok({ type: "object" }), "401": { description: "no" }, "422": { description: "invalid" } };

  it(
    "sends a header fetch would otherwise add (Accept-Encoding) with a " +
      "documented value, so no request carries one the document rules out",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/secrets": {
            get: {
              operationId: "secrets",
              parameters: [{ in: "header", name: "Accept-Encoding", schema: { type: "string", enum: ["base64"] } }],
              responses: refused,
            },
          },
        },
      };
      // Like Prism: the header's value is validated against the document's enum.
      answers.set("/secrets", (r) =>
        r.headers["accept-encoding"] === "base64"
          ? { status: 200, body: {} }
          : { status: 422, body: { message: `accept-encoding ${r.headers["accept-encoding"]}` } },
      );
      const results = await run("accept-encoding", doc);
      expect(errors(results)).toEqual([]);
      const positive = results.find((r) => r.phase === "positive")!;
      expect(positive.status).toBe("passed");
      expect(
        seen.filter((r) => r.headers["accept-encoding"] === "base64").length,
        "valid requests carry the documented value",
      ).toBeGreaterThan(2);
    },
  );

  it(
    "holds the refusals of an operation whose credential the suite cannot " +
      "present, or cannot put in one request, in doubt: warnings",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        components: { securitySchemes: schemes },
        paths: {
          "/k8s": { post: { operationId: "k8s", security: [{ tls: [] }], responses: refused } },
          "/rotate": {
            put: { operationId: "rotate", security: [{ basicAuth: [], tokenAuth: [] }], responses: refused },
          },
        },
      };
      answers.set("/k8s", () => ({ status: 401, body: {} }));
      answers.set("/rotate", () => ({ status: 401, body: {} }));
      const results = await run("credential-doubts", doc);
      expect(errors(results)).toEqual([]);
      const warned = results
        .flatMap((r) => r.findings)
        .filter((f) => f.check === "positive_data_acceptance" && f.severity === "warning");
      expect(
        warned.some(
          (f) => f.operation === "k8s" && /cannot present a credential for http mutual/.test(f.documented ?? ""),
        ),
      ).toBe(true);
      expect(
        warned.some(
          (f) =>
            f.operation === "rotate" &&
            /two credentials in one place \(header authorization\)/.test(f.documented ?? ""),
        ),
      ).toBe(true);
    },
  );

  it(
    "does not call an empty Basic credential unauthenticated when an apiKey scheme reads the " +
      "same header: its answer is a warning; no key at all must still be refused",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        components: { securitySchemes: schemes },
        security: [{ basicAuth: [] }, { tokenAuth: [] }],
        paths: { "/info": { get: { operationId: "info", responses: refused } } },
      };
      // The document's letter: any Authorization value is a tokenAuth credential.
      answers.set("/info", (r) =>
        r.headers.authorization !== undefined ? { status: 200, body: {} } : { status: 401, body: {} },
      );
      // As the mock (like Prism, which takes any apiKey value): "Basic " is a wrong tokenAuth credential, which
      // only a live target can show refused, so its acceptance is a warning there.
      const results = await run("empty-basic", doc, true);
      expect(errors(results)).toEqual([]);
      const auth = results.find((r) => r.phase === "auth")!.findings.filter((f) => f.check === "ignored_auth");
      expect(auth.map((f) => f.severity)).toEqual(["warning"]);
      expect(auth[0]!.documented).toMatch(/apiKey scheme tokenAuth reads as a credential/);
      // A live target must refuse it (a wrong credential), and a mock must refuse no key at all.
      expect(errors(await run("empty-basic-live", doc))).toContain(
        "ignored_auth: The API answered a request with an empty API key",
      );
      answers.set("/info", () => ({ status: 200, body: {} }));
      expect(errors(await run("empty-basic-open", doc, true))).toContain(
        "ignored_auth: The API answered a request without an API key",
      );
    },
  );
});

describe("a document's jsonSchemaDialect", () => {
  const doc = (dialect: string, maximum: unknown = 5) => ({
    openapi: "3.1.0",
    info,
    jsonSchemaDialect: dialect,
    paths: {
      "/n": {
        get: {
          operationId: "getN",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum } },
          ],
          responses: ok(
            {
              type: "object",
              required: ["n"],
              properties: {
                n: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum },
                pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
              },
            },
            { examples: { one: { value: { n: 1 } } } },
          ),
        },
      },
    },
  });

  it(
    "reads draft-04 schemas in their meaning (a boolean " +
      "exclusiveMinimum excludes its bound), with no internal error",
    async () => {
      answers.set("/n", () => ({ status: 200, body: { n: 1, pair: ["a", 1] } }));
      const results = await run("draft04", doc("http://json-schema.org/draft-04/schema#"));
      expect(results.filter((r) => r.error).map((r) => r.error)).toEqual([]);
      expect(errors(results)).toEqual([]);
      // limit=0 breaks the exclusive minimum: it is sent as a negative case (and never as a valid one).
      expect(seen.some((r) => r.url.includes("limit=0"))).toBe(true);
      const { specModel } = await import("../model/model.js");
      const model = specModel(join(dir, "draft04.json"));
      const response = model.operation("getN").responses[0]!.content[0]!.schemaPointer!;
      expect(
        model.validator.validate(response, { n: 0 }).map((e) => e.keyword),
        "n: 0 is outside the exclusive minimum",
      ).toEqual(["exclusiveMinimum"]);
      expect(
        model.validator.validate(response, { n: 1, pair: ["a", "b"] }).map((e) => e.keyword),
        "the items array is a tuple",
      ).toEqual(["type"]);
    },
  );

  it("reads a schema's own draft-04 $schema in its meaning too, in a document of the default dialect", async () => {
    const { inDialect } = await import("../model/reading.js");
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "number",
      minimum: 10,
      exclusiveMinimum: true,
      items: [{ type: "string" }],
    };
    const read = inDialect({ openapi: "3.1.0", paths: {}, components: { schemas: { id: schema } } } as never).components
      .schemas.id;
    expect(read).toEqual({ type: "number", exclusiveMinimum: 10, prefixItems: [{ type: "string" }] });
  });

  it(
    "names a schema ajv cannot compile as the document's problem: phases " +
      "skipped with the reason, the response not validated, never a throw",
    async () => {
      // A dialect the suite does not know, whose keyword ajv refuses (a maximum written as text).
      const results = await run("unknown-dialect", doc("https://example.com/my-own-dialect", "5"));
      expect(results.filter((r) => r.error).map((r) => r.error)).toEqual([]);
      expect(errors(results)).toEqual([]);
      const skipped = results.filter(
        (r) => r.status === "skipped" && /cannot be compiled by ajv/.test(r.skipReason ?? ""),
      );
      expect(skipped.map((r) => r.phase).sort()).toEqual(["examples", "negative", "positive"]);
      expect(skipped[0]!.skipReason).toMatch(/#\/paths\/~1n\/get\/parameters\/0\/schema.*my-own-dialect/);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.severity === "warning" &&
              /schema cannot be compiled/.test(f.title) &&
              /my-own-dialect/.test(f.documented),
          ),
      ).toBe(true);
    },
  );
});
