import type { Check } from "../types.js";
import { show, violation } from "./helpers.js";

/** Valid input generated from the request schemas must not be refused with a 4xx. */
export const positiveDataAcceptance: Check = (ex, ctx) => {
  const status = ex.response.status;
  if (ctx.intent !== "acceptance" || status < 400 || status >= 500) return [];
  const sent = ex.request.bodyText ?? show(ex.request.query);
  return [
    violation(ex, {
      check: "positive_data_acceptance",
      severity: "error",
      title: "Valid input rejected",
      received: `status ${status} for ${sent.slice(0, 200)}`,
      documented: "a 2xx (or a documented non-4xx status) for input that matches the request schema",
    }),
  ];
};
