import { finding, isSuccess } from "../model/exchange.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * A resource the run just created appears in its collection's listing. An error only where the page shown is
 * the whole collection (no paging parameter, or fewer items than the page size asked); otherwise a warning.
 */
export const listedAfterCreate: Check = (ex, { intent, listed, model }) => {
  if (intent !== "acceptance" || !listed || !isSuccess(ex)) return [];
  const items = resolvePointer(ex.response.json, listed.pointer);
  const key = JSON.stringify(listed.id);
  const idOf = (i: unknown) => JSON.stringify(resolvePointer(i, listed.member));
  if (Array.isArray(items) && items.some((i) => idOf(i) === key)) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `A resource ${listed.createdBy} just created is missing from the listing`,
      received: Array.isArray(items) ? `${items.length} item(s), none with the id ${key}` : "no list of items",
      documented: listed.complete
        ? "the created resource among the collection's items"
        : "the created resource among the first page's items",
      promise: successPromise(model, ex.operation),
      ...(listed.complete
        ? {}
        : { lenient: { because: "partial-view", why: "the page may not hold the whole collection" } as const }),
    }),
  ];
};
