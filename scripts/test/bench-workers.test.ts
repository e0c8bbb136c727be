/**
 * The delay proxy of `npm run bench:workers` (scripts/bench/workers.ts), so the benchmark cannot rot unnoticed:
 * it passes a request on as received (method, path and query, headers, body) only after its delay, and the answer
 * back as the upstream gave it. Behaviour only: no speed is asserted.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { startDelayProxy } from "../bench/workers.js";

const arrivals: number[] = [];
const upstream = createServer((req, res) => {
  arrivals.push(performance.now());
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    res.writeHead(201, { "content-type": "application/json", "x-upstream": "yes" });
    res.end(JSON.stringify({ method: req.method, url: req.url, key: req.headers["x-api-key"], body }));
  });
});
await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

it("holds a request its delay, then passes it on and the answer back unchanged", async () => {
  const proxy = await startDelayProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, 120);
  try {
    const sent = performance.now();
    const res = await fetch(`${proxy.url}/variant/x/v1/things?page=2`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", url: "/variant/x/v1/things?page=2", key: "k", body: '{"a":1}' });
    // The upstream saw the request no sooner than the delay after it was sent (a lower bound, not a speed).
    expect(arrivals.at(-1)! - sent).toBeGreaterThanOrEqual(110);
    expect(proxy.requests()).toBe(1);
  } finally {
    await proxy.close();
  }
});
