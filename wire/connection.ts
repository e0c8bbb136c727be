/**
 * What a failed fetch means: the runtime's words for it (`causeText`), whether the request provably never reached
 * a server, and, for a fetch that rejected, whether anything was sent at all, whether an answer came that fetch
 * would not hand over, and whether the request may be sent again.
 */
import { boundedText } from "./redact.js";

/** `fetch failed (ECONNREFUSED)`: the message with the first error code found down the cause chain. */
export function causeText(cause: unknown): string {
  let code: string | undefined;
  for (
    let e: unknown = cause, depth = 0;
    e && typeof e === "object" && depth < 5 && !code;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === "string") code = c;
    const errors = (e as { errors?: unknown }).errors;
    if (!code && Array.isArray(errors) && errors[0] && typeof (errors[0] as { code?: unknown }).code === "string")
      code = (errors[0] as { code: string }).code;
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return boundedText(code && !message.includes(code) ? `${message} (${code})` : message, 300);
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

/** Codes of the transport (undici) refusing a request it was asked to build: nothing was sent. */
const REFUSED_TO_BUILD = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
]);
const refusedToBuild = (err: TypeError) => REFUSED_TO_BUILD.has(String((err.cause as { code?: unknown })?.code));

/** Failures of a connection before any answer came (a kept-alive connection the server closed as it was reused). */
const UNREACHED = /ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed|socket hang up/i;

/** What a rejected fetch means for the request it was sending. */
export type FetchFailure =
  /** The runtime refused to build the request (a body on a GET, a header value it cannot send): nothing was sent. */
  | { kind: "refused"; why: string }
  /** An answer came, and fetch turned it into a network error without a cause (it does so for a 407). */
  | { kind: "withheld" }
  /** The deadline ended the exchange before a status line arrived. */
  | { kind: "timeout" }
  /** No answer: `cause` in the runtime's words; `resendable` when the connection failed before any answer. */
  | { kind: "failed"; cause: string; resendable: boolean };

/** Classifies `err`, which fetch rejected with; `timedOut`: the exchange's deadline had passed. */
export function fetchFailure(err: unknown, timedOut: boolean): FetchFailure {
  if (err instanceof TypeError && (!/fetch failed/i.test(err.message) || refusedToBuild(err)))
    return { kind: "refused", why: refusedToBuild(err) ? (err.cause as Error).message : err.message };
  // A network error with no cause of its own (no code, no message) is fetch refusing an answer it received.
  if (
    err instanceof TypeError &&
    err.cause instanceof Error &&
    !(err.cause as { code?: unknown }).code &&
    !err.cause.message
  )
    return { kind: "withheld" };
  if (timedOut) return { kind: "timeout" };
  const cause = causeText(err);
  return { kind: "failed", cause, resendable: UNREACHED.test(cause) };
}
