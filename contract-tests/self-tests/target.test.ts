import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTarget, retryDelayMs } from "../target.js";
import { toCurl } from "../curl.js";

const SECRET = "sk_live_do_not_print_0123456789";

describe("redaction of the API key", () => {
  let url = "";
  const server = createServer((req, res) => {
    // A hostile server echoing the key back in a header and the body.
    res.writeHead(200, { "content-type": "application/json", "x-echo": String(req.headers["x-api-key"]) });
    res.end(JSON.stringify({ echoed: req.headers["x-api-key"] }));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends the key but records it nowhere: request headers, curl, response headers and body", async () => {
    const target = createTarget({ kind: "live", baseUrl: url, apiKey: SECRET });
    const ex = await target.send({ operation: "listBrowserRequests", method: "GET", path: "/v1/browser/requests" });
    expect(ex.response.json).toEqual({ echoed: "***" });
    expect(JSON.stringify(ex)).not.toContain(SECRET);
    expect(toCurl(ex.request)).toContain("-H 'x-api-key: ***'");
  });

});

describe("redirects", () => {
  it("does not follow a redirect, so the key never reaches the Location, and records the 3xx", async () => {
    const seen: Array<string | undefined> = [];
    const elsewhere = createServer((req, res) => (seen.push(req.headers["x-api-key"] as string | undefined), res.writeHead(200).end("{}")));
    await new Promise<void>((r) => elsewhere.listen(0, "127.0.0.1", r));
    const redirecting = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/steal` }).end());
    await new Promise<void>((r) => redirecting.listen(0, "127.0.0.1", r));
    const target = createTarget({ kind: "live", baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, apiKey: SECRET });
    const ex = await target.send({ operation: "listBrowserRequests", method: "GET", path: "/v1/browser/requests" });
    await Promise.all([elsewhere, redirecting].map((s) => new Promise<void>((r) => s.close(() => r()))));
    expect(ex.response.status).toBe(302);
    expect(seen).toEqual([]);
  });
});

describe("transport failures", () => {
  it("turns a refused connection into a status-0 exchange instead of throwing", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const ex = await createTarget({ kind: "live", baseUrl: `http://127.0.0.1:${port}`, apiKey: SECRET }).send({ operation: "createSitemapRequest", method: "POST", path: "/v1/site/map", json: { url: "https://example.com" } });
    expect(ex.response.status).toBe(0);
    expect(ex.response.transportError).toMatch(/fetch failed|ECONNREFUSED/);
    expect(JSON.stringify(ex)).not.toContain(SECRET);
  });
});

describe("rate limits", () => {
  it("retries a 429 after its Retry-After and records the answer that followed", async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { "retry-after": "0" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const target = createTarget({ kind: "live", baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: SECRET });
    const ex = await target.send({ operation: "listBrowserRequests", method: "GET", path: "/v1/browser/requests" });
    await new Promise<void>((r) => server.close(() => r()));
    expect([ex.response.status, calls]).toEqual([200, 2]);
  });

  it("waits a sane Retry-After, and backs off exponentially otherwise", () => {
    expect(retryDelayMs("2", 0)).toBe(2000);
    expect(retryDelayMs("3600", 1)).toBe(2000);
    expect(retryDelayMs(null, 2)).toBe(4000);
  });
});

