/**
 * The suite's HTTP side against real local servers: retries of unreached connections, causes, 429s, bodies, secrets,
 * budget, breaker; its build and decode steps; and concurrent senders (the gate: places, budget, a 429's pause).
 */
import { createServer as createTcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startServer, sendJson, type TestServer } from "../../src/test/support/server.js";
import { readSettings } from "../config/settings.js";
import { DEFAULT_WIRE_RULES } from "../model/wire.js";
import { RefusedRequest } from "../transport/boundary.js";
import { Credentials } from "../transport/credentials.js";
import { buildRequest } from "../transport/request.js";
import { decodeBody } from "../transport/response.js";
import { createTarget, NotSent, runScrubber, SkipScenario, type Target } from "../transport/target.js";
import { model } from "../fixtures/exchanges.js";
import type { Exchange } from "../model/types.js";
import { ALL_CHECKS } from "../modules/index.js";
import { Gate, type Ticket } from "../transport/gate.js";
import { OutageWatch } from "../transport/outage.js";

const KEY = "sk_live_TargetTest+key/9=";
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const target = (baseUrl: string, extra: Record<string, string> = {}) =>
  createTarget(readSettings({ CONTRACT_BASE_URL: baseUrl, CONTRACT_API_KEY: KEY, ...extra }));
const get = { operation: "listBrowserRequests", method: "GET", path: "/v1/browser/requests" };

describe("createTarget", () => {
  it("retries a connection reset before any answer, then records the answer", async () => {
    const server = await startServer((req, res, n) =>
      n === 1 ? req.socket.destroy() : sendJson(res, 200, { ok: true }),
    );
    servers.push(server);
    const ex = await target(server.url).send(get);
    expect(ex.response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("says why there was no answer (ECONNREFUSED), never only 'fetch failed'", async () => {
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    // Nothing listens there again: the target probes it for up to two deadlines before it stops.
    const ex = await target(`http://127.0.0.1:${port}`, { CONTRACT_TIMEOUT_MS: "1000" }).send(get);
    expect(ex.response.status).toBe(0);
    expect(ex.response.transportError).toMatch(/ECONNREFUSED/);
  });

  it("waits out a 429 with its Retry-After, then records the real answer", async () => {
    const server = await startServer((_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}, { "retry-after": "0" }) : sendJson(res, 200, {}),
    );
    servers.push(server);
    expect((await target(server.url).send(get)).response.status).toBe(200);
  });

  it("waits out three 429s of one request, whatever their Retry-After, then records the fourth", async () => {
    const server = await startServer((_req, res) => sendJson(res, 429, {}, { "retry-after": "0" }));
    servers.push(server);
    const t = target(server.url, { CONTRACT_MAX_REQUESTS: "20" });
    expect((await t.send(get)).response.status).toBe(429);
    expect(server.requests).toHaveLength(4);
  });

  it("never follows a redirect: the 3xx is recorded, the Location never called with the key", async () => {
    const other = await startServer((_req, res) => sendJson(res, 200, {}));
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `${other.url}/steal` });
      res.end();
    });
    servers.push(other, server);
    expect((await target(server.url).send(get)).response.status).toBe(302);
    expect(other.requests).toEqual([]);
  });

  it("keeps only the beginning of a body over the limit, and scrubs the key echoed in any encoding", async () => {
    const echo = `${KEY} ${encodeURIComponent(KEY)} ${KEY.replace("+", "\\u002B").replace("/", "\\/")}`;
    const server = await startServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-echo": encodeURIComponent(KEY) });
      res.end(req.url?.includes("big") ? `"${"x".repeat(5000)}"` : JSON.stringify({ echo }));
    });
    servers.push(server);
    const t = target(server.url, { CONTRACT_MAX_BODY_BYTES: "1024" });
    const small = await t.send(get);
    expect(JSON.stringify(small)).not.toContain(KEY);
    expect(JSON.stringify(small)).not.toContain(encodeURIComponent(KEY));
    expect(small.request.headers["x-api-key"]).toBe("$CONTRACT_API_KEY");
    const big = await t.send({ ...get, path: "/big" });
    expect(big.response).toMatchObject({ truncated: true, bodyLimit: 1024 });
    expect(big.response.json).toBeUndefined();
  });

  it("stops at the request budget, and when a server that stopped answering does not come back", async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    const budget = target(server.url, { CONTRACT_MAX_REQUESTS: "2" });
    await budget.send(get);
    await budget.send(get);
    await expect(budget.send(get)).rejects.toThrow(/request budget of 2 is spent/);
    const silent = createTcpServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const hung = target(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, { CONTRACT_TIMEOUT_MS: "200" });
    // The request gets nothing and neither do the probes after it: it is the culprit, and the target stops.
    const culprit = await hung.send(get);
    expect(culprit.response.transportError).toMatch(/no answer within 200 ms/);
    expect(culprit.response.outage).toMatchObject({ id: 1, culprit: true, probes: 5, recovered: false });
    await expect(hung.send(get)).rejects.toThrow(
      /^skipped: the target stopped answering after GET \/v1\/browser\/requests \(listBrowserRequests\): no answer to it, nor to 5 probes over \d+ ms$/,
    );
    expect(hung.stopped()).toMatch(/stopped answering/);
    silent.close();
  });
});

