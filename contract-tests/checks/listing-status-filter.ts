import type { Check } from "../types.js";
import { listingPage, listingResults, violation } from "./helpers.js";

/** With `status` given, every result is in one of the asked states. */
export const listingStatusFilter: Check = (ex) => {
  const page = listingPage(ex);
  const asked = ex.request.query.status?.split(",");
  if (!page || !asked) return [];
  return listingResults(page).flatMap((r, i) =>
    asked.includes(r.state)
      ? []
      : [violation(ex, { check: "listing_status_filter", severity: "error", title: "Result outside the status filter", received: `state: ${JSON.stringify(r.state)} (id ${r.id})`, documented: `state in ${asked.join(", ")}`, instancePath: `/data/results/${i}/state`, value: r.state })],
  );
};
