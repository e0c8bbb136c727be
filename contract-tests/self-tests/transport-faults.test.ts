/**
 * A response that began is the target's: one small node:http server per fault of the wire after the status
 * line (a body not in its Content-Encoding, a connection cut mid-body, a Content-Length that lies, JSON that is
 * not UTF-8, a body that stalls), the whole suite run against a one-operation document, and the verdict FAIL
 * with the target's error naming the fault: never PASS, never the suite's own doubt. The stalled body ends at
 * the request's deadline.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { buildReport } from "../report/render.js";
import { readSettings } from "../config/settings.js";
import { createTarget } from "../transport/target.js";
import { cleanUp, runSuite, tempDir } from "./support/spawn.js";

/** The request deadline of every run here: short, yet long enough for a loaded machine to answer a local server. */
const DEADLINE_MS = 1000;
const BODY = Buffer.from(JSON.stringify({ items: [{ id: "a1", name: "first" }], total: 1 }));
const half = BODY.subarray(0, Math.floor(BODY.length / 2));

/** `text` as a regular expression that matches it exactly. */
const literally = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/**
 * Each fault: how the server answers a GET, what the finding must say it received, and the check that reports
 * it (response_readable, unless said).
 */
const FAULTS: Record<string, { answer: (res: ServerResponse) => void; names: RegExp; check?: string }> = {
  "bad gzip": {
    answer: (res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(BODY),
    names: /content-encoding: gzip.*does not decode as its Content-Encoding \(gzip\).*Z_DATA_ERROR/,
  },
  "bad deflate": {
    answer: (res) =>
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "deflate" }).end(BODY),
    names: /does not decode as its Content-Encoding \(deflate\).*Z_DATA_ERROR/,
  },
  "bad br": {
    answer: (res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" }).end(BODY),
    names: /does not decode as its Content-Encoding \(br\)/,
  },
  "a chunked body cut by a connection reset": {
    answer: (res) => {
      res.writeHead(200, { "content-type": "application/json" }).write(half);
      setTimeout(() => res.socket?.destroy(), 10);
    },
    names: /status 200.*transfer-encoding: chunked.*ended before it was complete.*other side closed/,
  },
  "a Content-Length longer than the body": {
    answer: (res) =>
      res
        .writeHead(200, {
          "content-type": "application/json",
          "content-length": String(BODY.length + 50),
          connection: "close",
        })
        .end(BODY),
    names: new RegExp(`ended after ${BODY.length} of the ${BODY.length + 50} bytes its Content-Length declares`),
  },
  // fetch reads the declared bytes and drops the rest, so what is caught is the cut JSON (docs/contract-suite.md).
  "a Content-Length shorter than the body": {
    answer: (res) =>
      res.writeHead(200, { "content-type": "application/json", "content-length": String(half.length) }).end(BODY),
    names: literally(JSON.stringify(half.toString())),
    check: "content_type_conformance",
  },
  "JSON that is not UTF-8": {
    answer: (res) =>
      res
        .writeHead(200, { "content-type": "application/json; charset=utf-8" })
        .end(Buffer.concat([BODY.subarray(0, 10), Buffer.from([0xc3, 0x28]), BODY.subarray(10)])),
    names: /not valid UTF-8: 0xC3 0x28 .* at byte 10/,
  },
  "a body that stalls after the headers": {
    answer: (res) => res.writeHead(200, { "content-type": "application/json" }).write(half),
    names: new RegExp(`did not finish within the request's deadline of ${DEADLINE_MS} ms`),
  },
};

const dir = tempDir("contract-transport-");
const docPath = join(dir, "items.json");
const servers = new Map<string, { server: Server; url: string }>();

