import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  ArgumentError,
  ConnectionError,
  createClient,
  RequestAbortedError,
  ResponseValidationError,
  TimeoutError,
  WebautoError,
  type WebautoClient,
} from "../index.js";
import {
  API_KEY,
  expectNoSecretRecorded,
  recordingLogger,
  recordingSleep,
  rejection,
  renderings,
  thrown,
} from "./support/secrets.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

// One server that produces every failure the client knows, selected by path.
let server: TestServer;
let client: WebautoClient;
const logger = recordingLogger();
const errors: Error[] = [];

beforeAll(async () => {
  server = await startServer((req, res) => {
    const mode = new URL(req.url ?? "/", "http://x").searchParams.get("ids") ?? "";
    const echo = `key was ${String(req.headers["x-api-key"])}`;
    if (req.method === "POST")
      return sendJson(
        res,
        408,
        { code: "request_timeout", message: echo },
        { "x-echo-key": String(req.headers["x-api-key"]) },
      );
    if (req.method === "PUT")
      return sendJson(res, 200, { fields: [{ name: "other", type: 1, description: echo, fields: [] }] });
    if (mode === "brq_reset") return req.socket.destroy();
    if (mode === "brq_slow") return void setTimeout(() => sendJson(res, 200, {}), 3_000);
    if (mode === "brq_html") {
      res.writeHead(500, { "content-type": "text/html" });
      return res.end(`<html>${echo}</html>`);
    }
    if (mode === "brq_badjson") {
      res.writeHead(200);
      return res.end(`{${echo}`);
    }
    for (const status of [400, 401, 403, 404, 409, 422, 429, 503])
      if (mode === `brq_s${status}`) return sendJson(res, status, { code: `c${status}`, message: echo });
    return sendJson(res, 418, { message: echo });
  });
  client = createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    timeoutMs: 400,
    sleep: recordingSleep().sleep,
    logger,
  });
});
afterAll(async () => {
  await server?.close();
});

describe("the API key never appears", () => {
  it("in any error of any kind the client throws, however it is printed", async () => {
    const modes = [
      "reset",
      "slow",
      "html",
      "badjson",
      "teapot",
      ...[400, 401, 403, 404, 409, 422, 429, 503].map((s) => `s${s}`),
    ];
    for (const mode of modes) errors.push(await rejection(client.listBrowserRequests({ ids: [`brq_${mode}`] })));
    errors.push(await rejection(client.mapSite({ url: "https://example.com" })));
    errors.push(await rejection(client.updateSchema("dsc_1", { fields: [{ name: "mine", type: "string" }] })));
    const aborted = new AbortController();
    aborted.abort();
    errors.push(await rejection(client.listBrowserRequests({}, { signal: aborted.signal })));
    errors.push(thrown(() => createClient({ baseUrl: "http://api.example.com", apiKey: API_KEY })));
    errors.push(thrown(() => createClient({ baseUrl: "https://x.example", apiKey: ` ${API_KEY}` })));
    const kinds = new Set(errors.map((e) => e.constructor.name));
    for (const kind of [
      ConnectionError,
      TimeoutError,
      ApiError,
      ResponseValidationError,
      RequestAbortedError,
      ArgumentError,
    ]) {
      expect(
        errors.some((e) => e instanceof kind),
        kind.name,
      ).toBe(true);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(14);
    for (const err of errors) {
      expect(err).toBeInstanceOf(WebautoError);
      for (const text of renderings(err)) expect(text).not.toContain(API_KEY);
      for (const text of renderings(err.cause)) expect(text).not.toContain(API_KEY);
    }
  });

  it("in the body and headers an error keeps, even when the server echoed the key", () => {
    const apiErrors = errors.filter((e): e is ApiError => e instanceof ApiError);
    expect(apiErrors.length).toBeGreaterThan(5);
    for (const err of apiErrors) {
      expect(err.body).not.toContain(API_KEY);
      expect(inspect(err.headers)).not.toContain(API_KEY);
    }
    expect(apiErrors.some((e) => e.body.includes("key was ***"))).toBe(true);
  });

  it("in the log lines, which show the header as X-API-Key: ***", () => {
    expect(logger.lines.length).toBeGreaterThan(10);
    expect(logger.lines.join("\n")).toMatch(/x-api-key: \*\*\*/i);
  });

  it("in the client itself", () => {
    for (const text of renderings(client)) expect(text).not.toContain(API_KEY);
    expect(Object.getOwnPropertyNames(client).join(",")).not.toMatch(/apiKey/);
  });
});

it("never shows the API key in anything recorded in this file", () => {
  expectNoSecretRecorded(50);
});
