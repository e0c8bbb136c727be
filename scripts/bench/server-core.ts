/**
 * The bench's HTTP server (scripts/bench-server.ts runs it in its own process; the self-test runs it in
 * process). `GET /v1/browser/requests` answers:
 * - without `page`: the document's listing example, as is (the CPU and throughput rows);
 * - with `page` (and `pageSize`, default 30): a page of generated records, `totalRecords` in all (the
 *   pagination and memory rows).
 * Each answer waits `delayMs` first (0: none). Requests in flight are counted in all and per value of the
 * `x-bench-tag` header (one tag per iterator).
 *
 * Control endpoints (never used by a measured client):
 * - `POST /__bench/config?delayMs=N&totalRecords=N` sets either setting;
 * - `GET /__bench/stats` answers the {@link InflightStats} since the last reset;
 * - `POST /__bench/reset` forgets them.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InflightCounter } from "./helpers.js";

/** The header whose value tags a request (per iterator) for the in-flight counter. */
export const TAG_HEADER = "x-bench-tag";

/** Settings of a bench server; change them with `POST /__bench/config` or directly. */
export interface BenchServerConfig {
  /** Milliseconds each listing answer waits before being sent. */
  delayMs: number;
  /** Records across all pages in paging mode. */
  totalRecords: number;
}

/** A listening bench server. */
export interface BenchServer {
  url: string;
  server: Server;
  counter: InflightCounter;
  config: BenchServerConfig;
  /** Called as each listing request arrives, before any delay (for in-process observers such as tests). */
  onRequest: ((info: { page: number | undefined; tag: string | undefined }) => void) | undefined;
  close(): Promise<void>;
}

/** The records' template and the listing body (the document's listing example). */
export interface BenchBody {
  /** The listing example, serialised once. */
  example: string;
  /** One record (paging mode copies it with a fresh id per record). */
  template: Record<string, unknown>;
}

/** Reads the listing example of `GET /v1/browser/requests` out of a parsed OpenAPI document. */
export function listingExample(doc: Record<string, any>): BenchBody {
  const examples = doc.paths["/v1/browser/requests"].get.responses["200"].content["application/json"].examples;
  const value = examples[Object.keys(examples)[0]!].value;
  return { example: JSON.stringify(value), template: value.data.results[0] };
}

/** One generated page: `pageSize` copies of `template` with ids numbered across pages. */
export function pageBody(
  template: Record<string, unknown>,
  page: number,
  pageSize: number,
  totalRecords: number,
): string {
  const totalPages = Math.ceil(totalRecords / pageSize);
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, totalRecords - start));
  const results = Array.from({ length: count }, (_, i) => ({
    ...template,
    id: `brq_${String(start + i).padStart(30, "0")}`,
  }));
  return JSON.stringify({
    data: { total_pages: totalPages, total_records: totalRecords, results, page, page_size: pageSize },
    error: null,
  });
}

const tagOf = (req: IncomingMessage) => {
  const v = req.headers[TAG_HEADER];
  return typeof v === "string" ? v : undefined;
};

/** Starts a bench server on 127.0.0.1 (`port` 0: any free port). */
export async function startBenchServer(
  body: BenchBody,
  config: Partial<BenchServerConfig> = {},
  port = 0,
): Promise<BenchServer> {
  const counter = new InflightCounter();
  const settings: BenchServerConfig = { delayMs: config.delayMs ?? 0, totalRecords: config.totalRecords ?? 100_000 };
  const timers = new Set<NodeJS.Timeout>();
  const self: Omit<BenchServer, "url" | "close"> = {
    server: undefined as unknown as Server,
    counter,
    config: settings,
    onRequest: undefined,
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/__bench/")) {
      res.setHeader("content-type", "application/json");
      if (url.pathname === "/__bench/stats") return res.end(JSON.stringify(counter.snapshot()));
      if (url.pathname === "/__bench/reset" && req.method === "POST") {
        counter.reset();
        return res.end("{}");
      }
      if (url.pathname === "/__bench/config" && req.method === "POST") {
        for (const key of ["delayMs", "totalRecords"] as const) {
          const v = url.searchParams.get(key);
          if (v !== null) settings[key] = Number(v);
        }
        return res.end(JSON.stringify(settings));
      }
      res.statusCode = 404;
      return res.end("{}");
    }
    if (url.pathname !== "/v1/browser/requests") {
      res.statusCode = 404;
      return res.end('{"data":null,"error":{"message":"not found"}}');
    }
    const tag = tagOf(req);
    const leave = counter.enter(tag);
    res.once("close", leave); // after the response is sent, or when the client aborts it
    const pageParam = url.searchParams.get("page");
    const page = pageParam === null ? undefined : Number(pageParam);
    self.onRequest?.({ page, tag });
    const answer = () => {
      res.setHeader("content-type", "application/json");
      if (page === undefined) return res.end(body.example);
      const pageSize = Number(url.searchParams.get("pageSize") ?? 30);
      res.end(pageBody(body.template, page, pageSize, settings.totalRecords));
    };
    if (settings.delayMs <= 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, settings.delayMs);
    timers.add(timer);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  self.server = server;
  const { port: bound } = server.address() as AddressInfo;
  return Object.assign(self, {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
