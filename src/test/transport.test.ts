import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  createClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  RedirectNotFollowedError,
  RequestAbortedError,
  RequestTimeoutError,
  ResponseBodyError,
  ResponseValidationError,
  SiteUnavailableError,
  TimeoutError,
  type ClientOptions,
} from "../index.js";
import { causeText } from "../../wire/connection.js";
import { API_KEY, expectNoSecretRecorded, recordingLogger, recordingSleep, rejection } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type Handler, type TestServer } from "./support/server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const okListing = listing([browserRequest("brq_A1")], 1, 30, 1, 1);

async function setup(handler: Handler, options: ClientOptions = {}) {
  const server = await startServer(handler);
  servers.push(server);
  const sleep = recordingSleep();
  const logger = recordingLogger();
  const client = createClient({ baseUrl: server.url, apiKey: API_KEY, sleep: sleep.sleep, logger, ...options });
  return { server, client, delays: sleep.delaysMs, logger };
}

describe("retries", () => {
  it("retries a 429 once, honouring Retry-After in seconds", async () => {
    const { server, client, delays } = await setup((_req, res, n) =>
      n === 1
        ? sendJson(res, 429, { code: "rate_limited", message: "slow down" }, { "retry-after": "2" })
        : sendJson(res, 200, okListing),
    );
    const page = await client.listBrowserRequests();
    expect(page.results[0]?.id).toBe("brq_A1");
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it("honours a Retry-After HTTP date within 60 s", async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    const { client, delays } = await setup((_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}, { "retry-after": at }) : sendJson(res, 200, okListing),
    );
    await client.listBrowserRequests();
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(2_500);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
  });

  it(
    "does not retry when Retry-After asks for more than 60 s: " + "a RateLimitError carries the server's delay",
    async () => {
      const { server, client, delays } = await setup((_req, res, n) =>
        n === 1 ? sendJson(res, 429, {}, { "retry-after": "3600" }) : sendJson(res, 200, okListing),
      );
      const err = (await rejection(client.listBrowserRequests())) as RateLimitError;
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.retryAfterMs).toBe(3_600_000);
      expect(delays).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  );

  it("retries a 503 then succeeds on the second attempt", async () => {
    const { server, client, delays } = await setup((_req, res, n) =>
      n === 1 ? sendJson(res, 503, { code: "busy", message: "try later" }) : sendJson(res, 200, okListing),
    );
    const page = await client.listBrowserRequests({ states: ["completed"] });
    expect(page.total_records).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(375);
    expect(delays[0]).toBeLessThanOrEqual(500);
  });

  it("gives up after 2 retries by default with doubling delays, reporting 3 attempts", async () => {
    const { server, client, delays } = await setup((_req, res) =>
      sendJson(res, 500, { code: "boom", message: "internal" }),
    );
    const err = await rejection(client.listBrowserRequests());
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(375);
    expect(delays[0]).toBeLessThanOrEqual(500);
    expect(delays[1]).toBeGreaterThanOrEqual(750);
    expect(delays[1]).toBeLessThanOrEqual(1000);
  });

  it("makes one attempt only with maxRetries 0, per client or per call", async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 502, {}), { maxRetries: 0 });
    await rejection(client.listBrowserRequests());
    expect(server.requests).toHaveLength(1);
    const other = createClient({ baseUrl: server.url, apiKey: API_KEY, sleep: recordingSleep().sleep });
    await rejection(other.listBrowserRequests({}, { maxRetries: 0 }));
    expect(server.requests).toHaveLength(2);
  });

  it("never retries a 400 or a 404", async () => {
    const { server, client } = await setup((req, res) =>
      sendJson(res, req.method === "GET" ? 400 : 404, { code: "nope", message: "no" }),
    );
    expect(await rejection(client.listBrowserRequests({ page: 99 }))).toBeInstanceOf(BadRequestError);
    expect(await rejection(client.updateSchema("dsc_missing", { fields: [] }))).toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a connection reset and then succeeds", async () => {
    const { server, client, delays } = await setup((req, res, n) =>
      n === 1 ? req.socket.destroy() : sendJson(res, 200, okListing),
    );
    await client.listBrowserRequests();
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it("turns repeated connection resets into a ConnectionError with a cause", async () => {
    const { server, client } = await setup((req) => req.socket.destroy());
    const err = await rejection(client.listBrowserRequests());
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).not.toBeInstanceOf(TimeoutError);
    expect(err.cause).toBeDefined();
    expect((err as ConnectionError).attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it("retries after a refused connection even on the sitemap", async () => {
    const server = await startServer(() => {});
    const url = server.url;
    await server.close();
    const sleep = recordingSleep();
    const client = createClient({ baseUrl: url, apiKey: API_KEY, sleep: sleep.sleep });
    const err = await rejection(client.mapSite({ url: "https://example.com" }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(sleep.delaysMs).toHaveLength(2);
  });
});

describe("timeouts", () => {
  it("times out a response slower than timeoutMs, retries, and reports a TimeoutError with a cause", async () => {
    const { server, client, delays } = await setup(
      (_req, res) => void setTimeout(() => sendJson(res, 200, okListing), 2_000),
      { timeoutMs: 100, maxRetries: 1 },
    );
    const err = await rejection(client.listBrowserRequests());
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.cause).toBeDefined();
    expect((err as TimeoutError).timeoutMs).toBe(100);
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it("times out a body that stalls after the headers", async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"data":');
      },
      { timeoutMs: 150, maxRetries: 0 },
    );
    expect(await rejection(client.listBrowserRequests())).toBeInstanceOf(TimeoutError);
  });

  it("starts the deadline when the request starts, not when the client is created (openapi-fetch #2567)", async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, okListing), { timeoutMs: 500, maxRetries: 0 });
    await new Promise((r) => setTimeout(r, 600));
    await expect(client.listBrowserRequests()).resolves.toMatchObject({ total_records: 1 });
  });

  it("lets a per-call timeoutMs override the client's", async () => {
    const { client } = await setup((_req, res) => void setTimeout(() => sendJson(res, 200, okListing), 1_000), {
      maxRetries: 0,
    });
    expect(await rejection(client.listBrowserRequests({}, { timeoutMs: 50 }))).toBeInstanceOf(TimeoutError);
  });

  it("aborts on the caller's signal without retrying", async () => {
    const controller = new AbortController();
    // The caller gives up once the server has the request (not after a fixed delay: a loaded machine may not
    // have sent it by then).
    const { server, client } = await setup((_req, res) => {
      setTimeout(() => controller.abort(new Error("user gave up")), 20);
      setTimeout(() => sendJson(res, 200, okListing), 1_000);
    });
    const err = await rejection(client.listBrowserRequests({}, { signal: controller.signal }));
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it("aborts during the wait between attempts", async () => {
    const server = await startServer((_req, res) => sendJson(res, 503, {}));
    servers.push(server);
    const controller = new AbortController();
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      sleep: (_ms, signal) => {
        controller.abort();
        return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
      },
    });
    expect(await rejection(client.listBrowserRequests({}, { signal: controller.signal }))).toBeInstanceOf(
      RequestAbortedError,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe("bodies and statuses", () => {
  it("rejects malformed JSON in a 2xx as a ResponseValidationError at the root, rule json", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data": {');
    });
    const err = (await rejection(client.listBrowserRequests())) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.pointer).toBe("");
    expect(err.rule).toBe("json");
    expect(err.body).toBe('{"data": {');
  });

  it("rejects an empty 2xx body", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    expect(((await rejection(client.mapSite({ url: "https://example.com" }))) as ResponseValidationError).rule).toBe(
      "json",
    );
  });

  it("keeps an HTML error page as the raw body of a 502 and says it is not JSON", async () => {
    const html = "<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>";
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(502, { "content-type": "text/html" });
        res.end(html);
      },
      { maxRetries: 0 },
    );
    const err = (await rejection(client.listBrowserRequests())) as InternalServerError;
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(502);
    expect(err.body).toBe(html);
    expect(err.code).toBeNull();
    expect(err.message).toContain("non-JSON body (text/html");
    expect(err.method).toBe("GET");
    expect(err.path).toBe("/v1/browser/requests");
  });

  it("rejects a listing whose shape is wrong, naming the pointer", async () => {
    const { client } = await setup((_req, res) =>
      sendJson(res, 200, {
        data: { results: "nope", total_pages: 1, page: 1, page_size: 1, total_records: 1 },
        error: null,
      }),
    );
    const err = (await rejection(client.listBrowserRequests())) as ResponseValidationError;
    expect(err.pointer).toBe("/data/results");
  });
});

