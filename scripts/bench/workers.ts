/**
 * The delay proxy of `npm run bench:workers` (scripts/bench-workers.ts): it holds each request a fixed delay before
 * passing it on, a staging server across a network.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running delay proxy. */
export interface DelayProxy {
  /** Its base URL: `http://127.0.0.1:<port>`; a path on it goes to the same path of the upstream. */
  url: string;
  /** Requests passed on so far. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 that waits `delayMs` after each request arrives, then passes it on to `upstream`
 * (method, path, headers and body as received) and streams the answer back as the upstream gave it.
 */
export async function startDelayProxy(upstream: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(upstream);
  let count = 0;
  const server: Server = createServer((req, res) => {
    count++;
    setTimeout(() => {
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      req.pipe(out);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
