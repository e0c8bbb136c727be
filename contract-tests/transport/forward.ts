/**
 * A local HTTP front that passes each request on to an upstream the caller picks per request, as received (method,
 * path and query, headers, body), and streams the answer back as the upstream gave it (status line and raw
 * headers). A request the upstream does not take closes the client's connection without an answer, as the
 * upstream's own would. The embedded mock's front for several Prism processes (mock-target.ts) and the workers
 * benchmark's delaying proxy (scripts/bench/workers.ts) are this.
 */
import { Agent, createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** Where one request goes: the upstream's base URL, how long to hold it first, what to do when it is not taken. */
export interface Route {
  upstream: string;
  delayMs?: number;
  onUnreached?: () => void;
}

/** A running front. */
export interface Forwarder {
  /** `http://127.0.0.1:<port>`: a path on it goes to the same path of the upstream. */
  url: string;
  close(): Promise<void>;
}

/** Starts a front on 127.0.0.1 that sends each request where `route` says. */
export async function startForwarder(route: (req: IncomingMessage) => Route): Promise<Forwarder> {
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const { upstream, delayMs = 0, onUnreached } = route(req);
    const to = new URL(upstream);
    const send = () => {
      const out = request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.on("aborted", () => res.destroy());
          answer.on("error", () => res.destroy());
          answer.pipe(res);
        },
      );
      out.on("error", () => {
        req.socket.destroy();
        onUnreached?.();
      });
      req.pipe(out);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
