/**
 * A document read as it is written: credentials and headers as Conjur's document gives them (a header fetch would
 * add sent with its documented value, a credential the suite cannot present or cannot put in one request, an empty
 * Basic credential an apiKey scheme reads as a token), and a document's jsonSchemaDialect (draft-04 in its meaning,
 * a schema ajv cannot compile named as the document's problem). Whole runs against a real local HTTP server that
 * records what it is sent (support/recording-server.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errors, info, ok, recordingServer } from "../support/recording-server.js";

const { answers, seen, run, dir } = recordingServer();

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
      const { specModel } = await import("../../model/model.js");
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
    const { inDialect } = await import("../../model/reading.js");
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
