/**
 * The client against hostile servers and careless input (each case reproduced against a real node:http
 * server): the key never leaks in any encoding, no data is silently lost or sent to the wrong place, and
 * no work is unbounded.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  ArgumentError,
  AuthenticationError,
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  MAX_FIELD_DEPTH,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  type DataSchemaInput,
  type SchemaFieldInput,
} from "../index.js";
import { MAX_ERROR_BODY_CHARS } from "../errors.js";
import { expectNoSecretRecorded, record, recordingSleep, rejection, thrown } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type Handler, type TestServer } from "./support/server.js";

/** A key with the characters .NET and PHP serialisers escape: `+` as \u002B, `/` as \/. */
const KEY = "sk_live_AbC123+xyz/Q9=";
const jsonEscaped = (s: string) => s.replace(/\+/g, "\\u002B").replace(/\//g, "\\/");
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler, options: Record<string, unknown> = {}) {
  const server = await startServer(handler);
  servers.push(server);
  const sleep = recordingSleep();
  return { server, sleep, client: createClient({ baseUrl: server.url, apiKey: KEY, sleep: sleep.sleep, ...options }) };
}

/** Every way the key may be written: raw, JSON-escaped, percent-encoded. */
const forms = [KEY, jsonEscaped(KEY), encodeURIComponent(KEY)];
const leaks = (value: unknown) => {
  const shown = [
    inspect(value, { depth: 10 }),
    String(value),
    JSON.stringify(value) ?? "",
    value instanceof Error ? `${value.message}\n${value.stack}` : "",
  ].join("\n");
  return forms.filter((f) => shown.includes(f));
};

