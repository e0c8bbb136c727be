/**
 * refused_create_leak (RESTler's leakage rule): a create the server refused (a 4xx or a 5xx) leaves nothing behind.
 * The family's listing read right after it holds no item that was not listed just before and that the run did not
 * create itself. An error where the document promises the refusal (the status is a documented response of the
 * create) and the listing shows the whole collection; a warning where the page may not hold it all or the listing
 * changed by itself just before (another client may be creating), or the status is not documented.
 */
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { finding, isSuccess } from "../model/exchange.js";
import { operationPromise, responsePromise } from "../model/promise.js";
import type { Check, Leniency } from "../model/types.js";

export const refusedCreateLeak: Check = (ex, { intent, refusedCreate: r, model }) => {
  if (intent !== "acceptance" || !r || !isSuccess(ex)) return [];
  const items = resolvePointer(ex.response.json, r.pointer);
  if (!Array.isArray(items)) return [];
  const known = new Set([...r.before, ...r.own]);
  const left = items
    .map((i) => resolvePointer(i, r.member))
    .filter((id) => id !== undefined && id !== null)
    .map((id) => JSON.stringify(id))
    .filter((id) => !known.has(id));
  if (left.length === 0) return [];
  const promise = responsePromise(model, r.by, r.status);
  const lenient: Leniency | undefined = r.busy
    ? { because: "indistinguishable", why: r.busy }
    : !r.complete
      ? { because: "partial-view", why: "the page may not hold the whole collection, so an item may be an old one" }
      : !promise
        ? { because: "document-silent", why: `the create documents no answer ${r.status}` }
        : undefined;
  return [
    finding(ex, {
      severity: "error",
      title: `A create ${r.by} refused with ${r.status} left a record in the listing`,
      received: `${left.length} item(s) not listed before the refused create and not created by the run: ${left
        .slice(0, 5)
        .join(", ")}`,
      documented: `a refusal (${r.status}) that creates nothing: the listing as it was before the create`,
      promise: promise ?? operationPromise(model, r.by),
      ...(lenient ? { lenient } : {}),
    }),
  ];
};
