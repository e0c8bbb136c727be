/**
 * The `fetch` wrapper handed to openapi-fetch: auth and default headers, the plain-http guard, one
 * deadline per attempt, buffering of the body inside that deadline, and retries. openapi-fetch's
 * middleware cannot re-send a request (its issues #1122, #2075), so retries live here.
 */
import { ArgumentError, ConnectionError, RequestAbortedError, TimeoutError, makeApiError } from "./errors.js";
import { formatHeaders, safeUrl } from "./redact.js";
import { retryDelayMs, shouldRetry, sleep as defaultSleep, type AttemptOutcome, type RetryMode } from "./retry.js";
import { startAttemptSignal } from "./timeout.js";
import { isLoopbackHost } from "./options.js";

/** Where log lines go; every line is already free of secrets. Defaults to no logging. */
export interface Logger {
  debug?(message: string): void;
  warn?(message: string): void;
}

/** What {@link TransportConfig.onRetry} is told before each retry. */
export interface RetryInfo {
  method: string;
  path: string;
  /** The attempt about to be made (2 for the first retry). */
  nextAttempt: number;
  delayMs: number;
  /** `429`, `503`, `connection`, `timeout`... */
  reason: string;
}

/** Per-call options every helper accepts. */
export interface RequestOptions {
  /** Aborts the call, retries and waits included. */
  signal?: AbortSignal;
  /** Deadline of each attempt in ms, from the moment it starts (headers and body included). */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Which outcomes are retried; see {@link RetryMode}. */
  retryMode?: RetryMode;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Settings of the transport, resolved by the client. */
export interface TransportConfig {
  fetch: typeof globalThis.fetch;
  apiKey(): string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  allowInsecureHttp: boolean;
  logger?: Logger;
  onRetry?: (info: RetryInfo) => void;
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/** What the transport learned about an exchange, keyed by the Response it returned. */
export interface ExchangeMeta {
  attempts: number;
  /** The body as text, with any occurrence of the API key replaced by `***` (decoded once, on first use). */
  bodyText(): string;
  /** The response headers, with any occurrence of the API key replaced by `***`. */
  headers(): Headers;
}

const META = new WeakMap<Response, ExchangeMeta>();

/** The transport's record of the exchange that produced `response` (undefined for foreign responses). */
export function exchangeMeta(response: Response): ExchangeMeta | undefined {
  return META.get(response);
}

const DECODER = new TextDecoder();

/** A browser's opaque answer to `redirect: "manual"` (status 0, no Location to report). */
class RedirectRefused extends Error {
  constructor(readonly response: Response) {
    super("opaque redirect");
  }
}
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * What the returned Response must offer: `body` (a readable copy, for openapi-fetch parsing it, as for
 * `client.raw`), or `meta` (the helpers read the buffered body from {@link exchangeMeta}; a 2xx is then
 * returned as it came, already read, sparing a copy; error bodies are always readable).
 */
export type BodyMode = "body" | "meta";

/** Builds `fetch`-compatible functions bound to `config`, optionally overridden per call. */
export function createTransport(config: TransportConfig): (call?: RequestOptions, bodyMode?: BodyMode) => typeof globalThis.fetch {
  return (call = {}, bodyMode = "body") =>
    async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const url = new URL(request.url);
      const method = request.method;
      const path = url.pathname;
      if (url.protocol === "http:" && !config.allowInsecureHttp && !isLoopbackHost(url.hostname)) {
        throw new ArgumentError("baseUrl", `refusing to send the API key over plain http: to ${url.host}; use https: or set allowInsecureHttp: true`);
      }
      const headers = new Headers(config.headers);
      request.headers.forEach((value, name) => headers.set(name, value));
      for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
      headers.set("X-API-Key", config.apiKey());
      const body = request.body ? await request.arrayBuffer() : undefined;
      const callerSignal = call.signal ?? request.signal;
      const timeoutMs = call.timeoutMs ?? config.timeoutMs;
      const maxRetries = call.maxRetries ?? config.maxRetries;
      // The sitemap POST costs a credit and its 408 already took 60 s: conservative unless the caller says otherwise.
      const mode = call.retryMode ?? (method === "POST" && /\/v1\/site\/map$/.test(path) ? "conservative" : "standard");
      const wait = config.sleep ?? defaultSleep;
      const fetchImpl = config.fetch; // called unbound: browsers throw "Illegal invocation" for fetch with another `this`

      for (let attempt = 1; ; attempt++) {
        config.logger?.debug?.(`webauto-api: ${method} ${safeUrl(request.url)} (attempt ${attempt} of ${maxRetries + 1})\n${formatHeaders(headers)}`);
        const deadline = startAttemptSignal(timeoutMs, callerSignal);
        let outcome: AttemptOutcome;
        let failure: Error | undefined;
        let response: Response | undefined;
        try {
          // Redirects are never followed: fetch keeps custom headers on a cross-origin redirect, so the key
          // would go to whatever address (even plain http:) the Location names.
          const res = await fetchImpl(request.url, { method, headers, body, signal: deadline.signal, redirect: "manual" });
          if (res.type === "opaqueredirect" || res.status === 0) throw new RedirectRefused(res);
          const buffer = await res.arrayBuffer(); // inside the deadline: a stalled body times out too
          response = bodyMode === "meta" && res.ok ? res : rebuild(res, buffer);
          META.set(response, exchangeRecord(attempt, buffer, res.headers, config.apiKey()));
          outcome = { kind: "response", status: res.status, headers: res.headers };
        } catch (err) {
          if (err instanceof RedirectRefused) {
            throw makeApiError({ status: 0, statusText: "opaque redirect", body: "", headers: new Headers(), method, path, attempts: attempt });
          }
          if (deadline.callerAborted()) throw new RequestAbortedError(method, path, { cause: callerSignal?.reason });
          if (deadline.timedOut()) {
            outcome = { kind: "timeout" };
            failure = new TimeoutError(method, path, attempt, timeoutMs, { cause: err });
          } else {
            outcome = { kind: "connection", cause: err };
            failure = new ConnectionError(method, path, attempt, { cause: err });
          }
        } finally {
          deadline.dispose();
        }
        const failed = failure !== undefined || (outcome.kind === "response" && outcome.status >= 400);
        if (!failed || attempt > maxRetries || !shouldRetry(outcome, mode)) {
          if (failure) throw failure;
          return response!;
        }
        const delayMs = retryDelayMs(outcome, attempt - 1);
        const reason = outcome.kind === "response" ? String(outcome.status) : outcome.kind;
        config.onRetry?.({ method, path, nextAttempt: attempt + 1, delayMs, reason });
        config.logger?.warn?.(`webauto-api: retrying ${method} ${path} after ${reason} in ${Math.round(delayMs)} ms (attempt ${attempt + 1} of ${maxRetries + 1})`);
        try {
          await wait(delayMs, callerSignal ?? undefined);
        } catch {
          throw new RequestAbortedError(method, path, { cause: callerSignal?.reason });
        }
      }
    };
}

function exchangeRecord(attempts: number, buffer: ArrayBuffer, headers: Headers, key: string): ExchangeMeta {
  let text: string | undefined;
  let safeHeaders: Headers | undefined;
  return {
    attempts,
    bodyText: () => (text ??= scrub(DECODER.decode(buffer), key)),
    headers() {
      if (!safeHeaders) {
        safeHeaders = new Headers();
        headers.forEach((value, name) => safeHeaders!.append(name, scrub(value, key)));
      }
      return safeHeaders;
    },
  };
}

function rebuild(res: Response, buffer: ArrayBuffer): Response {
  const copy = new Response(NULL_BODY_STATUSES.has(res.status) ? null : buffer, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  Object.defineProperty(copy, "url", { value: res.url });
  return copy;
}

/** Replaces every occurrence of the key (4+ characters) with `***`: a server may echo it in an error body. */
export function scrub(text: string, apiKey: string): string {
  return apiKey.length >= 4 && text.includes(apiKey) ? text.split(apiKey).join("***") : text;
}
