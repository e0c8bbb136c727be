import type { Check } from "../types.js";
import { documentedStatuses } from "../spec-model.js";
import { isObject, violation } from "./helpers.js";

/** A site that cannot be reached gets a documented error status (503, or 408) with an error object body. */
export const sitemapUnreachable: Check = (ex, ctx) => {
  if (ex.operation !== "createSitemapRequest" || !ctx.unreachableSite || ex.response.status === 0) return [];
  const errorStatuses = documentedStatuses(ex.operation).filter((s) => !s.startsWith("2"));
  const status = ex.response.status;
  if (!errorStatuses.includes(String(status)))
    return [violation(ex, { check: "sitemap_unreachable", severity: "error", title: "Unreachable site not answered with a documented error status", received: `status ${status}`, documented: `one of ${errorStatuses.join(", ")} (503: the requested site is unavailable)` })];
  if (!isObject(ex.response.json))
    return [violation(ex, { check: "sitemap_unreachable", severity: "error", title: "Error status without an error object", received: ex.response.bodyText.slice(0, 200) || "(empty body)", documented: "an ApiError object {type, id, code, message}" })];
  return [];
};
