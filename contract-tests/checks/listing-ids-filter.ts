import type { Check, Violation } from "../types.js";
import { listingPage, listingResults, violation } from "./helpers.js";

/** With `ids` given, results are only those ids, each once, and every asked id known to exist is returned. */
export const listingIdsFilter: Check = (ex, ctx) => {
  const page = listingPage(ex);
  const asked = ex.request.query.ids?.split(",");
  if (!page || !asked) return [];
  const out: Violation[] = [];
  const add = (title: string, received: string, documented: string, instancePath = "/data/results") =>
    out.push(violation(ex, { check: "listing_ids_filter", severity: "error", title, received, documented, instancePath }));
  const ids = listingResults(page).map((r) => r.id);
  ids.forEach((id, i) => !asked.includes(id) && add("Result outside the ids filter", `id: ${JSON.stringify(id)}`, `id in ${asked.join(", ")}`, `/data/results/${i}/id`));
  if (new Set(ids).size !== ids.length) add("The same id returned twice", ids.join(", "), "each asked id at most once");
  const missing = (ctx.expectIds ?? []).filter((id) => !ids.includes(id));
  if (missing.length > 0 && Number(ex.request.query.page ?? 1) === 1) add("Existing ids missing from the result", `missing ${missing.join(", ")}`, "every asked id that exists on the account");
  return out;
};
