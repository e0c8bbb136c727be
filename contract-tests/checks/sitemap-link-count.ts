import type { Check } from "../types.js";
import { isObject, isSuccess, payload, payloadPrefix, violation } from "./helpers.js";

/** `link_count` equals the length of `links` (null or 0 when there are no links). */
export const sitemapLinkCount: Check = (ex) => {
  const body = payload(ex);
  if (ex.operation !== "createSitemapRequest" || !isSuccess(ex) || !isObject(body)) return [];
  const { links, link_count: count } = body;
  const expected = Array.isArray(links) ? links.length : 0;
  if (count === expected || (count === null && !Array.isArray(links))) return [];
  return [
    violation(ex, {
      check: "sitemap_link_count",
      severity: "error",
      title: "link_count disagrees with links",
      received: `link_count: ${JSON.stringify(count)}, links: ${Array.isArray(links) ? `${links.length} items` : JSON.stringify(links)}`,
      documented: "link_count = links.length",
      instancePath: `${payloadPrefix(ex)}/link_count`,
      value: count,
    }),
  ];
};
