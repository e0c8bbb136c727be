import type { Check, Violation } from "../types.js";
import { listingPage, violation } from "./helpers.js";

/** With `page` / `pageSize` omitted the page is 1 and the page size 30 (seed section 8). */
export const listingDefaults: Check = (ex) => {
  const page = listingPage(ex);
  if (!page) return [];
  const out: Violation[] = [];
  const expect = (field: "page" | "page_size", param: string, value: number) => {
    if (ex.request.query[param] === undefined && page[field] !== value)
      out.push(violation(ex, { check: "listing_defaults", severity: "error", title: `Wrong default for ${param}`, received: `${field}: ${JSON.stringify(page[field])}`, documented: `${field}: ${value} when ${param} is omitted`, instancePath: `/data/${field}`, value: page[field] }));
  };
  expect("page", "page", 1);
  expect("page_size", "pageSize", 30);
  return out;
};
