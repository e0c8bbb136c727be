/**
 * The retry policy as small named functions (openai-node's shape): which outcomes are retried, and how
 * long to wait before the next attempt.
 */

/**
 * `standard`: retry connection errors, client-side timeouts, 408, 429 and 5xx.
 * `conservative` (the sitemap POST's default: it costs a credit and its 408 already took 60 s): retry only
 * outcomes where the service provably did not do the work: 429, and connections that never reached it.
 */
export type RetryMode = "standard" | "conservative";

/** What ended an attempt. */
export type AttemptOutcome =
  | { kind: "response"; status: number; headers: Headers }
  | { kind: "connection"; cause: unknown }
  | { kind: "timeout" };

/** Upper bound on a server-requested delay that is honoured; a longer one ends the retries (the error carries it). */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The floor under every retry delay, so `Retry-After: 0` cannot turn retries into a burst. */
const MIN_RETRY_DELAY_MS = 100;
/** The most retries a client or call may ask for. */
export const MAX_RETRIES = 10;
/** First backoff delay; doubled per retry. */
const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff cap. */
const MAX_RETRY_DELAY_MS = 8_000;

/** True when the outcome may be retried under `mode` (attempts left are checked by the caller). */
export function shouldRetry(outcome: AttemptOutcome, mode: RetryMode): boolean {
  if (outcome.kind === "timeout") return mode === "standard";
  if (outcome.kind === "connection") return mode === "standard" || neverReachedServer(outcome.cause);
  const s = outcome.status;
  if (mode === "conservative") return s === 429;
  return s === 408 || s === 429 || s >= 500;
}

/** Connection failures that happen before a request could reach the service (Node/undici error codes). */
const NOT_REACHED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** True when the error chain names a code proving the request never reached a server. */
export function neverReachedServer(cause: unknown): boolean {
  for (
    let e: unknown = cause, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NOT_REACHED.has(code)) return true;
    const errors = (e as { errors?: unknown }).errors; // AggregateError of happy-eyeballs attempts
    if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => neverReachedServer(x))) return true;
  }
  return false;
}

/**
 * The server's requested delay in ms from `retry-after-ms`, then `Retry-After` (seconds or an HTTP date);
 * undefined when absent or malformed. The one Retry-After parser of the project (the contract suite uses it).
 */
export function parseRetryAfterMs(
  headers: { get(name: string): string | null },
  nowMs: number = Date.now(),
): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const v = Number(ms);
    if (Number.isFinite(v) && v >= 0) return v;
  }
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  // An HTTP date has a weekday and month name; Date.parse alone would read "-1" as the year -1.
  const at = /[A-Za-z]{3}/.test(ra) ? Date.parse(ra) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The server's requested delay when it is one the client honours (0-60 s), else undefined. */
export function retryAfterMs(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const v = parseRetryAfterMs(headers, nowMs);
  return v !== undefined && v <= MAX_RETRY_AFTER_MS ? v : undefined;
}

/** Exponential backoff for retry number `retryIndex` (0-based): 0.5 s x 2^n capped at 8 s, minus up to 25 % jitter. */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retryIndex, MAX_RETRY_DELAY_MS);
  return base * (1 - random() * 0.25);
}

/**
 * The delay before retry number `retryIndex`: the server's Retry-After when sane, else backoff; never under the
 * floor.
 */
export function retryDelayMs(outcome: AttemptOutcome, retryIndex: number, random?: () => number): number {
  const fromServer = outcome.kind === "response" ? retryAfterMs(outcome.headers) : undefined;
  return Math.max(MIN_RETRY_DELAY_MS, fromServer ?? backoffDelayMs(retryIndex, random));
}

/** Waits `delayMs`, rejecting with the signal's reason as soon as `signal` aborts. */
export function sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
