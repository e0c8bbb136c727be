/**
 * Sending one call, in named steps: build (auth and default headers, the plain-http guard), send (one fetch under
 * one deadline per attempt, covering the body; no redirect followed), read the body (bounded), classify how the
 * attempt ended, and retry under the operation's retry mode. The helpers call `send`
 * directly; `client.raw` (openapi-fetch) gets the same behaviour through `fetchFor`, since openapi-fetch's
 * middleware cannot re-send a request (its issues #1122, #2075).
 */
import { BodyReadError, bodyFailureOf, readLimited, type LimitedBody } from "../wire/body.js";
import { startDeadline, type Deadline } from "../wire/deadline.js";
import { decodeUtf8 } from "../wire/decode.js";
import { scrubbedHeaders, type Scrubber } from "../wire/redact.js";
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs, sleep as defaultSleep } from "../wire/retry-after.js";
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
import { formatHeaders, safeUrl } from "./redact.js";
import { retryDelayMs, shouldRetry, type AttemptOutcome, type RetryMode } from "./retry.js";
import { operationFor } from "./routes.js";
import type { Incoming, Outgoing, RequestOptions, TransportConfig } from "./transport-types.js";

/** A browser's opaque answer to `redirect: "manual"` (status 0, no Location to report). */
class RedirectRefused extends Error {}

/** The transport of one client: `send` for the helpers, `fetchFor` for openapi-fetch. */
export interface Transport {
  send(call: Outgoing, opts?: RequestOptions): Promise<Incoming>;
  /** A `fetch` for openapi-fetch that answers with the final, scrubbed response. */
  fetchFor(opts?: RequestOptions): typeof globalThis.fetch;
}

/** A call ready to send: where, with which headers, under which deadline and retry rules. */
interface PreparedCall {
  method: string;
  url: string;
  /** The path part of the URL (for messages). */
  path: string;
  body: BodyInit | null;
  headers: Record<string, string>;
  operationId: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  mode: RetryMode;
  callerSignal: AbortSignal | undefined;
}

/** How one attempt ended: what the retry rules read, and the answer or the error the call would end with. */
interface Attempted {
  outcome: AttemptOutcome;
  incoming?: Incoming;
  failure?: Error;
}

/** What follows an attempt: the call's answer, the error it ends with, or the delay before the next attempt. */
type NextStep = Incoming | Error | number;

