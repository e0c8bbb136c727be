/**
 * The delay proxy of `npm run bench:workers` (scripts/bench-workers.ts): it holds each request a fixed delay before
 * passing it on, a staging server across a network.
 */
import { startForwarder } from "../../contract-tests/transport/forward.js";

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
  let count = 0;
  const front = await startForwarder(() => {
    count++;
    return { upstream, delayMs };
  });
  return { url: front.url, requests: () => count, close: front.close };
}