describe("the build step", () => {
  const scrubber = runScrubber({ apiKey: KEY, secondApiKey: undefined });
  const ctx = {
    baseUrl: "http://127.0.0.1:9/api",
    rules: DEFAULT_WIRE_RULES,
    scrubber,
    credentials: new Credentials({ apiKey: KEY, secondApiKey: undefined }, scrubber),
  };

  it("puts the key on the wire and its variable in the record; keeps a serialised array's commas", () => {
    const built = buildRequest({ ...get, query: { status: "a,b", page: ["1", "2"] }, rawBody: `{"k":"${KEY}"}` }, ctx);
    expect(built.url).toBe("http://127.0.0.1:9/api/v1/browser/requests?status=a,b&page=1&page=2");
    expect(built.headers).toMatchObject({ "x-api-key": KEY, "content-type": "application/json" });
    expect(built.sent.headers["x-api-key"]).toBe("$CONTRACT_API_KEY");
    expect(JSON.stringify(built.sent)).not.toContain(KEY.slice(8));
    expect(built.sent.bodyText).toBe('{"k":"***"}');
  });

  it("refuses a path that would leave the base path (nothing is built to send)", () => {
    expect(() => buildRequest({ ...get, path: "/v1/%2e%2e/%2e%2e/admin" }, ctx)).toThrow(RefusedRequest);
  });
});

describe("the decode step", () => {
  const scrubber = runScrubber({ apiKey: KEY, secondApiKey: undefined });
  const read = (text: string | Uint8Array, extra = {}) => {
    const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
    return { bytes, total: bytes.byteLength, truncated: false, ...extra };
  };

  it("parses JSON, scrubbed of the key, and leaves a body nested past the limit unparsed", () => {
    expect(decodeBody("application/json", read(JSON.stringify({ echo: KEY })), scrubber)).toEqual({
      text: '{"echo":"***"}',
      json: { echo: "***" },
      depth: 1,
    });
    const deep = decodeBody("application/json", read(`${"[".repeat(600)}${"]".repeat(600)}`), scrubber);
    expect(deep).toMatchObject({ json: undefined, depth: 600 });
  });

  it("keeps the text of JSON that is not UTF-8 (a charset error), and no text of a body that did not arrive", () => {
    const bad = decodeBody("application/json", read(new Uint8Array([0x22, 0xff, 0x22])), scrubber);
    expect(bad).toMatchObject({ text: '"\ufffd"', bodyError: { kind: "charset" } });
    const cut = decodeBody(
      "application/json",
      read("{", { bodyError: { kind: "cut", detail: "the body ended", bytesRead: 1 } }),
      scrubber,
    );
    expect(cut).toMatchObject({ text: "", json: undefined, bodyError: { kind: "cut" } });
  });

  it("parses nothing of a body over the limit and keeps only its beginning", () => {
    const big = decodeBody("application/json", read(`"${"x".repeat(9000)}"`, { truncated: true }), scrubber);
    expect(big.text).toHaveLength(4096);
    expect(big).toMatchObject({ json: undefined, depth: 0 });
  });
});

