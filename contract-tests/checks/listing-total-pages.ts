import type { Check } from "../types.js";
import { listingPage, violation } from "./helpers.js";

/** `total_pages` is ceil(total_records / page_size); an empty listing may say 0 or 1 page. */
export const listingTotalPages: Check = (ex) => {
  const page = listingPage(ex);
  if (!page) return [];
  const { total_pages: pages, total_records: records, page_size: size } = page;
  if (![pages, records, size].every(Number.isInteger) || size < 1) return []; // the schema check reports these
  const expected = Math.ceil(records / size);
  if (pages === expected || (records === 0 && pages === 1)) return [];
  return [
    violation(ex, {
      check: "listing_total_pages",
      severity: "error",
      title: "total_pages disagrees with total_records and page_size",
      received: `total_pages: ${pages}, total_records: ${records}, page_size: ${size} (ceil gives ${expected})`,
      documented: "total_pages = ceil(total_records / page_size) (0 or 1 for an empty listing)",
      instancePath: "/data/total_pages",
      value: pages,
    }),
  ];
};
