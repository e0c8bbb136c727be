/**
 * Where the credential goes and what is accepted, read per operation from its security and responses; sent so on the
 * wire.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { OperationEntry, SecurityEntry } from "../../openapi/lib/operations.js";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { finding } from "../model/exchange.js";
import { readSettings } from "../config/settings.js";
import { createTarget } from "../transport/target.js";
import { acceptOf, authPlan, credentialValue, describedPrefix, type WireRules } from "../model/wire.js";

const apiKey = (where: string, name = "api_key"): SecurityEntry => ({
  scheme: `key-${where}`,
  type: "apiKey",
  in: where,
  name,
});
const http = (scheme: string): SecurityEntry => ({ scheme, type: "http", httpScheme: scheme });
const op = (security: SecurityEntry[][]) => ({ security });

describe("authPlan", () => {
  it("places apiKey schemes in their header, query parameter or cookie, under their name", () => {
    for (const where of ["header", "query", "cookie"])
      expect(authPlan(op([[apiKey(where, "K")]]))).toEqual({
        kind: "placed",
        placements: [{ in: where, name: "K", format: "raw" }],
        optional: false,
      });
  });

  it("writes an apiKey after the prefix its description shows, else the settings' for a header, else bare", () => {
    const described = (description: string, name = "Authorization") => ({ ...apiKey("header", name), description });
    for (const text of [
      "As `Authorization: Token <jwt>`.",
      "Send `Token xxxxx.yyyyy.zzzzz` in the header.",
      'The header reads "Token {token}".',
      "Token <jwt>",
      "Authorization: Token eyJhbGciOiJIUzI1NiJ9...",
    ])
      expect(describedPrefix(described(text)), text).toBe("Token");
    expect(describedPrefix(described("Use the header as `X-Key: JWT $TOKEN`", "X-Key"))).toBe("JWT");
    for (const text of [
      "The token loginUser answers, in the X-Auth-Token header.",
      "Send the <token> you got at login.",
      "Your key; see https://example.com/keys for <details>.",
      "",
    ])
      expect(describedPrefix(described(text)), text).toBeUndefined();
    const plan = authPlan(op([[described("As `Token <jwt>`")]]));
    expect(plan).toMatchObject({
      placements: [{ in: "header", name: "Authorization", format: "raw", prefix: "Token" }],
    });
    const placement = (plan as { placements: Parameters<typeof credentialValue>[0][] }).placements[0]!;
    expect(credentialValue(placement, "abc.def.ghi")).toBe("Token abc.def.ghi");
    // The settings' prefix, for a header whose description shows none; a query parameter is never prefixed by it.
    expect(authPlan(op([[apiKey("header", "Authorization")]]), "Token")).toMatchObject({
      placements: [{ prefix: "Token" }],
    });
    expect(authPlan(op([[apiKey("query", "key")]]), "Token")).toEqual({
      kind: "placed",
      placements: [{ in: "query", name: "key", format: "raw" }],
      optional: false,
    });
  });

  it("sends bearer for http bearer, oauth2 and openIdConnect, and basic for http basic", () => {
    const auth = (format: string) => ({
      kind: "placed",
      placements: [{ in: "header", name: "Authorization", format }],
      optional: false,
    });
    expect(authPlan(op([[http("bearer")]]))).toEqual(auth("bearer"));
    expect(authPlan(op([[{ scheme: "o", type: "oauth2" }]]))).toEqual(auth("bearer"));
    expect(authPlan(op([[{ scheme: "o", type: "openIdConnect" }]]))).toEqual(auth("bearer"));
    expect(authPlan(op([[http("basic")]]))).toEqual(auth("basic"));
  });

  it("takes the first alternative it can satisfy, and every scheme of it (AND)", () => {
    const plan = authPlan(op([[{ scheme: "m", type: "mutualTLS" }], [apiKey("header", "A"), apiKey("query", "b")]]));
    expect(plan).toEqual({
      kind: "placed",
      placements: [
        { in: "header", name: "A", format: "raw" },
        { in: "query", name: "b", format: "raw" },
      ],
      optional: false,
    });
  });

  it("knows optional ({}) and absent (security: []) authentication", () => {
    expect(authPlan(op([]))).toEqual({ kind: "none", optional: false });
    expect(authPlan(op([[], [http("bearer")]]))).toMatchObject({ kind: "placed", optional: true });
    expect(authPlan(op([[], [{ scheme: "m", type: "mutualTLS" }]]))).toEqual({ kind: "none", optional: true });
  });

  it("names the schemes it cannot satisfy", () => {
    expect(authPlan(op([[{ scheme: "m", type: "mutualTLS" }], [http("digest")], [apiKey("body")]]))).toEqual({
      kind: "unsupported",
      schemes: ["mutualTLS", "http digest", "apiKey in body"],
    });
  });
});

describe("credentialValue", () => {
  it("writes bearer tokens, basic user:password in base64 (a colon-free key is the user name), and raw keys", () => {
    expect(credentialValue({ in: "header", name: "Authorization", format: "bearer" }, "t0k")).toBe("Bearer t0k");
    expect(credentialValue({ in: "header", name: "Authorization", format: "basic" }, "u:p")).toBe(
      `Basic ${Buffer.from("u:p").toString("base64")}`,
    );
    expect(credentialValue({ in: "header", name: "Authorization", format: "basic" }, "key")).toBe(
      `Basic ${Buffer.from("key:").toString("base64")}`,
    );
    expect(credentialValue({ in: "query", name: "k", format: "raw" }, "key")).toBe("key");
  });
});

describe("acceptOf", () => {
  const responses = (...types: string[][]) =>
    ({
      responses: types.map((content, i) => ({
        status: String(200 + i),
        description: "",
        links: [],
        headers: [],
        content: content.map((mediaType) => ({ mediaType, examples: [] })),
      })),
    }) as Pick<OperationEntry, "responses">;
  it("lists the documented response media types once each, or any type when none is documented", () => {
    expect(acceptOf(responses(["text/plain"], ["application/json", "text/plain"]))).toBe(
      "text/plain, application/json",
    );
    expect(acceptOf(responses([]))).toBe("*/*");
  });
});