/** Builds the transport bound to `config`. */
export function createTransport(config: TransportConfig): Transport {
  const wait = config.sleep ?? defaultSleep;
  const { logger, scrubber } = config;
  const jsonHeaders = mergeHeaders(config, { "Content-Type": "application/json" });

  async function send(call: Outgoing, opts: RequestOptions = {}): Promise<Incoming> {
    const prepared = prepareCall(config, jsonHeaders, call, opts);
    const { method, path, callerSignal, maxRetries } = prepared;
    for (let attempt = 1; ; attempt++) {
      if (logger?.debug)
        logger.debug(
          `webauto-api: ${method} ${safeUrl(call.url)} (attempt ${attempt} ` +
            `of ${maxRetries + 1})\n${formatHeaders(prepared.headers)}`,
        );
      const attempted = await attemptOnce(config, prepared, attempt);
      const delayMs = nextStep(prepared, attempted, attempt);
      if (delayMs instanceof Error) throw delayMs;
      if (typeof delayMs !== "number") return delayMs;
      const { outcome } = attempted;
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
      const text = scrubber.text(decodeUtf8(got.body));
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

/**
 * The build step: the plain-http guard (the key never goes over plain http but to this machine), the operation,
 * the headers (the client's, the call's, then the key again), the deadline and the retry rules.
 */
function prepareCall(
  config: TransportConfig,
  jsonHeaders: Record<string, string>,
  call: Outgoing,
  opts: RequestOptions,
): PreparedCall {
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
      ? mergeHeaders(config, call.json ? { "Content-Type": "application/json" } : undefined, call.headers, opts.headers)
      : base;
  return {
    method,
    url: call.url,
    path,
    body: call.body ?? null,
    headers,
    operationId,
    timeoutMs: opts.timeoutMs ?? config.timeoutMs,
    maxRetries: opts.maxRetries ?? config.maxRetries,
    mode: opts.retryMode ?? (operationId ? POLICY[operationId]?.retryMode : undefined) ?? "standard",
    callerSignal: opts.signal,
  };
}

/** One attempt under its own deadline (headers and body): sent, its body read, and how it ended classified. */
async function attemptOnce(config: TransportConfig, call: PreparedCall, attempt: number): Promise<Attempted> {
  const deadline = startDeadline(call.timeoutMs, call.callerSignal);
  let answered: Headers | undefined;
  try {
    const res = await fetchOnce(config, call, deadline.signal);
    answered = res.headers;
    const body = await readBody(config, call, attempt, res, deadline);
    const incoming: Incoming = {
      method: call.method,
      path: call.path,
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
      url: res.url || call.url,
      body,
      attempts: attempt,
      operationId: call.operationId,
      retryAfterMs: undefined,
    };
    return { outcome: { kind: "response", status: res.status, headers: res.headers }, incoming };
  } catch (err) {
    return classifyFailure(config, call, attempt, err, deadline, answered);
  } finally {
    deadline.dispose();
  }
}

/** The send step: one fetch that never follows a redirect (a browser's opaque redirect throws RedirectRefused). */
async function fetchOnce(config: TransportConfig, call: PreparedCall, signal: AbortSignal): Promise<Response> {
  const fetchImpl = config.fetch; // called unbound: browsers throw "Illegal invocation" for fetch with another `this`
  // Redirects are never followed: fetch keeps custom headers on a cross-origin redirect, so the key would go to
  // whatever address (even plain http:) the Location names.
  const res = await fetchImpl(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal,
    redirect: "manual",
  });
  if (res.type === "opaqueredirect" || res.status === 0) throw new RedirectRefused();
  return res;
}

/**
 * The read step: the body, inside the deadline, up to maxResponseBytes (a larger one is an error). A body that
 * does not decode or ends early is a ResponseBodyError (the service answered: no connection failure); one the
 * deadline or the caller ended is rethrown for the classification.
 */
async function readBody(
  config: TransportConfig,
  call: PreparedCall,
  attempt: number,
  res: Response,
  deadline: Deadline,
): Promise<Uint8Array> {
  const { scrubber } = config;
  let read: LimitedBody;
  try {
    read = await readLimited(res, config.maxResponseBytes, true, deadline.signal);
  } catch (err) {
    if (deadline.timedOut() || deadline.callerAborted()) throw err;
    const { kind, detail, bytesRead } = bodyFailureOf(err, res.headers);
    throw new ResponseBodyError(
      {
        status: res.status,
        statusText: res.statusText,
        headers: scrubbedHeaders(res.headers, scrubber),
        kind,
        detail: scrubber.text(detail),
        bytesRead,
        method: call.method,
        path: call.path,
        attempts: attempt,
        ...(call.operationId ? { operationId: call.operationId } : {}),
      },
      { cause: scrubError(err instanceof BodyReadError ? err.cause : err, scrubber) },
    );
  }
  if (read.truncated) throw new ResponseTooLargeError(call.method, call.path, config.maxResponseBytes, res.status);
  return read.bytes;
}

/**
 * The classify step for an attempt that threw: a refused redirect, a body over the limit or the caller's abort end
 * the call at once (thrown); a body error after a status line is retried as its status would be; otherwise the
 * deadline passed or the connection failed.
 */
function classifyFailure(
  config: TransportConfig,
  call: PreparedCall,
  attempt: number,
  err: unknown,
  deadline: Deadline,
  answered: Headers | undefined,
): Attempted {
  const { method, path, operationId } = call;
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
  if (deadline.callerAborted()) throw new RequestAbortedError(method, path, { cause: call.callerSignal?.reason });
  // Retried as its status would be: a 2xx never (the service did the work), a 503 or 429 by the mode's rules.
  if (err instanceof ResponseBodyError && answered)
    return { outcome: { kind: "response", status: err.status, headers: answered }, failure: err };
  if (deadline.timedOut())
    return {
      outcome: { kind: "timeout" },
      failure: new TimeoutError(method, path, attempt, call.timeoutMs, { cause: err }),
    };
  return {
    outcome: { kind: "connection", cause: err },
    failure: new ConnectionError(method, path, attempt, { cause: scrubError(err, config.scrubber) }),
  };
}

/**
 * The retry step: an attempt that did not fail, the last attempt, or an outcome the mode does not retry ends the
 * call; so does a server asking for more than the client honours (its answer comes back, with the delay it asked
 * for); anything else is retried after the server's delay or backoff.
 */
function nextStep(call: PreparedCall, { outcome, incoming, failure }: Attempted, attempt: number): NextStep {
  const end = failure ?? incoming!;
  const failed = failure !== undefined || (outcome.kind === "response" && outcome.status >= 400);
  if (!failed || attempt > call.maxRetries || !shouldRetry(outcome, call.mode)) return end;
  const asked = outcome.kind === "response" ? parseRetryAfterMs(outcome.headers) : undefined;
  if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return failure ?? { ...incoming!, retryAfterMs: asked };
  return retryDelayMs(outcome, attempt - 1);
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
