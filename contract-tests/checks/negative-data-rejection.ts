import { finding, show } from "../exchange.js";
import type { Check } from "../types.js";

/**
 * Input the document rules out must get a 4xx, never a 2xx or a 5xx. Where the document only names a format
 * or pattern (the seed does not say it is enforced) an acceptance is a warning, not an error.
 */
export const negativeDataRejection: Check = (ex, { intent, demand, mutation }) => {
  const status = ex.response.status;
  if (intent !== "rejection" || status === 0 || (status >= 400 && status < 500)) return [];
  const sent = ex.request.bodyText ?? show(ex.request.query);
  return [
    finding(ex, {
      severity: status >= 500 ? "error" : (demand ?? "error"),
      title: status < 300 ? `Invalid input accepted${mutation ? ` (${mutation})` : ""}` : `Invalid input not answered with a 4xx${mutation ? ` (${mutation})` : ""}`,
      received: `status ${status} for ${show(sent)}`,
      documented: "a 4xx for input the document rules out",
    }),
  ];
};
