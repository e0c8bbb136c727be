import { finding, isSuccess } from "../model/exchange.js";
import { unknownIdPromise } from "../model/promise.js";
import { otherRefusal } from "../model/refusal.js";
import type { Check } from "../model/types.js";

/**
 * A well-formed identifier that does not exist. In a path, where the operation documents its refusal (a 404 or
 * 410, or a 4xx whose description says so), the answer is a 4xx, never a 2xx that pretends the resource is there
 * (nor a 5xx, which not_a_server_error reports as well); where it documents none, the answer is held only to what
 * the document does list (an idempotent delete may answer its 200). In a query filter, a 2xx is fine as long as
 * it does not return a record under that identifier. A well-formed identifier in the path (valid against its
 * parameter's schema) is refused with the documented 404 or 410 where the operation documents one.
 */
export const unknownResource: Check = (ex, { intent, model, unknownIn, foreignIds, linkPromise, wellFormed }) => {
  if (intent !== "unknown-resource") return [];
  const status = ex.response.status;
  if (status === 0) return [];
  if (status >= 400 && status < 500) {
    // A well-formed identifier in the path gets the documented 404 (or 410) where the operation documents one.
    if (unknownIn !== "path" || !wellFormed) return [];
    return otherRefusal(ex, model, "unknown-id", {
      title: "An identifier that does not exist was refused with another status than the documented {named}",
      documented: "status {named}: the operation documents its answer to an identifier that names nothing",
    });
  }
  if (unknownIn !== "path" && isSuccess(ex)) {
    const returned = (foreignIds ?? []).filter((id) => ex.response.bodyText.includes(JSON.stringify(id)));
    if (returned.length === 0) return [];
    return [
      finding(ex, {
        severity: "error",
        title: "A record was returned for an identifier that does not exist",
        received: `status ${status} naming ${returned.join(", ")}`,
        documented: "no record for an identifier that does not exist",
        promise: linkPromise,
      }),
    ];
  }
  const promise = unknownIdPromise(model, ex.operation);
  if (!promise) return [];
  const documented = model.documentedStatuses(ex.operation).filter((s) => s.startsWith("4"));
  return [
    finding(ex, {
      severity: "error",
      title: "An identifier that does not exist was not refused",
      received: `status ${status}`,
      documented: documented.length ? `one of ${documented.join(", ")}` : "a 4xx (the resource does not exist)",
      promise,
    }),
  ];
};
