import { finding } from "../model/exchange.js";
import { linkPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/** A request fed by an OpenAPI link from a successful response must find the resource: no 404 (Schemathesis's ensure_resource_availability). */
export const resourceAvailability: Check = (ex, { intent, linked, model }) => {
  if (intent !== "acceptance" || !linked || ex.response.status !== 404) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `The resource a link pointed at was not found (link ${linked})`,
      received: "status 404",
      documented: "the resource a successful response just named is available",
      promise: linkPromise(model, linked),
    }),
  ];
};