describe("concurrent senders (the gate)", () => {
  it("lets senders waiting on a 429's pause go even when its timer fires before the wall clock says it is over", async () => {
    // Timers faked, the clock not: the pause's timer fires at once, while Date.now() is still inside the pause (as
    // a real timer may by a millisecond). A gate that only woke its senders then left them waiting for ever.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const gate = new Gate(2, 10);
      gate.pause(40);
      let admitted = false;
      const waiting = gate.admit().then(() => {
        admitted = true;
      });
      vi.advanceTimersByTime(40);
      await Promise.resolve();
      expect(admitted).toBe(false);
      for (const start = Date.now(); Date.now() - start < 60; ); // the wall clock passes the pause
      vi.advanceTimersByTime(60);
      await waiting;
      expect(admitted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const many = (t: ReturnType<typeof target>, n: number) =>
    Array.from({ length: n }, (_, i) => t.send({ ...get, query: { i: String(i) } }));
  const withWorkers = (baseUrl: string, workers: number, extra: Record<string, string> = {}) =>
    createTarget({ ...readSettings({ CONTRACT_BASE_URL: baseUrl, CONTRACT_API_KEY: KEY, ...extra }), workers });

  it("keeps at most N requests in flight, as a server counting them sees", async () => {
    let now = 0;
    let most = 0;
    const server = await startServer(async (_req, res) => {
      most = Math.max(most, ++now);
      // Held long enough that the four admitted together overlap at the server, however loaded the machine.
      await pause(250);
      now--;
      sendJson(res, 200, {});
    });
    servers.push(server);
    const exchanges = await Promise.all(many(withWorkers(server.url, 4), 12));
    expect(exchanges.map((ex) => ex.response.status)).toEqual(Array(12).fill(200));
    expect(most).toBe(4);
  });

  it("admits in the order send was called (first come, first served)", async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    await Promise.all(many(withWorkers(server.url, 1), 5));
    expect(server.requests.map((r) => new URL(r.url, server.url).searchParams.get("i"))).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
    ]);
  });

  it("spends the budget exactly: with 8 in flight and a budget of 10, exactly 10 are sent", async () => {
    const server = await startServer(async (_req, res) => {
      await pause(20);
      sendJson(res, 200, {});
    });
    servers.push(server);
    const t = withWorkers(server.url, 8, { CONTRACT_MAX_REQUESTS: "10" });
    const settled = await Promise.allSettled(many(t, 20));
    expect(server.requests).toHaveLength(10);
    expect(t.requestsSent()).toBe(10);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(10);
    const refused = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
    expect(refused).toHaveLength(10);
    for (const err of refused) {
      expect(err).toBeInstanceOf(NotSent);
      expect(err).toBeInstanceOf(SkipScenario);
      expect((err as NotSent).reason).toEqual({
        kind: "budget",
        text: "skipped: the request budget of 10 is spent (CONTRACT_MAX_REQUESTS)",
      });
    }
    expect(t.stopped()).toBe("skipped: the request budget of 10 is spent (CONTRACT_MAX_REQUESTS)");
  });

  it("does not call the budget spent while a request it may give back is on the wire", async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    const t = withWorkers(server.url, 2, { CONTRACT_MAX_REQUESTS: "1" });
    // The runtime refuses a GET with a body before anything is sent: its request of the budget comes back.
    const [refused, sent] = await Promise.all([t.send({ ...get, json: { q: 1 } }), t.send(get)]);
    expect(refused.response.suiteError).toBe(true);
    expect(sent.response.status).toBe(200);
    expect(t.requestsSent()).toBe(1);
    expect(t.stopped()).toBeUndefined();
  });

  it("pauses every sender for a 429's Retry-After, not only the request that got it", async () => {
    let limitedAt = 0;
    const arrivals: number[] = [];
    let limited!: () => void;
    const seen = new Promise<void>((r) => {
      limited = r;
    });
    const server = await startServer((_req, res, n) => {
      if (n === 1) {
        limitedAt = Date.now();
        sendJson(res, 429, {}, { "retry-after": "1" });
        return limited();
      }
      arrivals.push(Date.now());
      sendJson(res, 200, {});
    });
    servers.push(server);
    const t = withWorkers(server.url, 4);
    const first = t.send(get);
    await seen;
    // The others start once the 429 is out (300 ms for the client to read it, on a loaded machine too); without a
    // pause for the whole run they would arrive then, well before the 700 ms the Retry-After of 1 s allows.
    await pause(300);
    const others = await Promise.all(many(t, 3));
    expect((await first).response.status).toBe(200);
    expect(others.map((ex) => ex.response.status)).toEqual([200, 200, 200]);
    expect(arrivals).toHaveLength(4);
    for (const at of arrivals) expect(at - limitedAt).toBeGreaterThanOrEqual(700);
  });
});

