/**
 * Tolerance for the live service's `{"data": ...}` wrapping of the sitemap and schema responses
 * (shown on some live pages, while the reference and the seed show them bare). The wrapper is removed
 * only when it is unambiguous: the body has a `data` member and nothing else but a null `error`, and the
 * inner value has the documented shape's marker members.
 */

/** The documented shapes that may arrive wrapped, with members that identify them. */
export type EnvelopeShape = "sitemap" | "schema";

/** The body, unwrapped or as it came, and whether a wrapper was removed. */
export interface Unwrapped {
  value: unknown;
  unwrapped: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function looksLike(shape: EnvelopeShape, v: unknown): boolean {
  if (!isObject(v)) return false;
  if (shape === "schema") return Array.isArray(v.fields);
  return "links" in v || "link_count" in v || ("url" in v && "state" in v);
}

/** Removes a `{"data": X}` / `{"data": X, "error": null}` wrapper when X looks like `shape`. */
export function unwrapDataEnvelope(body: unknown, shape: EnvelopeShape): Unwrapped {
  if (!isObject(body) || !("data" in body) || looksLike(shape, body)) return { value: body, unwrapped: false };
  const keys = Object.keys(body);
  const onlyEnvelope = keys.every((k) => k === "data" || (k === "error" && body.error === null));
  if (!onlyEnvelope || !looksLike(shape, body.data)) return { value: body, unwrapped: false };
  return { value: body.data, unwrapped: true };
}
