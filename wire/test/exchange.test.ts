/**
 * The shared steps of an exchange against real local servers: the deadline over headers and body, the bounded
 * body read and why a body did not arrive whole, and what a rejected fetch means.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createTcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BodyReadError, bodyFailureOf, deadlineFailure, readLimited } from "../body.js";
import { fetchFailure, neverReachedServer } from "../connection.js";
import { startDeadline } from "../deadline.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

describe("startDeadline", () => {
  it("aborts at the deadline and says it was the deadline, not the caller", async () => {
    const deadline = startDeadline(30);
    await new Promise((r) => deadline.signal.addEventListener("abort", r));
    expect(deadline.timedOut()).toBe(true);
    expect(deadline.callerAborted()).toBe(false);
    deadline.dispose();
  });

  it("follows the caller's signal, and once disposed never fires", async () => {
    const caller = new AbortController();
    const deadline = startDeadline(10_000, caller.signal);
    caller.abort(new Error("stop"));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.callerAborted()).toBe(true);
    expect(deadline.timedOut()).toBe(false);
    const quiet = startDeadline(20);
    quiet.dispose();
    await new Promise((r) => setTimeout(r, 60));
    expect(quiet.signal.aborted).toBe(false);
  });
});

describe("reading a body", () => {
  it("ends a stalled body at the deadline, counting what arrived against its Content-Length", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "10" });
      res.write("abcd");
    });
    // Long enough for a loaded machine to deliver the headers and the first bytes.
    const deadline = startDeadline(3000);
    const res = await fetch(url, { signal: deadline.signal });
    const err = await readLimited(res, 1024, false, deadline.signal).catch((e: unknown) => e);
    deadline.dispose();
    expect(err).toBeInstanceOf(BodyReadError);
    expect(deadline.timedOut()).toBe(true);
    expect(deadlineFailure(err, res.headers, 3000)).toEqual({
      kind: "timeout",
      detail:
        "the body did not finish within the request's deadline of 3000 ms (4 bytes arrived of the 10 its Content-Length declares)",
      bytesRead: 4,
    });
  });

  it("names a connection cut mid-body with the socket's own words", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "10", connection: "close" });
      res.end("abcd");
    });
    const res = await fetch(url);
    const err = await readLimited(res, 1024).catch((e: unknown) => e);
    expect(bodyFailureOf(err, res.headers)).toMatchObject({
      kind: "cut",
      detail: expect.stringMatching(/^the body ended after 4 of the 10 bytes its Content-Length declares: /),
      bytesRead: 4,
    });
  });

  it("keeps the first bytes of a body over the limit and says it was cut", async () => {
    const url = await serve((_req, res) => res.end("x".repeat(5000)));
    const read = await readLimited(await fetch(url), 100);
    expect(read).toMatchObject({ truncated: true });
    expect(read.bytes.byteLength).toBe(100);
  });
});

describe("fetchFailure", () => {
  it("tells a request the runtime refused to build (nothing sent) from one that got no answer", async () => {
    const url = await serve((_req, res) => res.end());
    const refused = await fetch(url, { method: "GET", body: "x" }).catch((e: unknown) => e);
    expect(fetchFailure(refused, false)).toMatchObject({ kind: "refused" });
    const port = await closedPort();
    const unreached = await fetch(`http://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect(fetchFailure(unreached, false)).toEqual({
      kind: "failed",
      cause: expect.stringMatching(/ECONNREFUSED/),
      resendable: true,
    });
    expect(neverReachedServer(unreached)).toBe(true);
  });

  it("calls a connection closed before any answer resendable, and a deadline a timeout", async () => {
    const url = await serve((req) => req.socket.destroy());
    const reset = await fetch(url).catch((e: unknown) => e);
    expect(fetchFailure(reset, false)).toMatchObject({ kind: "failed", resendable: true });
    expect(neverReachedServer(reset), "it reached a server: the client's conservative mode does not resend").toBe(
      false,
    );
    const silent = await serve(() => {});
    const deadline = startDeadline(50);
    const late = await fetch(silent, { signal: deadline.signal }).catch((e: unknown) => e);
    expect(fetchFailure(late, deadline.timedOut())).toEqual({ kind: "timeout" });
  });

  it("reads a network error without a cause of its own as an answer fetch withheld", () => {
    const withheld = new TypeError("fetch failed", { cause: new Error("") });
    expect(fetchFailure(withheld, false)).toEqual({ kind: "withheld" });
    expect(fetchFailure(new Error("boom"), false)).toEqual({ kind: "failed", cause: "boom", resendable: false });
  });
});
