import type { Check, Violation } from "../types.js";
import { listingPage, listingResults, violation } from "./helpers.js";

/** Pages of one walk do not overlap, and a complete walk holds exactly total_records records. */
export const listingPagesDisjoint: Check = (ex, ctx) => {
  const pages = (ctx.related ?? [ex]).map(listingPage).filter((p): p is Record<string, any> => p !== undefined);
  if (pages.length < 2) return [];
  const out: Violation[] = [];
  const seen = new Map<string, number>();
  for (const page of pages)
    for (const r of listingResults(page)) {
      if (seen.has(r.id)) out.push(violation(ex, { check: "listing_pages_disjoint", severity: "error", title: "A record appears on two pages", received: `${r.id} on page ${seen.get(r.id)} and page ${page.page}`, documented: "pages that do not overlap" }));
      else seen.set(r.id, page.page);
    }
  const first = pages[0]!;
  const complete = first.page_size > 0 && pages.length >= Math.ceil(first.total_records / first.page_size);
  if (complete && out.length === 0 && seen.size !== first.total_records)
    out.push(violation(ex, { check: "listing_pages_disjoint", severity: "error", title: "The pages together do not hold total_records records", received: `${seen.size} distinct records over ${pages.length} pages`, documented: `total_records: ${first.total_records}` }));
  return out;
};
