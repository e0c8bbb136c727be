/**
 * Sending one call: auth and default headers, the plain-http guard, one deadline per attempt (covering the
 * body), a bounded body read, and retries under the operation's retry mode. The helpers call `send`
 * directly; `client.raw` (openapi-fetch) gets the same behaviour through `fetchFor`, since openapi-fetch's
 * middleware cannot re-send a request (its issues #1122, #2075).
 */
import { BodyReadError, bodyFailureOf, readLimited } from "./body.js";
import {
  ArgumentError,
  ConnectionError,
  RequestAbortedError,
  ResponseBodyError,
  ResponseTooLargeError,
  TimeoutError,
} from "./errors.js";
import { makeApiError } from "./error-factory.js";
import { isLoopbackHost } from "./hosts.js";
import { POLICY } from "./policy.js";
import { formatHeaders, safeUrl, scrubbedHeaders, type Scrubber } from "./redact.js";
import {
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  retryDelayMs,
  shouldRetry,
  sleep as defaultSleep,
  type AttemptOutcome,
  type RetryMode,
} from "./retry.js";
import { operationFor } from "./routes.js";
import { startAttemptSignal } from "./timeout.js";

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
  /** Retries after the first attempt (0 to 10). */
  maxRetries?: number;
  /** Which outcomes are retried; see {@link RetryMode}. */
  retryMode?: RetryMode;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Settings of the transport, resolved by the client. */
export interface TransportConfig {
  fetch: typeof globalThis.fetch;
  /** Headers of every request, the API key included. */
  headers: Record<string, string>;
  /** The name of the header that carries the key (it always wins over a caller's header of that name). */
  keyHeader: string;
  timeoutMs: number;
  maxRetries: number;
  maxResponseBytes: number;
  allowInsecureHttp: boolean;
  scrubber: Scrubber;
  logger?: Logger;
  onRetry?: (info: RetryInfo) => void;
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/** One call to send. */
export interface Outgoing {
  method: string;
  url: string;
  body?: BodyInit;
  /** Headers of this call (the client's own win for the API key). */
  headers?: Record<string, string>;
  /** The body is JSON (sends `Content-Type: application/json`). */
  json?: boolean;
  operationId?: string;
}

/** The final answer to a call (after retries). The body is buffered and not yet scrubbed. */
export interface Incoming {
  method: string;
  /** The path part of the URL (for messages). */
  path: string;
  status: number;
  statusText: string;
  headers: Headers;
  url: string;
  body: Uint8Array;
  attempts: number;
  operationId: string | undefined;
  /** The server asked to wait longer than the client honours (`Retry-After` beyond 60 s): not retried. */
  retryAfterMs: number | undefined;
}

const DECODER = new TextDecoder();

/** Decodes a buffered body as UTF-8. */
export function decode(body: Uint8Array): string {
  return DECODER.decode(body);
}

/** A browser's opaque answer to `redirect: "manual"` (status 0, no Location to report). */
class RedirectRefused extends Error {}

/** The transport of one client: `send` for the helpers, `fetchFor` for openapi-fetch. */
export interface Transport {
  send(call: Outgoing, opts?: RequestOptions): Promise<Incoming>;
  /** A `fetch` for openapi-fetch that answers with the final, scrubbed response. */
  fetchFor(opts?: RequestOptions): typeof globalThis.fetch;
}

/** Builds the transport bound to `config`. */
export function createTransport(config: TransportConfig): Transport {
  const wait = config.sleep ?? defaultSleep;
  const fetchImpl = config.fetch; // called unbound: browsers throw "Illegal invocation" for fetch with another `this`
  const { logger, scrubber } = config;
  const jsonHeaders = mergeHeaders(config, { "Content-Type": "application/json" });

  async function send(call: Outgoing, opts: RequestOptions = {}): Promise<Incoming> {
    const url = new URL(call.url);
    const { method } = call;
    const path = url.pathname;
    if (url.protocol === "http:" && !config.allowInsecureHttp && !isLoopbackHost(url.hostname)) {
      throw new ArgumentError(
        "baseUrl",
        `refusing to send the API key over plain http: to ${url.host}; use https: or set allowInsecureHttp: true`,
      );
    }
    const operationId = call.operationId ?? operationFor(method, path);
    const base = call.json ? jsonHeaders : config.headers;
    const headers =
      call.headers || opts.headers
        ? mergeHeaders(
            config,
            call.json ? { "Content-Type": "application/json" } : undefined,
            call.headers,
            opts.headers,
          )
        : base;
    const timeoutMs = opts.timeoutMs ?? config.timeoutMs;
    const maxRetries = opts.maxRetries ?? config.maxRetries;
    const mode: RetryMode = opts.retryMode ?? (operationId ? POLICY[operationId]?.retryMode : undefined) ?? "standard";
    const callerSignal = opts.signal;

    for (let attempt = 1; ; attempt++) {
      if (logger?.debug)
        logger.debug(
          `webauto-api: ${method} ${safeUrl(call.url)} (attempt ${attempt} ` +
            `of ${maxRetries + 1})\n${formatHeaders(headers)}`,
        );
      const deadline = startAttemptSignal(timeoutMs, callerSignal);
      let outcome: AttemptOutcome;
      let failure: Error | undefined;
      let incoming: Incoming | undefined;
      let answered: Headers | undefined;
      try {
        // Redirects are never followed: fetch keeps custom headers on a cross-origin redirect, so the key
        // would go to whatever address (even plain http:) the Location names.
        const res = await fetchImpl(call.url, {
          method,
          headers,
          body: call.body ?? null,
          signal: deadline.signal,
          redirect: "manual",
        });
        if (res.type === "opaqueredirect" || res.status === 0) throw new RedirectRefused();
        answered = res.headers;
        let read: Awaited<ReturnType<typeof readLimited>>;
        try {
          read = await readLimited(res, config.maxResponseBytes, true, deadline.signal); // inside the deadline
        } catch (err) {
          if (deadline.timedOut() || deadline.callerAborted()) throw err;
          // The service answered: a body that does not decode or ends early is no connection failure.
          const { kind, detail, bytesRead } = bodyFailureOf(err, res.headers);
          throw new ResponseBodyError(
            {
              status: res.status,
              statusText: res.statusText,
              headers: scrubbedHeaders(res.headers, scrubber),
              kind,
              detail: scrubber.text(detail),
              bytesRead,
              method,
              path,
              attempts: attempt,
              ...(operationId ? { operationId } : {}),
            },
            { cause: scrubError(err instanceof BodyReadError ? err.cause : err, scrubber) },
          );
        }
        if (read.truncated) throw new ResponseTooLargeError(method, path, config.maxResponseBytes, res.status);
        const body = read.bytes;
        incoming = {
          method,
          path,
          status: res.status,
          statusText: res.statusText,
          headers: res.headers,
          url: res.url || call.url,
          body,
          attempts: attempt,
          operationId,
          retryAfterMs: undefined,
        };
        outcome = { kind: "response", status: res.status, headers: res.headers };
      } catch (err) {
        if (err instanceof RedirectRefused) {
          throw makeApiError({
            status: 0,
            statusText: "opaque redirect",
            body: "",
            headers: new Headers(),
            method,
            path,
            attempts: attempt,
            ...(operationId ? { operationId } : {}),
          });
        }
        if (err instanceof ResponseTooLargeError) throw err;
        if (deadline.callerAborted()) throw new RequestAbortedError(method, path, { cause: callerSignal?.reason });
        if (err instanceof ResponseBodyError && answered) {
          // Retried as its status would be: a 2xx never (the service did the work), a 503 or 429 by the mode's rules.
          outcome = { kind: "response", status: err.status, headers: answered };
          failure = err;
        } else if (deadline.timedOut()) {
          outcome = { kind: "timeout" };
          failure = new TimeoutError(method, path, attempt, timeoutMs, { cause: err });
        } else {
          outcome = { kind: "connection", cause: err };
          failure = new ConnectionError(method, path, attempt, { cause: scrubError(err, scrubber) });
        }
      } finally {
        deadline.dispose();
      }
      const failed = failure !== undefined || (outcome.kind === "response" && outcome.status >= 400);
      if (!failed || attempt > maxRetries || !shouldRetry(outcome, mode)) {
        if (failure) throw failure;
        return incoming!;
      }
      // A server asking for more than the client honours gets its answer back, with the delay it asked for.
      const asked = outcome.kind === "response" ? parseRetryAfterMs(outcome.headers) : undefined;
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        if (failure) throw failure;
        return { ...incoming!, retryAfterMs: asked };
      }
      const delayMs = retryDelayMs(outcome, attempt - 1);
      const reason = outcome.kind === "response" ? String(outcome.status) : outcome.kind;
      config.onRetry?.({ method, path, nextAttempt: attempt + 1, delayMs, reason });
      logger?.warn?.(
        `webauto-api: retrying ${method} ${path} after ${reason} in ${Math.round(delayMs)} ` +
          `ms (attempt ${attempt + 1} of ${maxRetries + 1})`,
      );
      try {
        await wait(delayMs, callerSignal);
      } catch {
        throw new RequestAbortedError(method, path, { cause: callerSignal?.reason });
      }
    }
  }

