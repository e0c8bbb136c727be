/**
 * The retry policy as small named functions (openai-node's shape): which outcomes are retried, and how
 * long to wait before the next attempt.
 */
import { neverReachedServer } from "../wire/connection.js";
import { retryAfterMs } from "../wire/retry-after.js";

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