// Concurrent: each test mostly waits out a deadline and the probes, and each has its own server.
describe.concurrent("a server that stops answering", () => {
  /** Request deadline of these tests: short, yet long enough for a loaded machine to answer a local server. */
  const DEADLINE = 1000;
  const frozen: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(frozen.map((s) => s.close()));
  });
  /**
   * A server that answers every request (the probe's keyless GET / too) 100 ms after it arrives, except that the
   * request whose query holds `freeze` starts a freeze: nothing due in the `freezeMs` after it is ever answered
   * (so the requests on the wire with it are taken too).
   */
  async function freezing(freezeMs: number) {
    let frozenUntil = 0;
    const server = await startServer(async (req, res) => {
      if (req.url?.includes("freeze")) frozenUntil = Date.now() + freezeMs;
      await new Promise((r) => setTimeout(r, 100));
      if (Date.now() < frozenUntil) return;
      sendJson(res, 200, {});
    });
    frozen.push(server);
    return server;
  }
  const sends = (t: Target, n: number) =>
    Array.from({ length: n }, (_, i) =>
      t.send({ ...get, query: i === 0 ? { i: "0", freeze: "1" } : { i: String(i) } }),
    );
  const targetOf = (url: string, workers: number) =>
    createTarget({
      ...readSettings({ CONTRACT_BASE_URL: url, CONTRACT_API_KEY: KEY, CONTRACT_TIMEOUT_MS: String(DEADLINE) }),
      workers,
    });
  /** The error findings of the checks that judge an answer's absence, over every exchange. */
  const errors = (exchanges: Exchange[]) =>
    exchanges.flatMap((ex) =>
      ALL_CHECKS.run(["not_a_server_error", "response_readable", "server_stopped_answering"], ex, {
        intent: "acceptance",
        strict: false,
        live: true,
        model,
      })
        .filter((f) => f.severity === "error")
        .map((f) => ({ i: ex.request.query.i, check: f.check, title: f.title, received: f.received })),
    );

  it.each([1, 4])(
    "with %i in flight: one error, on the request after which it stopped; the others lost, not sent again",
    async (workers) => {
      // Frozen for two seconds: the request times out at 1 s, the probe then (1 s deadline) gets nothing, and the
      // next one (50 ms later) an answer.
      const server = await freezing(2000);
      const t = targetOf(server.url, workers);
      const exchanges = await Promise.all(sends(t, 8));
      const culprit = exchanges[0]!.response;
      expect(culprit).toMatchObject({ status: 0, outage: { id: 1, culprit: true, recovered: true } });
      const { downMs, probes } = culprit.outage as { downMs: number; probes: number };
      expect(downMs).toBeGreaterThanOrEqual(1500);
      expect(probes).toBeGreaterThanOrEqual(2);
      // The requests on the wire with it are lost to the outage, none sent a second time (one each at the server).
      expect(exchanges.slice(1, workers).map((ex) => ex.response.outage)).toEqual(
        Array(workers - 1).fill({ id: 1, culprit: false }),
      );
      const asked = server.requests.filter((r) => r.headers["x-api-key"]).map((r) => r.url);
      expect(new Set(asked).size).toBe(asked.length);
      expect(asked).toHaveLength(8);
      expect(errors(exchanges)).toEqual([
        {
          i: "0",
          check: "server_stopped_answering",
          title: "The server stopped answering after this request",
          received: expect.stringMatching(/^no answer within 1000 ms \(timeout\); .*it answered again after \d+ ms/),
        },
      ]);
      // What was queued went after the recovery, and the run goes on.
      expect(exchanges.slice(workers).every((ex) => ex.response.status === 200)).toBe(true);
      expect(t.stopped()).toBeUndefined();
      expect((await t.send(get)).response.status).toBe(200);
    },
  );

  it("stops the target, naming the culprit, when the server never comes back; what was queued is not sent", async () => {
    const server = await freezing(Number.POSITIVE_INFINITY);
    const t = targetOf(server.url, 4);
    const settled = await Promise.allSettled(sends(t, 8));
    const sent = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    expect(sent).toHaveLength(4);
    expect(sent[0]!.response.outage).toMatchObject({ id: 1, culprit: true, probes: 5, recovered: false });
    expect(sent.slice(1).map((ex) => ex.response.outage)).toEqual(Array(3).fill({ id: 1, culprit: false }));
    const reason =
      /^skipped: the target stopped answering after GET \/v1\/browser\/requests \(listBrowserRequests\): no answer to it, nor to 5 probes over \d+ ms$/;
    for (const s of settled.slice(4)) {
      expect(s.status).toBe("rejected");
      expect((s as PromiseRejectedResult).reason).toMatchObject({ reason: { kind: "unanswering" } });
      expect((s as PromiseRejectedResult).reason.message).toMatch(reason);
    }
    expect(t.stopped()).toMatch(reason);
    expect(server.requests.filter((r) => r.headers["x-api-key"])).toHaveLength(4);
    expect(errors(sent).map((e) => `${e.i} ${e.check}`)).toEqual(["0 server_stopped_answering"]);
  });
});

