import type { Check } from "../types.js";
import { show, violation } from "./helpers.js";

/** Input the seed rules out (wrong types, missing url, page 0, unknown state) must get a 4xx. */
export const negativeDataRejection: Check = (ex, ctx) => {
  const status = ex.response.status;
  if (ctx.intent !== "rejection" || status === 0 || (status >= 400 && status < 500)) return [];
  const sent = ex.request.bodyText ?? show(ex.request.query);
  return [
    violation(ex, {
      check: "negative_data_rejection",
      severity: "error",
      title: status < 300 ? "Invalid input accepted" : "Invalid input not answered with a 4xx",
      received: `status ${status} for ${sent.slice(0, 200)}`,
      documented: "a 4xx for input the document rules out",
    }),
  ];
};
