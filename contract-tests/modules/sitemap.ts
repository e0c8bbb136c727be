/**
 * createSitemapRequest: link_count against links, sorted links (live-page prose: a warning), the requested
 * url echoed, the cache off by default, an unreachable site answered with a documented error. A read may take 60 s
 * (seed section 8).
 */
import { toRequest } from "../engine/requests.js";
import { baseValues } from "../engine/values.js";
import { isSkip, needs } from "../model/skip.js";
import { finding, isObject, isSuccess, payload, payloadPrefix } from "../model/exchange.js";
import { statement } from "../model/promise.js";
import type { Check } from "../model/types.js";
import type { ContractModule } from "./types.js";

const OP = "createSitemapRequest";

/**
 * `link_count` equals the length of `links`. Null is "not given", not a claim: the relation holds only when both
 * are present and non-null.
 */
const linkCount: Check = (ex, { model }) => {
  const body = payload(model, ex);
  if (!isSuccess(ex) || !isObject(body) || ex.response.json === undefined) return [];
  const { links, link_count: count } = body;
  if (count === null || count === undefined || links === null || links === undefined) return [];
  const expected = Array.isArray(links) ? links.length : 0;
  if (count === expected) return [];
  const got = Array.isArray(links) ? `${links.length} items` : JSON.stringify(links);
  return [
    finding(ex, {
      severity: "error",
      title: "link_count disagrees with links",
      received: `link_count: ${JSON.stringify(count)}, links: ${got}`,
      documented: "link_count = links.length",
      instancePath: `${payloadPrefix(model, ex)}/link_count`,
      value: count,
    }),
  ];
};

/** Links come deduplicated and sorted alphabetically (the operation's description): a warning. */
const linksSorted: Check = (ex, { model }) => {
  const body = payload(model, ex);
  if (!isSuccess(ex) || !isObject(body) || !Array.isArray(body.links)) return [];
  const links = body.links.filter((l): l is string => typeof l === "string");
  const sorted = [...new Set(links)].sort();
  if (links.length === sorted.length && links.every((l, i) => l === sorted[i])) return [];
  const distinct = new Set(links).size;
  return [
    finding(ex, {
      severity: "warning",
      title: links.length !== distinct ? "links contain duplicates" : "links are not sorted alphabetically",
      received: `${links.length} links, ${distinct} distinct, first out of place: ${JSON.stringify(links.find((l, i) => l !== sorted[i]))?.slice(0, 200)}`,
      documented: "links deduplicated and sorted alphabetically (operation description)",
      instancePath: `${payloadPrefix(model, ex)}/links`,
    }),
  ];
};

/**
 * With `max_cache_age` omitted, null (not given) or 0 (the default: no cache) the result is never served from the
 * cache.
 */
const cacheDisabled: Check = (ex, { model }) => {
  const body = payload(model, ex);
  const sent = ex.request.json;
  if (!isSuccess(ex) || !isObject(body) || !isObject(sent)) return [];
  const age = sent.max_cache_age;
  if ((age !== undefined && age !== null && age !== 0) || body.from_cache !== true) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Served from the cache although caching was off",
      received: `from_cache: true with max_cache_age ${age === undefined ? "omitted" : age}`,
      documented: "max_cache_age 0 (the default) never uses the cache: from_cache false",
      instancePath: `${payloadPrefix(model, ex)}/from_cache`,
      value: true,
    }),
  ];
};

/**
 * A URL compared as a site address: scheme and host case-insensitively, default port dropped, a trailing `/` ignored.
 */
