import { finding } from "../model/exchange.js";
import { responsesPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/** Only documented statuses; like Prism's validator an undocumented 4xx is a warning, 2xx/3xx/5xx an error. */
export const statusCodeConformance: Check = (ex, { model, intent }) => {
  const status = ex.response.status;
  if (status === 0 || model.isDocumentedStatus(ex.operation, status)) return [];
  const is4xx = status >= 400 && status < 500;
  // Refusals of a missing key or of invalid input are "expect a 4xx" without a named status.
  if (is4xx && intent !== "acceptance" && intent !== "conforming") return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Undocumented HTTP status code",
      received: `status ${status}`,
      documented: `one of ${model.documentedStatuses(ex.operation).join(", ")}`,
      promise: responsesPromise(model, ex.operation),
      // Like Prism's validator: a server may refuse for a reason (a limit) the document does not show.
      ...(is4xx ? { lenient: { because: "server-limit" } as const } : {}),
    }),
  ];
};
