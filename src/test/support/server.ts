/**
 * A real node:http server on 127.0.0.1 (port 0) for the client tests: each test passes a handler that
 * injects the fault it needs; every request is recorded (method, url, headers, body).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A handler; `n` is the 1-based number of this request on the server. */
export type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse, n: number) => unknown;

/** A running test server. */
export interface TestServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Starts a server with `handler`. */
export function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      Promise.resolve(handler(Object.assign(req, { body }), res, requests.length)).catch((err) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/** Sends a JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** A browser request record with a given id (valid against the document). */
export function browserRequest(id: string): Record<string, unknown> {
  return {
    id,
    url: "https://example.com/",
    proxy_location: null,
    state: "completed",
    credit_usage: 1,
    error: null,
    error_reason: null,
    actual_url: "https://example.com/",
    http_status_code: 200,
    from_cache: false,
    started_at: "2024-11-22T16:31:16.6080484+00:00",
    completed_at: "2024-11-22T16:31:47.1020000+00:00",
    running_time: "00:00:30.4939516",
    page_load_time: "00:00:04.5297660",
    actions: [],
    video: null,
  };
}

/** A listing envelope. */
export function listing(
  results: unknown[],
  page: number,
  pageSize: number,
  totalPages: number,
  totalRecords: number,
): unknown {
  return {
    data: { total_pages: totalPages, total_records: totalRecords, results, page, page_size: pageSize },
    error: null,
  };
}