describe("a response whose body cannot be read", () => {
  const plain = Buffer.from(JSON.stringify(okListing));
  /** A 200 declared gzip whose body is the plain JSON, a header echoing the key. */
  const badGzip: Handler = (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "x-echo": API_KEY })
      .end(plain);

  it("throws ResponseBodyError (not ConnectionError) for a body that is not the gzip it says, with status, headers and the decoder's error; a 200 is not retried", async () => {
    const { server, client, logger } = await setup(badGzip);
    const err = (await rejection(client.listBrowserRequests())) as ResponseBodyError;
    expect(err).toBeInstanceOf(ResponseBodyError);
    expect(err).not.toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({
      status: 200,
      kind: "encoding",
      method: "GET",
      path: "/v1/browser/requests",
      attempts: 1,
    });
    expect(err.headers["content-encoding"]).toBe("gzip");
    expect(err.message).toMatch(
      /^the 200 response to GET \/v1\/browser\/requests could not be read: the body does not decode as its Content-Encoding \(gzip\) says.*Z_DATA_ERROR/,
    );
    expect(causeText(err.cause)).toContain("Z_DATA_ERROR");
    expect(server.requests).toHaveLength(1);
    expect(logger.lines.some((l) => l.includes("retrying"))).toBe(false);
    expectNoSecretRecorded();
  });

  it("reads a correctly gzip-encoded body", async () => {
    const { client } = await setup((_req, res) =>
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(plain)),
    );
    expect((await client.listBrowserRequests()).results[0]?.id).toBe("brq_A1");
  });

  it("throws ResponseBodyError for a body cut short by a reset, naming the bytes and the declared length", async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(plain.length) });
      res.write(plain.subarray(0, 20));
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const err = (await rejection(client.listBrowserRequests())) as ResponseBodyError;
    expect(err).toBeInstanceOf(ResponseBodyError);
    expect(err).toMatchObject({ status: 200, kind: "cut", bytesRead: 20 });
    expect(err.message).toMatch(new RegExp(`ended after 20 of the ${plain.length} bytes its Content-Length declares`));
    expect(server.requests).toHaveLength(1);
  });

  it("retries a broken body as its status would be: a 503 under the standard mode, not on the sitemap", async () => {
    const broken503: Handler = (_req, res) =>
      res.writeHead(503, { "content-type": "application/json", "content-encoding": "gzip" }).end(plain);
    const { server, client, delays } = await setup(broken503);
    const err = (await rejection(client.listBrowserRequests())) as ResponseBodyError;
    expect(err).toMatchObject({ status: 503, attempts: 3 });
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    await rejection(client.mapSite({ url: "https://www.example.com" }));
    expect(server.requests).toHaveLength(4);
  });
});

