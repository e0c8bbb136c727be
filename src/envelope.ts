/**
 * Tolerance for the live service's `{"data": ...}` wrapping of responses the document shows bare (some live
 * pages show it for the sitemap and schema responses). Generic: the wrapper is removed only when it is
 * unambiguous for the documented success schema, by its required members.
 */
import { isObject } from "./values.js";

/** The body, unwrapped or as it came, and whether a wrapper was removed. */
export interface Unwrapped {
  value: unknown;
  unwrapped: boolean;
}

/**
 * Removes a `{"data": X}` / `{"data": X, "error": null}` wrapper when the documented schema (whose required
 * members are `required`) does not itself require `data`, the body has no other member, and X is an object
 * holding at least one of the required members (a bare body would need them all, beside `data`).
 */
export function unwrapDataEnvelope(body: unknown, required: readonly string[]): Unwrapped {
  const as = { value: body, unwrapped: false };
  if (!isObject(body) || !isObject(body.data) || required.length === 0 || required.includes("data")) return as;
  if (!Object.keys(body).every((k) => k === "data" || (k === "error" && body.error === null))) return as;
  const inner = body.data;
  return required.some((k) => k in inner) ? { value: inner, unwrapped: true } : as;
}
