/**
 * A request the suite could not build as the document says is the suite's problem, never the target's: the
 * self-tests of how the suite builds requests (self-tests/engine/) show each class of the suite's own mistakes found
 * on real public documents fixed on a small document of that shape, against a real local HTTP server that records
 * what it is sent. Here: that server (one per test file) and whole runs of the suite against it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { runContract } from "../../cli/contract-run.js";
import type { ScenarioResult } from "../../model/types.js";
import { readSettings, type Settings } from "../../config/settings.js";
import { cleanUp, tempDir } from "./spawn.js";

/** One request as the server received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** What the server answers one request. */
type Answer = (r: Received) => { status: number; body: unknown };

/** The recording server of one test file, and whole runs of the suite against it. */
interface RecordingServer {
  /** What the server answers, per path (the rest: 200 with `[]`). */
  answers: Map<string, Answer>;
  /** The requests of the last run, in the order received (emptied when a run starts). */
  seen: Received[];
  /** The folder the documents are written to (removed after the file's tests). */
  dir: string;
  /** The server's base URL (known once the file's tests start). */
  base(): string;
  /**
   * Writes `doc` and runs the whole suite against the recording server (as the mock when `mock`, so example pairs
   * are asked for with Prefer).
   */
  run(name: string, doc: object, mock?: boolean): Promise<ScenarioResult[]>;
}

/**
 * Registers the test file's hooks: before its tests, starts the recording server; after them, stops it and removes
 * the temporary folders.
 */
export function recordingServer(): RecordingServer {
  let server: Server;
  let base = "";
  const seen: Received[] = [];
  const dir = tempDir("contract-built-");
  const answers = new Map<string, Answer>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const r = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        seen.push(r);
        const answer = answers.get(new URL(r.url, "http://x").pathname)?.(r) ?? { status: 200, body: [] };
        res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    cleanUp();
  });

  async function run(name: string, doc: object, mock = false): Promise<ScenarioResult[]> {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc));
    seen.length = 0;
    const settings: Settings = {
      ...readSettings({ CONTRACT_BASE_URL: base, CONTRACT_API_KEY: "k", CONTRACT_SPEC: file, CONTRACT_EXAMPLES: "2" }),
      ...(mock ? { kind: "mock" as const } : {}),
    };
    return (await runContract(settings)).results;
  }

  return { answers, seen, dir, base: () => base, run };
}

/** A run's error findings, as `check: title`. */
export const errors = (results: ScenarioResult[]) =>
  results
    .flatMap((r) => r.findings)
    .filter((f) => f.severity === "error")
    .map((f) => `${f.check}: ${f.title}`);
/** An operation's responses: a 200 of JSON under `schema` (and `extra`, its examples), nothing else. */
export const ok = (schema: object = { type: "array" }, extra: object = {}) => ({
  "200": { description: "ok", content: { "application/json": { schema, ...extra } } },
});
/** The documents' info. */
export const info = { title: "shape", version: "1" };