/** Serves `answer` to every GET of the document's path; 405 to any other method, as RFC 9110 says. */
async function serve(answer: (res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    res.on("error", () => {});
    if (req.method !== "GET") return void res.writeHead(405, { allow: "GET" }).end();
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  writeFileSync(
    docPath,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "items", version: "1" },
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            responses: {
              "200": {
                description: "the items",
                content: { "application/json": { schema: { type: "object", required: ["items"] } } },
              },
            },
          },
        },
      },
    }),
  );
  for (const [name, { answer }] of Object.entries(FAULTS)) servers.set(name, await serve(answer));
  servers.set("good gzip", await serve((res) => res.writeHead(200, encoded).end(gzipSync(BODY))));
});
const encoded = { "content-type": "application/json", "content-encoding": "gzip" };

afterAll(async () => {
  for (const { server } of servers.values()) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  cleanUp();
});

async function run(name: string): Promise<{ results: ScenarioResult[]; verdict: string }> {
  const settings = readSettings({
    CONTRACT_BASE_URL: servers.get(name)!.url,
    CONTRACT_API_KEY: "transport-test-key",
    CONTRACT_SPEC: docPath,
    CONTRACT_TIMEOUT_MS: String(DEADLINE_MS),
    CONTRACT_EXAMPLES: "2",
  });
  const { results } = await runContract(settings);
  const report = buildReport(
    { kind: "live", baseUrl: "", strict: false, spec: docPath },
    [],
    results,
    { entries: [] },
    0,
  );
  return { results, verdict: report.verdict };
}

describe("a response that began is the target's", () => {
  it.each(Object.keys(FAULTS))(
    "%s: the run fails with the target's error naming the fault, never the suite's doubt",
    async (name) => {
      const { results, verdict } = await run(name);
      const findings = results.flatMap((r) => r.findings);
      expect(verdict).toBe("fail");
      const check = FAULTS[name]!.check ?? "response_readable";
      const readable = findings.filter((f) => f.check === check);
      expect(readable.length).toBeGreaterThan(0);
      for (const f of readable) {
        expect(f.severity).toBe("error");
        expect(f.received).toMatch(FAULTS[name]!.names);
        expect(f.promise).toMatch(/^#\/paths\/~1items\/get\/responses\/200/);
      }
      // Nothing is blamed on the suite, nothing is called "no HTTP response", and no other check reports it again.
      expect(findings.filter((f) => f.check !== check).map((f) => `${f.check}: ${f.title}`)).toEqual([]);
    },
  );

  it("a correctly gzip-encoded body passes", async () => {
    const { results, verdict } = await run("good gzip");
    expect(results.flatMap((r) => r.findings).map((f) => `${f.check}: ${f.title}`)).toEqual([]);
    expect(verdict).toBe("pass");
  });

  it(
    "ends a stalled body at the request's deadline, recorded on " + "the exchange, and opens the breaker after three",
    async () => {
      const target = createTarget(
        readSettings({
          CONTRACT_BASE_URL: servers.get("a body that stalls after the headers")!.url,
          CONTRACT_API_KEY: "k",
          CONTRACT_TIMEOUT_MS: String(DEADLINE_MS),
        }),
      );
      const get = { operation: "listItems", method: "GET", path: "/items" };
      for (let i = 0; i < 3; i++) {
        const { response } = await target.send(get);
        expect(response).toMatchObject({ status: 200, bodyError: { kind: "timeout" } });
        expect(response.bodyError!.bytesRead).toBe(half.length);
        // The deadline fired (the exchange is recorded as at least that long), and no second wait followed it.
        expect(response.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
        expect(response.elapsedMs).toBeLessThan(10_000);
      }
      await expect(target.send(get)).rejects.toThrow(/3 requests in a row got no complete answer within the deadline/);
    },
  );

  it("npm run contract exits 1 (FAIL) on the corrupt gzip, the finding in its summary", async () => {
    const out = await runSuite(
      {
        CONTRACT_BASE_URL: servers.get("bad gzip")!.url,
        CONTRACT_API_KEY: "transport-test-key",
        CONTRACT_SPEC: docPath,
        CONTRACT_EXAMPLES: "2",
      },
      [],
    );
    expect(out.code).toBe(1);
    expect(out.report?.verdict).toBe("fail");
    expect(out.output).toMatch(/response_readable/);
    expect(out.output).not.toMatch(/the suite's problem/);
  }, 60_000);
});