describe("the sitemap POST", () => {
  const input = { url: "https://www.example.com", max_cache_age: 3600 };

  it("does not retry a 408 and says the sitemap timed out after 60 s", async () => {
    const { server, client } = await setup((_req, res) =>
      sendJson(res, 408, {
        type: "sitemap_request",
        id: "smr_1",
        code: "request_timeout",
        message: "The sitemap request exceeded 60 seconds.",
      }),
    );
    const err = (await rejection(client.mapSite(input))) as RequestTimeoutError;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err.message).toMatch(/^sitemap timed out after 60 s/);
    expect(err.code).toBe("request_timeout");
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(server.requests[0]!.body)).toEqual(input);
  });

  it("does not retry a 503 and makes it recognisable as site unavailable", async () => {
    const { server, client } = await setup((_req, res) =>
      sendJson(res, 503, {
        type: "sitemap_request",
        id: null,
        code: "site_unavailable",
        message: "The requested site is unavailable.",
      }),
    );
    const err = await rejection(client.mapSite(input));
    expect(err).toBeInstanceOf(SiteUnavailableError);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toMatch(/^site unavailable/);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 429 on the sitemap", async () => {
    const { server, client } = await setup((_req, res, n) =>
      n === 1
        ? sendJson(res, 429, {}, { "retry-after": "1" })
        : sendJson(res, 200, { url: "https://www.example.com", links: [] }),
    );
    await expect(client.mapSite(input)).resolves.toMatchObject({ links: [] });
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a connection reset on the sitemap (it may have been billed), unless asked to", async () => {
    const { server, client } = await setup((req) => req.socket.destroy());
    expect(await rejection(client.mapSite(input))).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
    await rejection(client.mapSite(input, { retryMode: "standard" }));
    expect(server.requests).toHaveLength(4);
  });

  it("unwraps a {data: ...} sitemap response and logs that it did", async () => {
    const body = {
      id: "smr_1",
      url: "https://www.example.com",
      state: "completed",
      links: ["https://www.example.com/"],
      link_count: 1,
    };
    const { client, logger } = await setup((_req, res) => sendJson(res, 200, { data: body, error: null }));
    await expect(client.mapSite(input)).resolves.toEqual(body);
    expect(logger.lines.some((l) => l.includes('removed a {"data": ...} wrapper'))).toBe(true);
  });

  it("keeps the wrapper when unwrapDataEnvelope is false", async () => {
    const body = { id: "smr_1", url: "https://www.example.com", state: "completed", links: [], link_count: 0 };
    const { client } = await setup((_req, res) => sendJson(res, 200, { data: body }), { unwrapDataEnvelope: false });
    await expect(client.mapSite(input)).resolves.toEqual({ data: body });
  });
});