  function fetchFor(opts: RequestOptions = {}): typeof globalThis.fetch {
    return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const callHeaders: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        callHeaders[name] = value;
      });
      const body = request.body ? await request.arrayBuffer() : undefined;
      const signal = opts.signal ?? request.signal;
      const got = await send(
        { method: request.method, url: request.url, headers: callHeaders, ...(body ? { body } : {}) },
        { ...opts, signal },
      );
      const text = scrubber.text(decode(got.body));
      const headers = scrubbedHeaders(got.headers, scrubber);
      const nullBody = got.status === 204 || got.status === 205 || got.status === 304;
      const response = new Response(nullBody ? null : text, {
        status: got.status,
        statusText: got.statusText,
        headers,
      });
      Object.defineProperty(response, "url", { value: got.url });
      return response;
    };
  }

  return { send, fetchFor };
}

/** The client's headers, then the call's (names compared case-insensitively), then the key again. */
function mergeHeaders(
  config: TransportConfig,
  ...layers: Array<Record<string, string> | undefined>
): Record<string, string> {
  const merged = new Headers(config.headers);
  for (const layer of layers) for (const [name, value] of Object.entries(layer ?? {})) merged.set(name, value);
  merged.set(config.keyHeader, config.headers[config.keyHeader]!);
  return Object.fromEntries(merged);
}

/** A transport error whose message may quote the server: the key scrubbed from it. */
function scrubError(err: unknown, scrubber: Scrubber): unknown {
  if (err instanceof Error && scrubber.mayContain(err.message)) err.message = scrubber.text(err.message);
  return err;
}
