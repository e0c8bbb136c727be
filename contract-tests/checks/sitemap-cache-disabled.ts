import type { Check } from "../types.js";
import { isObject, isSuccess, payload, payloadPrefix, violation } from "./helpers.js";

/** With `max_cache_age` omitted or 0 (the default: no cache) the result is never served from the cache. */
export const sitemapCacheDisabled: Check = (ex) => {
  const body = payload(ex);
  const sent = ex.request.json;
  if (ex.operation !== "createSitemapRequest" || !isSuccess(ex) || !isObject(body) || !isObject(sent)) return [];
  const age = sent.max_cache_age;
  if ((age !== undefined && age !== 0) || body.from_cache !== true) return [];
  return [
    violation(ex, {
      check: "sitemap_cache_disabled",
      severity: "error",
      title: "Served from the cache although caching was off",
      received: `from_cache: true with max_cache_age ${age === undefined ? "omitted" : age}`,
      documented: "max_cache_age 0 (the default) never uses the cache: from_cache false",
      instancePath: `${payloadPrefix(ex)}/from_cache`,
      value: true,
    }),
  ];
};
