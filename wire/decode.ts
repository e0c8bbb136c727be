/** Turning the bytes of a body into text. */

const DECODER = new TextDecoder();

/** Decodes bytes as UTF-8 (a bad sequence becomes U+FFFD). */
export function decodeUtf8(bytes: Uint8Array): string {
  return DECODER.decode(bytes);
}
