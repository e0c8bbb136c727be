/**
 * Documented examples as the suite sends them and asks the mock for them: an example pair's Prefer header beside the
 * required headers, never for a lone `example:` by a name it was not given, in the media type that holds the
 * response example; and the bodies a document's examples and media types lead to (an example that breaks its own
 * schema, a Swagger 2.0 body without consumes, a media range as the Content-Type, a 3.0 `format: byte` value).
 * Whole runs against a real local HTTP server that records what it is sent (support/recording-server.ts).
 */
import { describe, expect, it } from "vitest";
import { errors, info, ok, recordingServer } from "../../support/recording-server.js";

const { answers, seen, run } = recordingServer();

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
