import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { backoffDelayMs, retryAfterMs, retryDelayMs, shouldRetry } from "../index.js";
import { neverReachedServer } from "../../wire/connection.js";

const h = (entries: Record<string, string>) => new Headers(entries);

describe("retryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    [{ "retry-after": "2" }, 2000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after": "0" }, 0],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, 30_000],
    [{ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, 0],
  ])("reads %o as %d ms", (headers, expected) => {
    expect(retryAfterMs(h(headers), now)).toBe(expected);
  });

  it.each([
    [{}],
    [{ "retry-after": "61" }],
    [{ "retry-after": "soon" }],
    [{ "retry-after": "-1" }],
    [{ "retry-after": "Thu, 01 Jan 2026 00:05:00 GMT" }],
  ])("ignores %o (absent, beyond 60 s or unreadable)", (headers) => {
    expect(retryAfterMs(h(headers), now)).toBeUndefined();
  });
});

describe("backoff", () => {
  it("is 0.5 s x 2^n capped at 8 s, minus at most 25 % jitter", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const base = Math.min(500 * 2 ** n, 8000);
        const d = backoffDelayMs(n, () => r);
        return d <= base && d >= base * 0.75;
      }),
    );
    expect(backoffDelayMs(0, () => 0)).toBe(500);
    expect(backoffDelayMs(10, () => 0)).toBe(8000);
  });

  it("prefers the server's Retry-After for responses", () => {
    expect(retryDelayMs({ kind: "response", status: 429, headers: h({ "retry-after": "3" }) }, 0)).toBe(3000);
    expect(retryDelayMs({ kind: "timeout" }, 1, () => 0)).toBe(1000);
  });
});

describe("shouldRetry", () => {
  const res = (status: number) => ({ kind: "response" as const, status, headers: h({}) });
  it("retries 408, 429, 5xx, connection errors and timeouts in standard mode, never other 4xx", () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(shouldRetry(res(s), "standard")).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422]) expect(shouldRetry(res(s), "standard")).toBe(false);
    expect(shouldRetry({ kind: "connection", cause: new Error("reset") }, "standard")).toBe(true);
    expect(shouldRetry({ kind: "timeout" }, "standard")).toBe(true);
  });

  it("retries only 429 and unreached connections in conservative mode (the sitemap POST)", () => {
    for (const s of [408, 500, 502, 503, 504, 400]) expect(shouldRetry(res(s), "conservative")).toBe(false);
    expect(shouldRetry(res(429), "conservative")).toBe(true);
    expect(shouldRetry({ kind: "timeout" }, "conservative")).toBe(false);
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    const reset = new TypeError("fetch failed", {
      cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    });
    expect(shouldRetry({ kind: "connection", cause: refused }, "conservative")).toBe(true);
    expect(shouldRetry({ kind: "connection", cause: reset }, "conservative")).toBe(false);
  });

  it("reads an AggregateError of refused addresses as never reached", () => {
    const agg = Object.assign(
      new AggregateError([
        Object.assign(new Error("a"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("b"), { code: "EHOSTUNREACH" }),
      ]),
      { code: undefined },
    );
    expect(neverReachedServer(new TypeError("fetch failed", { cause: agg }))).toBe(true);
    expect(neverReachedServer(new Error("x"))).toBe(false);
  });
});
