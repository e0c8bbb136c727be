import type { Check } from "../types.js";
import { isObject, isSuccess, payload, payloadPrefix, violation } from "./helpers.js";

/**
 * The document's prose (from the live pages, not the seed) says links come deduplicated and sorted
 * alphabetically: a warning, since a server following only the seed need not do it.
 */
export const sitemapLinksSorted: Check = (ex) => {
  const body = payload(ex);
  if (ex.operation !== "createSitemapRequest" || !isSuccess(ex) || !isObject(body) || !Array.isArray(body.links)) return [];
  const links = body.links.filter((l): l is string => typeof l === "string");
  const sorted = [...new Set(links)].sort();
  if (links.length === sorted.length && links.every((l, i) => l === sorted[i])) return [];
  const duplicates = links.length !== new Set(links).size;
  return [
    violation(ex, {
      check: "sitemap_links_sorted",
      severity: "warning",
      title: duplicates ? "links contain duplicates" : "links are not sorted alphabetically",
      received: `${links.length} links, ${new Set(links).size} distinct, first out of place: ${JSON.stringify(links.find((l, i) => l !== sorted[i]))}`,
      documented: "links deduplicated and sorted alphabetically (operation description)",
      instancePath: `${payloadPrefix(ex)}/links`,
    }),
  ];
};
