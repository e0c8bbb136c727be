/**
 * `client.raw`: openapi-fetch typed from the document, loaded on its first call. Every method of an
 * openapi-fetch client returns a promise, so a stand-in with the same interface can wait for the real one;
 * middleware registered before that is checked at once (as openapi-fetch does) and applied when it loads.
 * Clients that never use `raw` never load openapi-fetch.
 */
import type { Client, Middleware } from "openapi-fetch";

const METHODS = ["request", "GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** An openapi-fetch client that `load` creates on the first call. */
export function lazyRawClient<Paths extends {}>(load: () => Promise<Client<Paths>>): Client<Paths> {
  const registered: Middleware[] = [];
  let loaded: Client<Paths> | undefined;
  let loading: Promise<Client<Paths>> | undefined;
  const ready = () =>
    (loading ??= load().then((c) => {
      if (registered.length) c.use(...registered);
      loaded = c;
      return c;
    }));
  const raw = Object.fromEntries(
    METHODS.map((m) => [
      m,
      (...args: unknown[]) => ready().then((c) => (c[m] as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as Client<Paths>;
  raw.use = (...middleware) => {
    for (const m of middleware) {
      if (!m || typeof m !== "object" || !("onRequest" in m || "onResponse" in m || "onError" in m))
        throw new Error("Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`");
    }
    registered.push(...middleware);
    loaded?.use(...middleware);
  };
  raw.eject = (...middleware) => {
    for (const m of middleware) registered.splice(registered.indexOf(m) >>> 0, registered.includes(m) ? 1 : 0);
    loaded?.eject(...middleware);
  };
  return raw;
}
