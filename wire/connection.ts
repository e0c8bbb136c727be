/** What a failed fetch means: the runtime's words for it, and whether the request provably never reached a server. */
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