describe("the key never leaks, in any encoding a server echoes it in", () => {
  it("a 401 body echoing it JSON-escaped: not in message, String, stack, JSON or inspect", async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(`{"message": "invalid API key ${jsonEscaped(KEY)}"}`);
    });
    const err = await rejection(client.listBrowserRequests());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).toContain("invalid API key ***");
    expect(leaks(err)).toEqual([]);
    expect(leaks((err as AuthenticationError).body)).toEqual([]);
    expect(leaks((err as AuthenticationError).error)).toEqual([]);
  });

  it("percent-encoded in a header and an HTML entity in a body", async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(403, { "content-type": "text/html", "x-debug": `key=${encodeURIComponent(KEY)}` });
      res.end(`<p>key &#115;k_live_AbC123&#x2B;xyz&#47;Q9=</p>`);
    });
    const err = await rejection(client.listBrowserRequests());
    expect(leaks(err)).toEqual([]);
    expect(JSON.stringify((err as AuthenticationError).headers)).not.toContain(encodeURIComponent(KEY));
  });

  it("in field names of a schema answer: the pairing error names the field, scrubbed", async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"fields": [{"name": "${jsonEscaped(KEY)}", "type": 0, "description": null, "fields": []}]}`);
    });
    const err = await rejection(client.updateSchema("dsc_1", { fields: [{ name: "title", type: "string" }] }));
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toContain('received "***"');
    expect(leaks(err)).toEqual([]);
  });

  it("through client.raw: the error object and 2xx data come back scrubbed", async () => {
    const { client } = await serve((req, res) => {
      res.writeHead(req.url?.includes("page=2") ? 200 : 401, { "content-type": "application/json" });
      res.end(`{"message": "key ${jsonEscaped(KEY)}", "data": {"note": "${jsonEscaped(KEY)}"}}`);
    });
    const failed = await client.raw.GET("/v1/browser/requests", {});
    expect(leaks(failed.error)).toEqual([]);
    const ok = await client.raw.GET("/v1/browser/requests", { params: { query: { page: 2 } } });
    expect(leaks(ok.data)).toEqual([]);
    expect(JSON.stringify(ok.data)).toContain("***");
  });

  it("a short key is scrubbed too (never left unscrubbed silently)", async () => {
    const server = await startServer((_req, res) => sendJson(res, 401, { message: "bad key abc" }));
    servers.push(server);
    const err = await rejection(
      createClient({ baseUrl: server.url, apiKey: "abc", maxRetries: 0 }).listBrowserRequests(),
    );
    expect(err.message).toContain("bad key ***");
  });

  it.each([
    ["a NUL", "sk_live\u0000x"],
    ["a DEL", "sk_live\u007fx"],
    ["a line break", "sk_live\nx"],
    ["a character outside Latin-1", "sk_live_ключ"],
    ["surrounding spaces", " sk_live_x "],
  ])("refuses a key with %s at creation with an ArgumentError naming apiKey, never the key", (_what, apiKey) => {
    const err = thrown(() => createClient({ baseUrl: "http://127.0.0.1:9", apiKey }));
    expect(err).toBeInstanceOf(ArgumentError);
    expect((err as ArgumentError).argument).toBe("apiKey");
    expect(err.message).not.toContain(apiKey.trim());
  });
});

describe("no data silently lost or sent to the wrong place", () => {
  it("walks every page when the server caps a large pageSize (1,000 records, capped at 100)", async () => {
    const records = Array.from({ length: 1000 }, (_, i) => browserRequest(`brq_R${i}`));
    const { client } = await serve((req, res) => {
      const q = new URL(req.url ?? "/", "http://x").searchParams;
      const page = Number(q.get("page") ?? 1);
      const size = Math.min(100, Number(q.get("pageSize") ?? 30));
      sendJson(
        res,
        200,
        listing(
          records.slice((page - 1) * size, page * size),
          page,
          size,
          Math.ceil(records.length / size),
          records.length,
        ),
      );
    });
    const pager = client.iterateBrowserRequests({ pageSize: 500 });
    const ids: string[] = [];
    for await (const r of pager) ids.push(r.id);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(pager.stopReason).toBe("last-page");
  });

  it.each([".", ".."])(
    "refuses %j as a schema id (a dot segment would send PUT to another path), sending nothing",
    async (id) => {
      const { client, server } = await serve((_req, res) => sendJson(res, 200, { fields: [] }));
      const err = await rejection(client.updateSchema(id, { fields: [] }));
      expect(err).toBeInstanceOf(ArgumentError);
      expect((err as ArgumentError).argument).toBe("id");
      expect(server.requests).toEqual([]);
    },
  );

  it.each([
    ["uuid", '"uuid"'],
    [7, "a number"],
    [null, "null"],
  ])("refuses field type %j before sending, naming the field", async (type, said) => {
    const { client, server } = await serve((_req, res) => sendJson(res, 200, { fields: [] }));
    const schema = {
      fields: [{ name: "a", type: "object", fields: [{ name: "b", type }] }],
    } as unknown as DataSchemaInput;
    const err = (await rejection(client.updateSchema("dsc_1", schema))) as ArgumentError;
    expect(err).toBeInstanceOf(ArgumentError);
    expect(err.argument).toBe("schema.fields[0].fields[0].type");
    expect(err.message).toContain(said === "a number" ? "got number" : said === "null" ? "got null" : said);
    expect(server.requests).toEqual([]);
    expect(client.fieldTypeCodes.size).toBe(0);
  });

  it(
    "sends a name the document does not list only with " + "allowUnknownFieldTypes, and learns only string names",
    async () => {
      const { client } = await serve(
        (_req, res) => sendJson(res, 200, { fields: [{ name: "id", type: 8, description: null, fields: [] }] }),
        { allowUnknownFieldTypes: true },
      );
      const got = await client.updateSchema("dsc_1", {
        fields: [{ name: "id", type: "uuid" as SchemaFieldInput["type"] }],
      });
      expect(got.fields[0]!.typeName).toBe("uuid");
      expect([...client.fieldTypeCodes.values()].every((v) => typeof v === "string")).toBe(true);
    },
  );
});

describe("no unbounded work", () => {
  it(
    "bounds the message of a 10 MB error body and escapes its " + "control characters; the body kept is bounded too",
    async () => {
      const message = `boom\u001b[31m\r\nINJECTED ${"x".repeat(10 * 1024 * 1024)}`;
      const { client } = await serve((_req, res) => sendJson(res, 500, { code: "c", message }), { maxRetries: 0 });
      const err = (await rejection(client.listBrowserRequests())) as AuthenticationError;
      expect(err.message.length).toBeLessThan(600);
      expect(err.message).toContain("boom\\u001b[31m\\r\\nINJECTED");
      expect(err.message).not.toMatch(/[\u0000-\u001f]/);
      expect(err.body.length).toBe(MAX_ERROR_BODY_CHARS);
      expect(err.bodyTruncated).toBe(true);
    },
  );

  it.each([
    ["with a Content-Length", true],
    ["chunked, without one", false],
  ])("stops reading a body over maxResponseBytes (%s) with ResponseTooLargeError", async (_what, withLength) => {
    const body = Buffer.alloc(3 * 1024 * 1024, 0x20);
    const { client } = await serve(
      (_req, res) => {
        res.writeHead(200, {
          "content-type": "application/json",
          ...(withLength ? { "content-length": String(body.length) } : {}),
        });
        res.end(body);
      },
      { maxResponseBytes: 1024 * 1024 },
    );
    const err = (await rejection(client.listBrowserRequests())) as ResponseTooLargeError;
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.limitBytes).toBe(1024 * 1024);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
  });

  it("refuses fields nested 5,000 deep with an ArgumentError, not a stack overflow", async () => {
    let field: SchemaFieldInput = { name: "leaf", type: "string" };
    for (let i = 0; i < 5000; i++) field = { name: `f${i}`, type: "object", fields: [field] };
    const { client, server } = await serve((_req, res) => sendJson(res, 200, { fields: [] }));
    const err = await rejection(client.updateSchema("dsc_1", { fields: [field] }));
    expect(err).toBeInstanceOf(ArgumentError);
    expect(err.message).toContain(`deeper than ${MAX_FIELD_DEPTH} levels`);
    expect(server.requests).toEqual([]);
  });

  it("reports a response nesting fields deeper than the client reads as a ResponseValidationError", async () => {
    // Written as text: a 3,000-level tree is deeper than JSON.stringify goes.
    const text = `{"fields":${'[{"name":"f","type":0,"description":null,"fields":'.repeat(3000)}[]${"}]".repeat(3000)}}`;
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(text);
    });
    const err = (await rejection(client.updateSchema("dsc_1", {}))) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.rule).toBe("depth");
  });

  it("refuses more than 10 retries; Retry-After: 0 cannot make a burst (a floor under every delay)", async () => {
    expect(thrown(() => createClient({ baseUrl: "http://127.0.0.1:9", apiKey: KEY, maxRetries: 1000 })).message).toBe(
      "maxRetries: must be at most 10, got 1000",
    );
    const { client, server, sleep } = await serve(
      (_req, res) => sendJson(res, 503, { message: "busy" }, { "retry-after": "0" }),
      { maxRetries: 10 },
    );
    await rejection(client.listBrowserRequests());
    expect(server.requests).toHaveLength(11);
    expect(Math.min(...sleep.delaysMs)).toBeGreaterThanOrEqual(100);
  });

  it("ends with a RateLimitError carrying the server's delay when Retry-After is far beyond the cap", async () => {
    const { client, server } = await serve((_req, res) =>
      sendJson(res, 429, { message: "slow down" }, { "retry-after": "3600" }),
    );
    const err = (await rejection(client.listBrowserRequests())) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
  });
});

it("records what it threw for the secret scan", () => {
  record(new Error("placeholder so the scan has something"));
  expectNoSecretRecorded(1);
});
