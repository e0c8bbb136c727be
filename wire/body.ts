/**
 * Reading a response body under a byte limit and a deadline, and saying why a body whose status line and headers
 * arrived could not be read whole.
 */
import { causeText } from "./connection.js";

/** A body read up to a limit: the bytes kept, how many arrived, and whether the limit cut it. */
export interface LimitedBody {
  bytes: Uint8Array;
  /** Bytes received (counting stops just past the limit). */
  total: number;
  truncated: boolean;
}

/**
 * The body of a response whose status line and headers arrived could not be read whole: the runtime failed
 * to decode it (its Content-Encoding), the connection ended before it did, or `signal` aborted the read.
 * `bytesRead` counts the (decoded) bytes that arrived first; `cause` is the runtime's error or the signal's reason.
 */
export class BodyReadError extends Error {
  override name = "BodyReadError";
  constructor(
    readonly bytesRead: number,
    options: { cause: unknown },
  ) {
    super(`the body could not be read after ${bytesRead} bytes`, options);
  }
}

/**
 * Reads `res`'s body, stopping past `limit` bytes (the rest is cancelled). With `failFast`, a declared length
 * over the limit is not read at all; otherwise the first `limit` bytes are kept. Every read is raced against
 * `signal`, so an aborted deadline ends the read at once whatever the stream does. A failure throws
 * {@link BodyReadError}.
 */
export async function readLimited(
  res: Response,
  limit: number,
  failFast = false,
  signal?: AbortSignal,
): Promise<LimitedBody> {
  const length = res.headers.get("content-length");
  if (length !== null && Number(length) > limit && failFast) {
    void res.body?.cancel().catch(() => {});
    return { bytes: new Uint8Array(0), total: Number(length), truncated: true };
  }
  if (!res.body) return { bytes: new Uint8Array(0), total: 0, truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      total += value.byteLength;
      chunks.push(value);
      if (total > limit) {
        // Not awaited: a stream that ignores the cancel must not hold the caller.
        void reader.cancel().catch(() => {});
        return { bytes: concat(chunks, limit), total, truncated: true };
      }
    }
  } catch (err) {
    void reader.cancel(err).catch(() => {});
    throw new BodyReadError(total, { cause: err });
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : concat(chunks, total), total, truncated: false };
}

/** Error codes of node:zlib and its brotli decoder (what the runtime decodes gzip, deflate and br with). */
const DECODER_ERROR = /^Z_|^ERR__ERROR_FORMAT|BROTLI|^ERR_ZLIB/;

/** The first error code down a cause chain, and the deepest error (the decoder's or socket's own words). */
function rootCause(err: unknown): { code: string | undefined; root: unknown } {
  let code: string | undefined;
  let e = err;
  for (let depth = 0; depth < 6; depth++) {
    const c = (e as { code?: unknown } | null)?.code;
    if (!code && typeof c === "string") code = c;
    if (!(e instanceof Error) || e.cause === undefined) break;
    e = e.cause;
  }
  return { code, root: e };
}

/**
 * Why a body whose status line and headers arrived could not be read (not a deadline: the caller knows that
 * one): `encoding`, it does not decode as its Content-Encoding says; `cut`, the connection ended before it was
 * complete. `detail` names the Content-Encoding or Content-Length, the bytes that arrived, and the decoder's or
 * socket's error (e.g. `incorrect header check (Z_DATA_ERROR)`, `other side closed (UND_ERR_SOCKET)`);
 * `bytesRead`, the (decoded) bytes that arrived first.
 */
export function bodyFailureOf(
  err: unknown,
  headers: Headers,
): { kind: "encoding" | "cut"; detail: string; bytesRead: number } {
  const bytesRead = err instanceof BodyReadError ? err.bytesRead : 0;
  const { code, root } = rootCause(err instanceof BodyReadError ? err.cause : err);
  const coding = headers.get("content-encoding")?.trim();
  const length = headers.get("content-length");
  const bytes = `${bytesRead} ${coding ? "decoded " : ""}bytes`;
  const cause = causeText(root);
  if (coding && code && DECODER_ERROR.test(code))
    return {
      kind: "encoding",
      detail: `the body does not decode as its Content-Encoding (${coding}) says, after ${bytes}: ${cause}`,
      bytesRead,
    };
  return {
    kind: "cut",
    detail:
      length !== null && !coding
        ? `the body ended after ${bytesRead} of the ${length} bytes its Content-Length declares: ${cause}`
        : `the body ended before it was complete (after ${bytes}${length !== null ? `; Content-Length ${length}` : ", chunked"}): ${cause}`,
    bytesRead,
  };
}

/** Why a body could not be read whole: as {@link bodyFailureOf} says, or `timeout`, the deadline came first. */
export interface BodyFailure {
  kind: "encoding" | "cut" | "timeout";
  detail: string;
  bytesRead: number;
}

/**
 * The body was still unfinished when the exchange's deadline of `timeoutMs` passed: how many bytes had arrived, of
 * how many its Content-Length declares. `err` is what the read threw.
 */
export function deadlineFailure(err: unknown, headers: Headers, timeoutMs: number): BodyFailure {
  const bytesRead = err instanceof BodyReadError ? err.bytesRead : 0;
  const coding = headers.get("content-encoding")?.trim();
  const length = headers.get("content-length");
  const bytes = `${bytesRead} ${coding ? "decoded " : ""}bytes`;
  return {
    kind: "timeout",
    detail: `the body did not finish within the request's deadline of ${timeoutMs} ms (${bytes} arrived${length !== null ? ` of the ${length} its Content-Length declares` : ""})`,
    bytesRead,
  };
}

function concat(chunks: Uint8Array[], max: number): Uint8Array {
  const out = new Uint8Array(
    Math.min(
      max,
      chunks.reduce((n, c) => n + c.byteLength, 0),
    ),
  );
  let at = 0;
  for (const c of chunks) {
    if (at >= out.length) break;
    out.set(c.subarray(0, out.length - at), at);
    at += c.byteLength;
  }
  return out;
}
