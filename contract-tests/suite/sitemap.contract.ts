import { describe, it } from "vitest";
import type { CheckId } from "../checks/index.js";
import { sample, sitemapBody } from "../arbitraries.js";
import { sitemapRequest } from "../requests.js";
import { isMock, settings, skipUnless, target, verdict } from "./harness.js";

const OP = "createSitemapRequest";
const SEMANTICS: CheckId[] = ["sitemap_link_count", "sitemap_links_sorted"];
const LIVE_SEMANTICS: CheckId[] = [...SEMANTICS, "sitemap_cache_disabled"];

describe("createSitemapRequest (POST /v1/site/map)", () => {
  it("answers a valid sitemap request with a documented response whose link_count matches its links", async (t) => {
    const v = verdict(t);
    v.check(await target.send(sitemapRequest({ url: settings.sitemapUrl })), isMock ? SEMANTICS : LIVE_SEMANTICS);
    await v.finish();
  });

  it("never serves from the cache when max_cache_age is omitted or 0, even right after a cached read", async (t) => {
    await skipUnless(t, !isMock, OP);
    const v = verdict(t);
    v.check(await target.send(sitemapRequest({ url: settings.sitemapUrl, max_cache_age: 3600 })), SEMANTICS);
    v.check(await target.send(sitemapRequest({ url: settings.sitemapUrl, max_cache_age: 0 })), LIVE_SEMANTICS);
    v.check(await target.send(sitemapRequest({ url: settings.sitemapUrl })), LIVE_SEMANTICS);
    await v.finish();
  });

  it("answers an unreachable site with a documented error status and an error object", async (t) => {
    await skipUnless(t, !isMock, OP);
    const v = verdict(t);
    v.check(await target.send(sitemapRequest({ url: settings.unavailableUrl })), ["sitemap_unreachable"], { intent: "conforming", unreachableSite: true });
    await v.finish();
  });

  it("accepts valid generated sitemap requests with documented responses and no server error", async (t) => {
    const v = verdict(t);
    // Each live call reads a real sitemap (1 credit, up to 60 s): a smaller sample there.
    for (const body of sample(sitemapBody(settings.sitemapUrl), isMock ? 10 : 4))
      v.check(await target.send(sitemapRequest(body)), [...(isMock ? SEMANTICS : LIVE_SEMANTICS)]);
    await v.finish();
  });

  it("rejects bodies the seed rules out (missing url, wrong types, malformed JSON) with a 4xx", async (t) => {
    const v = verdict(t);
    const url = settings.sitemapUrl;
    const bodies = [{}, { url: 42 }, { url: null }, { url, max_cache_age: "an hour" }, { url, max_cache_age: 1.5 }, [url]];
    for (const body of bodies) v.check(await target.send(sitemapRequest(body)), [], { intent: "rejection" });
    v.check(await target.send(sitemapRequest(undefined, { rawBody: `{"url": "${url}"` })), [], { intent: "rejection" });
    await v.finish();
  });
});
