/**
 * Turning the bytes of a body into text and a JSON value: UTF-8 decoding, the check that a body declared UTF-8
 * is, and a parse that refuses nesting deeper than its caller can walk.
 */

const DECODER = new TextDecoder();

/** Decodes bytes as UTF-8 (a bad sequence becomes U+FFFD). */
export function decodeUtf8(bytes: Uint8Array): string {
  return DECODER.decode(bytes);
}

/** How deep a JSON text nests arrays and objects (brackets inside strings do not count); linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** A body's text read as JSON: the value (undefined when it is not JSON or nests too deep) and how deep it nests. */
export interface ParsedJson {
  json: unknown;
  depth: number;
}

/**
 * Parses `text` unless it is empty or nests deeper than `maxDepth` (then `json` is undefined; `depth` says how
 * deep).
 */
export function parseJson(text: string, maxDepth: number): ParsedJson {
  const depth = text === "" ? 0 : jsonDepth(text);
  if (text === "" || depth > maxDepth) return { json: undefined, depth };
  try {
    return { json: JSON.parse(text), depth };
  } catch {
    return { json: undefined, depth };
  }
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

/** A body declared UTF-8 that is not: where, and which byte. */
export interface CharsetFailure {
  kind: "charset";
  detail: string;
  bytesRead: number;
}

/**
 * The body is declared UTF-8 (JSON with no other charset, `isJson` saying which media types are JSON: RFC 8259
 * 8.1; any media type with `charset=utf-8`) and is not: where, and which byte. Undefined when it is valid or
 * declared in another charset.
 */
export function charsetFailure(
  contentType: string | null,
  bytes: Uint8Array,
  isJson: (media: string) => boolean,
): CharsetFailure | undefined {
  if (!contentType) return undefined;
  const [media = "", ...params] = contentType.split(";").map((p) => p.trim());
  const charset = params
    .map((p) => /^charset\s*=\s*"?([^";\s]+)"?$/i.exec(p)?.[1]?.toLowerCase())
    .find((c) => c !== undefined);
  const utf8 = charset === "utf-8" || charset === "utf8" || (charset === undefined && isJson(media.toLowerCase()));
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