describe("the outage watch", () => {
  const unanswered = (ticket: Ticket, what = "GET /x (getX)") => ({
    ticket,
    what,
    detail: "no answer within 40 ms (timeout)",
    statusLine: false,
  });

  it("blames the request sent first, not the one that went unanswered first; the gate holds until it is known", async () => {
    const gate = new Gate(4, 100);
    let probes = 0;
    // Waits of 20 and 40 ms between the probes (shares of a 400 ms deadline); the third is answered.
    const watch = new OutageWatch(gate, async () => ++probes >= 3, 400);
    const [first, second] = [await gate.admit(), await gate.admit()];
    gate.settle(second);
    const late = watch.unanswered(unanswered(second, "GET /second (second)"));
    // Held: nothing is admitted while the probes run.
    let admitted = false;
    const next = gate.admit().then((t) => {
      admitted = true;
      return t;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(admitted).toBe(false);
    gate.settle(first);
    const early = watch.unanswered(unanswered(first, "GET /first (first)"));
    expect(await early).toMatchObject({ id: 1, culprit: true, probes: 3, recovered: true });
    expect(await late).toEqual({ id: 1, culprit: false });
    expect((await next).seq).toBe(3);
    expect(gate.stopped()).toBeUndefined();
  });

  it("leaves a request the probe shows to be its own failure alone, and stops after three in a row", async () => {
    const gate = new Gate(1, 100);
    const watch = new OutageWatch(gate, async () => true, 40);
    for (let i = 0; i < 2; i++) {
      const t = await gate.admit();
      gate.settle(t);
      expect(await watch.unanswered(unanswered(t))).toBeUndefined();
    }
    const answered = await gate.admit();
    gate.settle(answered);
    watch.done(answered, true);
    for (let i = 0; i < 3; i++) {
      const t = await gate.admit();
      gate.settle(t);
      expect(await watch.unanswered(unanswered(t))).toBeUndefined();
    }
    expect(gate.stopped()).toEqual({
      kind: "unanswering",
      text:
        "skipped: the target stopped answering (3 requests in a row got no HTTP response; last: no answer within " +
        "40 ms (timeout))",
    });
  });
});
