/**
 * How long a server asks to be left alone (`Retry-After`, `retry-after-ms`), the bound on what is honoured, and
 * the wait itself.
 */

/** Upper bound on a server-requested delay that is honoured; a longer one ends the retries (the error carries it). */
export const MAX_RETRY_AFTER_MS = 60_000;
/**
 * The server's requested delay in ms from `retry-after-ms`, then `Retry-After` (seconds or an HTTP date);
 * undefined when absent or malformed. The one Retry-After parser of the project.
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