describe("the target sends what the rules say", () => {
  const KEY = "wire+Test/key=1";
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it(
    "puts the credential in the query and a cookie, sends the " + "operation's Accept, and records neither secret",
    async () => {
      server = await startServer((_req, res) => sendJson(res, 200, {}));
      const rules: WireRules = {
        auth: () => ({
          kind: "placed",
          placements: [
            { in: "query", name: "api_key", format: "raw" },
            { in: "cookie", name: "sid", format: "raw" },
            { in: "header", name: "Authorization", format: "basic" },
          ],
          optional: false,
        }),
        accept: () => "text/plain",
      };
      const target = createTarget(readSettings({ CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: KEY }), rules);
      const ex = await target.send({ operation: "ping", method: "GET", path: "/ping", query: { a: "1" } });
      const seen = server.requests[0]!;
      expect(new URL(seen.url, server.url).searchParams.get("api_key")).toBe(KEY);
      expect(new URL(seen.url, server.url).searchParams.get("a")).toBe("1");
      expect(seen.headers.cookie).toBe(`sid=${encodeURIComponent(KEY)}`);
      expect(seen.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString("base64")}`);
      expect(seen.headers.accept).toBe("text/plain");
      expect(seen.headers["x-api-key"]).toBeUndefined();
      const recorded = JSON.stringify(ex);
      for (const form of [KEY, encodeURIComponent(KEY), Buffer.from(`${KEY}:`).toString("base64")])
        expect(recorded).not.toContain(form);
      // A real key shows as the variable that holds it: the curl line runs as printed and never holds the key.
      expect(ex.request.headers).toMatchObject({
        authorization: `Basic $(printf '%s:' "$CONTRACT_API_KEY" | base64 -w0)`,
        cookie: "sid=$CONTRACT_API_KEY",
      });
      expect(ex.request.url).toBe(`${server.url}/ping?a=1&api_key=$CONTRACT_API_KEY`);
    },
  );

  it(
    "prints a curl line that sends, run as printed in a shell with " +
      "CONTRACT_API_KEY set, the very key and body the suite sent",
    async () => {
      server = await startServer((_req, res) => sendJson(res, 200, {}));
      const rules: WireRules = {
        auth: () => ({
          kind: "placed",
          placements: [
            { in: "header", name: "X-Key", format: "raw" },
            { in: "header", name: "Authorization", format: "basic" },
          ],
          optional: false,
        }),
        accept: () => "application/json",
      };
      const target = createTarget(readSettings({ CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: KEY }), rules);
      const ex = await target.send({
        operation: "ping",
        method: "POST",
        path: "/ping",
        json: { quote: `it's "$HOME" \`x\`` },
      });
      const { curl } = finding(ex, { severity: "error", title: "t", received: "r", documented: "d" });
      expect(curl).not.toContain(KEY);
      await promisify(execFile)("bash", ["-c", curl], { env: { ...process.env, CONTRACT_API_KEY: KEY } });
      const [sent, replayed] = server.requests;
      for (const h of ["x-key", "authorization", "content-type"])
        expect(replayed!.headers[h], h).toBe(sent!.headers[h]);
      expect(replayed!.body).toBe(sent!.body);
    },
  );

  it("sends no credential at all for the no-key probe, and the probe's own value for a wrong one", async () => {
    server = await startServer((_req, res) => sendJson(res, 401, {}));
    const rules: WireRules = {
      auth: () => ({
        kind: "placed",
        placements: [{ in: "header", name: "Authorization", format: "bearer" }],
        optional: false,
      }),
      accept: () => "application/json",
    };
    const target = createTarget(readSettings({ CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: KEY }), rules);
    await target.send({ operation: "x", method: "GET", path: "/x", key: "none" });
    const wrong = await target.send({ operation: "x", method: "GET", path: "/x", key: "wrong" });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[1]!.headers.authorization).toMatch(/^Bearer contract-suite-wrong-key/);
    expect(wrong.request.headers.authorization).toMatch(/^Bearer contract-suite-wrong-key/);
  });
});