function siteKey(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}${u.search}`;
}

/** The response's `url` ("URL of the request", seed 2.2) is the URL asked for, when it is given at all. */
const urlEcho: Check = (ex, { model }) => {
  const body = payload(model, ex);
  const sent = ex.request.json;
  if (
    !isSuccess(ex) ||
    !isObject(body) ||
    !isObject(sent) ||
    typeof body.url !== "string" ||
    typeof sent.url !== "string"
  )
    return [];
  const asked = siteKey(sent.url);
  if (asked === undefined || siteKey(body.url) === asked) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Returned url differs from the requested url",
      received: `url: ${JSON.stringify(body.url).slice(0, 200)}`,
      documented:
        `url: the URL of the request, ${JSON.stringify(sent.url).slice(0, 200)} (scheme ` +
        `and host case, default port and a trailing / aside)`,
      instancePath: `${payloadPrefix(model, ex)}/url`,
      value: body.url,
    }),
  ];
};

/** A site that cannot be reached gets a documented error status with an error object body. */
const unreachable: Check = (ex, { model, unreachableSite }) => {
  if (!unreachableSite || ex.response.status === 0) return [];
  const errorStatuses = model.documentedStatuses(ex.operation).filter((s) => !s.startsWith("2"));
  const status = ex.response.status;
  if (!errorStatuses.includes(String(status)))
    return [
      finding(ex, {
        severity: "error",
        title: "Unreachable site not answered with a documented error status",
        received: `status ${status}`,
        documented: `one of ${errorStatuses.join(", ")} (503: the requested site is unavailable)`,
      }),
    ];
  if (!isObject(ex.response.json))
    return [
      finding(ex, {
        severity: "error",
        title: "Error status without an error object",
        received: ex.response.bodyText.slice(0, 200) || "(empty body)",
        documented: "an error object {type, id, code, message}",
      }),
    ];
  return [];
};

/** The sitemap module. */
export const sitemapModule: ContractModule = {
  operationId: OP,
  timeoutMs: 75_000,
  checks: {
    sitemap_link_count: {
      fn: linkCount,
      promise: statement("2.2", "links: URLs found in the sitemap; link_count: Number of links found"),
    },
    sitemap_links_sorted: { fn: linksSorted },
    sitemap_cache_disabled: {
      fn: cacheDisabled,
      relational: true,
      promise: statement("2.1", "max_cache_age: ... Default 0, meaning no cache"),
    },
    sitemap_url_echo: { fn: urlEcho, relational: true, promise: statement("2.2", "url: URL of the request") },
    sitemap_unreachable: {
      fn: unreachable,
      relational: true,
      promise: statement("4.1", "Response 503: the requested site is unavailable; body shape 2.3"),
    },
  },
  scenarios: (model, settings) => {
    const op = model.operation(OP);
    const request = (body: Record<string, unknown>) => {
      const b = baseValues(model, settings, op);
      return isSkip(b) ? b : toRequest(op, { ...b, body: { value: body } });
    };
    return [
      {
        id: `${OP}/cache`,
        operation: OP,
        phase: "semantics",
        title:
          "semantics: never served from the cache when max_cache_age is omitted or 0, even right after a cached read",
        ...(settings.kind === "mock" ? { skip: needs("live-target") } : {}),
        run: async (c) => {
          const ages = [3600, 0, undefined];
          for (const age of ages) {
            const spec = request({ url: settings.sitemapUrl, ...(age === undefined ? {} : { max_cache_age: age }) });
            if (isSkip(spec)) return spec;
            await c.send(spec, { cause: `max_cache_age ${age ?? "omitted"}` });
          }
          return undefined;
        },
      },
      {
        id: `${OP}/unreachable`,
        operation: OP,
        phase: "semantics",
        title:
          "semantics: an unreachable site (CONTRACT_UNAVAILABLE_URL) is " +
          "answered with a documented error status and an error object",
        ...(settings.kind === "mock" ? { skip: needs("live-target") } : {}),
        run: async (c) => {
          const spec = request({ url: settings.unavailableUrl });
          if (isSkip(spec)) return spec;
          await c.send(spec, { intent: "conforming", unreachableSite: true, cause: "an unreachable site" }, [
            "sitemap_unreachable",
          ]);
          return undefined;
        },
      },
    ];
  },
};
