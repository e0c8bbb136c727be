import type { Check } from "../types.js";
import { isEnveloped, isSuccess, violation } from "./helpers.js";

/**
 * Some live pages show the sitemap and schema responses wrapped as {"data": ...}; the document shows them
 * bare. The suite validates the inner value and reports the wrapper: a warning, an error under strict.
 */
export const responseEnvelope: Check = (ex, ctx) => {
  if (!isSuccess(ex) || !isEnveloped(ex)) return [];
  return [
    violation(ex, {
      check: "response_envelope",
      severity: ctx.strict ? "error" : "warning",
      title: 'Response wrapped in an undocumented {"data": ...} envelope',
      received: `an object with members ${Object.keys(ex.response.json as object).join(", ")}`,
      documented: "the bare object (the envelope is documented only for listBrowserRequests)",
      instancePath: "/data",
    }),
  ];
};
