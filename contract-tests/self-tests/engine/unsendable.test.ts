/**
 * What the transport (fetch) cannot send as the document gives it is the suite's problem, never the target's: a
 * body on a GET (left out, its refusal in doubt) or one a 3.0 DELETE requires (sent), a request fetch refuses to
 * build or a 407 it turns into a network error (warnings, the breaker closed), and headers the wire cannot carry as
 * given (left out or rewritten, named: model/wire.ts's carriedHeaders). Whole runs against a real local HTTP server
 * that records what it is sent (support/recording-server.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTarget } from "../../transport/target.js";
import { errors, info, ok, recordingServer } from "../support/recording-server.js";

const { answers, seen, run, dir, base } = recordingServer();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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
        baseUrl: base(),
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
      const { run: runChecks } = (await import("../../modules/index.js")).ALL_CHECKS;
      const { specModel } = await import("../../model/model.js");
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
        baseUrl: base(),
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
    const { carriedHeaders } = await import("../../model/wire.js");
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
