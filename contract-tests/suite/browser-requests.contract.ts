import { describe, it } from "vitest";
import type { CheckId } from "../checks/index.js";
import { listingQuery, sample } from "../arbitraries.js";
import { listingPage, listingResults } from "../checks/helpers.js";
import { listingRequest } from "../requests.js";
import { schemaEnum } from "../spec-model.js";
import type { Exchange } from "../types.js";
import { isMock, skipUnless, target, verdict } from "./harness.js";

const OP = "listBrowserRequests";
const PAGING: CheckId[] = ["listing_error_null", "listing_total_pages", "listing_page_size"];
const FILTERS: CheckId[] = [...PAGING, "listing_status_filter", "listing_ids_filter"];
/** A walk reads at most this many pages, so a large account stays cheap. */
const MAX_PAGES = 10;

describe("listBrowserRequests (GET /v1/browser/requests)", () => {
  it("answers the unfiltered listing with page 1, page size 30, error null and consistent paging", async (t) => {
    const v = verdict(t);
    v.check(await target.send(listingRequest()), [...PAGING, "listing_defaults"]);
    await v.finish();
  });

  it(`walks up to ${MAX_PAGES} pages that do not overlap and together hold total_records records`, async (t) => {
    await skipUnless(t, !isMock, OP);
    const v = verdict(t);
    const first = listingPage(v.check(await target.send(listingRequest()), PAGING));
    const pageSize = Math.min(30, Math.max(2, Math.ceil(Number(first?.total_records ?? 0) / MAX_PAGES)));
    const pages: Exchange[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const ex = v.check(await target.send(listingRequest({ pageSize: String(pageSize), page: String(page) })), PAGING);
      pages.push(ex);
      // Stop by total_records, not total_pages: a wrong total_pages is its own finding and must not cut the walk short.
      const data = listingPage(ex);
      if (!data || !Array.isArray(data.results) || data.results.length === 0 || page * pageSize >= Number(data.total_records)) break;
    }
    v.check(pages.at(-1)!, ["listing_pages_disjoint"], { related: pages });
    await v.finish();
  });

  it("honours the status filter, one state at a time and two together", async (t) => {
    await skipUnless(t, !isMock, OP);
    const v = verdict(t);
    const states = schemaEnum("BrowserRequestState") as string[];
    for (const status of [...states, states.slice(2).join(",")]) v.check(await target.send(listingRequest({ status })), FILTERS);
    await v.finish();
  });

  it("honours the ids filter, returning exactly the existing ids asked for", async (t) => {
    await skipUnless(t, !isMock, OP);
    const v = verdict(t);
    const first = listingPage(v.check(await target.send(listingRequest()), PAGING));
    const ids = listingResults(first ?? {}).map((r) => String(r.id)).slice(0, 3);
    await skipUnless(t, ids.length > 0, OP, "skipped: needs browser requests on the account");
    v.check(await target.send(listingRequest({ ids: ids.join(",") })), FILTERS, { expectIds: ids });
    v.check(await target.send(listingRequest({ ids: ids[0]! })), FILTERS, { expectIds: ids.slice(0, 1) });
    await v.finish();
  });

  it("accepts valid generated filter and paging queries with documented responses", async (t) => {
    const v = verdict(t);
    // The mock serves one static page whatever the query, so paging and filter semantics need a live target.
    const checks: CheckId[] = isMock ? [] : FILTERS;
    // A live server may answer unknown ids as it likes (not shown), so live queries ask for existing ids only.
    const known = isMock ? undefined : listingResults(listingPage(await target.send(listingRequest())) ?? {}).map((r) => String(r.id));
    for (const query of sample(listingQuery(known))) v.check(await target.send(listingRequest(query)), [...checks]);
    await v.finish();
  });

  it("rejects query parameters the seed rules out (page 0, non-integers, an unknown state) with a 4xx", async (t) => {
    const v = verdict(t);
    // Not demanded: a malformed id in `ids` (the seed names the brq_ format, not its rejection) or a huge pageSize.
    const invalid: Array<Record<string, string>> = [{ page: "0" }, { page: "first" }, { pageSize: "many" }, { status: "finished" }, { status: "completed,archived" }];
    for (const query of invalid) v.check(await target.send(listingRequest(query)), [], { intent: "rejection" });
    await v.finish();
  });
});
