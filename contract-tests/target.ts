/** The server under test (the Prism mock or a live server) and how the suite talks to it. */
import type { Settings } from "./config.js";
import type { Exchange, OperationId } from "./types.js";
import { redact, REDACTED } from "./redact.js";

/** How to authenticate one request: the configured key, none, or a deliberately wrong one. */
export type KeyMode = "valid" | "none" | "wrong";

/** A request to send; `json` is serialised unless `rawBody` is given. */
export interface RequestSpec {
  operation: OperationId;
  method: "GET" | "POST" | "PUT";
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  rawBody?: string;
  key?: KeyMode;
  headers?: Record<string, string>;
}

/** The User-Agent of every request the suite sends. */
export const USER_AGENT = "webauto-api-contract-suite/1.0";

/** A key no real account has; it is not a secret, so reports print it. */
export const WRONG_API_KEY = "contract-suite-wrong-key-0000";

/** The sitemap runs up to 60 s (seed section 8); everything else should answer well within 30 s. */
export function timeoutMsFor(operation: OperationId): number {
  return operation === "createSitemapRequest" ? 75_000 : 30_000;
}

/** How often a 429 (rate limit, not shown by the seed) is retried before the answer counts. */
export const MAX_RATE_LIMIT_RETRIES = 3;

/** Delay before retrying a 429: a sane Retry-After (0-60 s), else 1 s doubling per attempt. */
export function retryDelayMs(retryAfter: string | null, attempt: number): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0 && seconds <= 60) return seconds * 1000;
  const date = retryAfter === null ? NaN : Date.parse(retryAfter);
  if (Number.isFinite(date) && date - Date.now() >= 0 && date - Date.now() <= 60_000) return date - Date.now();
  return 1000 * 2 ** attempt;
}

/** A target: where requests go and the one function that sends them. */
export interface Target {
  kind: Settings["kind"];
  baseUrl: string;
  send(spec: RequestSpec): Promise<Exchange>;
}

function headerRecord(headers: Headers, secret: string): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = redact(value, secret)));
  return out;
}

/** Builds a target that sends with fetch, redacting the key in everything it records. */
export function createTarget(settings: Pick<Settings, "kind" | "baseUrl" | "apiKey">): Target {
  const send = async (spec: RequestSpec): Promise<Exchange> => {
    const search = new URLSearchParams(spec.query ?? {}).toString();
    const url = `${settings.baseUrl}${spec.path}${search ? `?${search}` : ""}`;
    const bodyText = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    // A named User-Agent: the live edge answers some default client agents with a bare 403.
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT, ...(spec.headers ?? {}) };
    if (bodyText !== undefined) headers["content-type"] ??= "application/json";
    const key = spec.key ?? "valid";
    const wire = { ...headers };
    if (key === "valid") wire["x-api-key"] = settings.apiKey;
    if (key === "wrong") wire["x-api-key"] = WRONG_API_KEY;
    const shown = { ...headers, ...(key === "none" ? {} : { "x-api-key": key === "valid" ? REDACTED : WRONG_API_KEY }) };
    const request = { method: spec.method, url, path: spec.path, query: spec.query ?? {}, headers: shown, bodyText, json: spec.json };
    const started = Date.now();
    try {
      // Never follow redirects: fetch would carry X-API-Key to the Location. A 3xx is reported as received.
      const init = () => ({ method: spec.method, headers: wire, body: bodyText, redirect: "manual" as const, signal: AbortSignal.timeout(timeoutMsFor(spec.operation)) });
      let res = await fetch(url, init());
      // Rate limits are not part of the contract (seed section 8: not shown): wait and retry a few times.
      for (let attempt = 0; res.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES; attempt++) {
        await new Promise((r) => setTimeout(r, retryDelayMs(res.headers.get("retry-after"), attempt)));
        res = await fetch(url, init());
      }
      const text = redact(await res.text(), settings.apiKey);
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const response = { status: res.status, headers: headerRecord(res.headers, settings.apiKey), contentType: res.headers.get("content-type"), bodyText: text, json, elapsedMs: Date.now() - started };
      return { operation: spec.operation, request, response };
    } catch (err) {
      const reason = redact(err instanceof Error ? `${err.name}: ${err.message}` : String(err), settings.apiKey);
      const response = { status: 0, headers: {}, contentType: null, bodyText: "", transportError: reason, elapsedMs: Date.now() - started };
      return { operation: spec.operation, request, response };
    }
  };
  return { kind: settings.kind, baseUrl: settings.baseUrl, send };
}