describe("auth and the wire", () => {
  const authServer: Handler = (req, res) => {
    if (req.headers["x-api-key"] !== API_KEY)
      return sendJson(res, 401, { code: "unauthorized", message: `invalid key ${String(req.headers["x-api-key"])}` });
    return sendJson(res, 200, okListing);
  };

  it("sends X-API-Key, a User-Agent, and the comma-joined ids and status", async () => {
    const { server, client } = await setup(authServer);
    await client.listBrowserRequests({
      ids: ["brq_A1", "brq_B2"],
      states: ["completed", "failed"],
      pageSize: 10,
      page: 2,
    });
    const req = server.requests[0]!;
    expect(req.headers["x-api-key"]).toBe(API_KEY);
    expect(req.headers["user-agent"]).toMatch(/^webauto-api\/\d/);
    expect(req.url).toBe("/v1/browser/requests?ids=brq_A1,brq_B2&status=completed,failed&pageSize=10&page=2");
  });

  it("throws AuthenticationError for a wrong key, with the echoed key scrubbed from the body", async () => {
    const { client } = await setup(authServer);
    const other = createClient({ baseUrl: client.baseUrl, apiKey: `${API_KEY}_wrong`, sleep: recordingSleep().sleep });
    const err = (await rejection(other.listBrowserRequests())) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.status).toBe(401);
    expect(err.body).toContain("invalid key ***");
    expect(err.body).not.toContain(API_KEY);
  });

  it("lets client.raw use the same transport, typed, without throwing for HTTP errors", async () => {
    const { server, client } = await setup(authServer);
    const { data, response } = await client.raw.GET("/v1/browser/requests", {
      params: { query: { status: ["pending", "running"] } },
    });
    expect(response.status).toBe(200);
    expect(data?.data.results[0]?.id).toBe("brq_A1");
    expect(server.requests[0]!.url).toBe("/v1/browser/requests?status=pending,running");
  });

  it("logs each attempt with the key redacted", async () => {
    const { client, logger } = await setup(authServer);
    await client.listBrowserRequests();
    expect(logger.lines.some((l) => /x-api-key: \*\*\*/i.test(l))).toBe(true);
  });

  it("sends extra client and per-call headers but never lets them replace the key", async () => {
    const { server, client } = await setup(authServer, { headers: { "X-Trace": "a", "X-API-Key": "other" } });
    await client.listBrowserRequests({}, { headers: { "X-Call": "b" } });
    expect(server.requests[0]!.headers).toMatchObject({ "x-trace": "a", "x-call": "b", "x-api-key": API_KEY });
  });

  it("reports 404s as NotFoundError and 429s past the retries as RateLimitError", async () => {
    const { client } = await setup((req, res) =>
      sendJson(res, req.method === "PUT" ? 404 : 429, { code: "x", message: "y" }),
    );
    expect(await rejection(client.updateSchema("dsc_x", { fields: [] }))).toBeInstanceOf(NotFoundError);
    expect(await rejection(client.listBrowserRequests())).toBeInstanceOf(RateLimitError);
  });
});

describe("redirects", () => {
  it("never follows a redirect, so the key cannot go to the Location's address", async () => {
    const elsewhere = await startServer((_req, res) => sendJson(res, 200, okListing));
    servers.push(elsewhere);
    const target = `${elsewhere.url.replace("127.0.0.1", "localhost")}/v1/browser/requests`;
    const { server, client } = await setup((_req, res) => {
      res.writeHead(302, { location: target });
      res.end();
    });
    const err = (await rejection(client.listBrowserRequests())) as RedirectNotFollowedError;
    expect(err).toBeInstanceOf(RedirectNotFollowedError);
    expect(err.status).toBe(302);
    expect(err.message).toContain(`redirect to ${target} not followed`);
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe("client.raw", () => {
  it("applies the sitemap's conservative retries to a raw POST too", async () => {
    const { server, client } = await setup((_req, res) =>
      sendJson(res, 503, { code: "site_unavailable", message: "down" }),
    );
    const { error, response } = await client.raw.POST("/v1/site/map", {
      body: { url: "https://example.com", max_cache_age: null },
    });
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ code: "site_unavailable" });
    expect(server.requests).toHaveLength(1);
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(20);
});
