import type { Check } from "../types.js";
import { violation } from "./helpers.js";

/** A request without a key, or with a wrong key, must be refused with a 4xx (seed section 5), never answered. */
export const ignoredAuth: Check = (ex, ctx) => {
  if (ctx.intent !== "no-key" && ctx.intent !== "wrong-key") return [];
  const status = ex.response.status;
  if (status === 0 || (status >= 400 && status < 500)) return [];
  const how = ctx.intent === "no-key" ? "without an API key" : "with a wrong API key";
  return [
    violation(ex, {
      check: "ignored_auth",
      severity: "error",
      title: `The API answered a request ${how}`,
      received: `status ${status}`,
      documented: "a 4xx refusal: every operation requires a valid X-API-Key (security: ApiKeyAuth)",
    }),
  ];
};
