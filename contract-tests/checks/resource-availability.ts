import { finding, isSuccess } from "../model/exchange.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";
import { differences } from "./read-back.js";

/**
 * A request fed by an OpenAPI link (written or inferred) from a successful response must find the resource:
 * no 404 (Schemathesis's ensure_resource_availability). The read of a resource the run just created answers
 * 2xx, and shows the identifier and the members the create echoed as they were written.
 */
export const resourceAvailability: Check = (ex, { intent, linked, linkPromise, linkInferred, readBack, model }) => {
  if (intent !== "acceptance") return [];
  const status = ex.response.status;
  if (readBack?.after === "created") {
    const promise = successPromise(model, ex.operation);
    if (status >= 400 && status < 500)
      return [
        finding(ex, {
          severity: "error",
          title: `A resource ${readBack.writer} just created could not be read`,
          received: `status ${status}`,
          documented: "a 2xx: the create answered success, so the resource exists",
          promise,
        }),
      ];
    if (!isSuccess(ex)) return [];
    const changed = differences(ex, readBack);
    return changed.length === 0
      ? []
      : [
          finding(ex, {
            severity: "error",
            title: `A resource ${readBack.writer} just created reads back differently`,
            received: changed.join("; "),
            documented: `the members the create returned, read back the same`,
            promise,
          }),
        ];
  }
  if (!linked || status !== 404) return [];
  // An inferred link is the suite's reading of names and schemas, not the document's word: a 404 may mean the
  // inference was wrong, so it is a warning (a resource the run created is held to its read by the lifecycle).
  return [
    finding(ex, {
      severity: "error",
      title: `The resource a link pointed at was not found (link ${linked})`,
      received: "status 404",
      documented: "the resource a successful response just named is available",
      promise: linkPromise,
      ...(linkInferred
        ? { lenient: { because: "inferred-link", why: "the link is inferred, not written" } as const }
        : {}),
    }),
  ];
};
