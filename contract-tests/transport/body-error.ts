/**
 * What went wrong with a response after its status line arrived: a body that does not decode as its
 * Content-Encoding says, a connection that ended mid-body (fewer bytes than a Content-Length declares, a chunked
 * body never finished), a body still unfinished at the request's deadline, or JSON that is not UTF-8. Each is
 * the target's fault (response_readable reports it), never the suite's.
 */
import { bodyFailureOf, deadlineFailure } from "../../wire/body.js";
import { isJsonMedia } from "../../openapi/lib/operations.js";
import type { BodyError } from "../model/types.js";

/**
 * Why a body whose headers arrived could not be read: `err` is what the read threw (its cause chain holds the
 * decoder's or the socket's error, and the bytes that arrived first), `timedOut` whether the request's deadline
 * ended it.
 */
export function bodyFailure(err: unknown, headers: Headers, timeoutMs: number, timedOut: boolean): BodyError {
  return timedOut ? deadlineFailure(err, headers, timeoutMs) : bodyFailureOf(err, headers);
}

/** The offset of the first byte of `bytes` that is not part of a valid UTF-8 sequence, or -1 when all are. */
function invalidUtf8At(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= bytes.length) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[i + 1]!;
    const [lo, hi] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * The body is declared UTF-8 (JSON with no other charset: RFC 8259 8.1; any media type with `charset=utf-8`)
 * and is not: where, and which byte. Undefined when it is valid or declared in another charset.
 */
export function charsetFailure(contentType: string | null, bytes: Uint8Array): BodyError | undefined {
  if (!contentType) return undefined;
  const [media = "", ...params] = contentType.split(";").map((p) => p.trim());
  const charset = params
    .map((p) => /^charset\s*=\s*"?([^";\s]+)"?$/i.exec(p)?.[1]?.toLowerCase())
    .find((c) => c !== undefined);
  const utf8 = charset === "utf-8" || charset === "utf8" || (charset === undefined && isJsonMedia(media.toLowerCase()));
  if (!utf8) return undefined;
  const at = invalidUtf8At(bytes);
  if (at < 0) return undefined;
  const shown = Array.from(bytes.subarray(at, at + 4), (b) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`);
  return {
    kind: "charset",
    detail:
      `the ${media} body (${charset ? `charset=${charset}` : "JSON: UTF-8 by RFC 8259 8.1"}) ` +
      `is not valid UTF-8: ${shown.join(" ")} at byte ${at} of ${bytes.length}`,
    bytesRead: bytes.length,
  };
}
