/** Reading a response body under a byte limit (the client and the contract suite share it). */

/** A body read up to a limit: the bytes kept, how many arrived, and whether the limit cut it. */
export interface LimitedBody {
  bytes: Uint8Array;
  /** Bytes received (counting stops just past the limit). */
  total: number;
  truncated: boolean;
}

/**
 * Reads `res`'s body, stopping past `limit` bytes (the rest is cancelled). A declared Content-Length within
 * the limit is read natively in one piece (the runtime enforces it). With `failFast`, a declared length over
 * the limit is not read at all; otherwise the first `limit` bytes are kept.
 */
export async function readLimited(res: Response, limit: number, failFast = false): Promise<LimitedBody> {
  const length = res.headers.get("content-length");
  if (length !== null && Number(length) > limit && failFast) {
    await res.body?.cancel().catch(() => {});
    return { bytes: new Uint8Array(0), total: Number(length), truncated: true };
  }
  if ((length !== null && Number(length) <= limit) || !res.body) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { bytes, total: bytes.byteLength, truncated: false };
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    chunks.push(value);
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return { bytes: concat(chunks, limit), total, truncated: true };
    }
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : concat(chunks, total), total, truncated: false };
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
