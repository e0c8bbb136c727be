import type { Check, Violation } from "../types.js";
import { listingPage, violation } from "./helpers.js";

/** The page returned is the one asked for, its size honours `pageSize`, and it holds the right number of results. */
export const listingPageSize: Check = (ex) => {
  const page = listingPage(ex);
  if (!page || !Array.isArray(page.results) || !Number.isInteger(page.page_size) || !Number.isInteger(page.total_records)) return [];
  const out: Violation[] = [];
  const add = (title: string, received: string, documented: string, instancePath: string) =>
    out.push(violation(ex, { check: "listing_page_size", severity: "error", title, received, documented, instancePath }));
  const askedPage = Number(ex.request.query.page ?? 1);
  const askedSize = Number(ex.request.query.pageSize ?? 30);
  if (page.page !== askedPage) add("Wrong page returned", `page: ${page.page} for page=${askedPage}`, "the page asked for", "/data/page");
  // The maximum page size is not shown: a server may cap a large pageSize, but never exceed it, and 30 (the default) must fit.
  if (page.page_size > askedSize || (askedSize <= 30 && page.page_size !== askedSize))
    add("page_size does not honour pageSize", `page_size: ${page.page_size} for pageSize=${askedSize}`, "page_size = pageSize (or less above the server's maximum, which is not shown; 30 always fits)", "/data/page_size");
  const expected = Math.max(0, Math.min(page.page_size, page.total_records - (page.page - 1) * page.page_size));
  if (page.results.length !== expected)
    add("Wrong number of results on the page", `${page.results.length} results (the formula gives ${expected})`, "min(page_size, total_records - (page - 1) * page_size) results", "/data/results");
  return out;
};
