/** The shapes of the client's transport: its configuration, a call's options, a call and its final answer. */
import type { Scrubber } from "../wire/redact.js";
import type { RetryMode } from "./retry.js";

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
