import { describe, expect, it } from "vitest";
import { ROUTES } from "../../generated/routes.js";
import { unwrapDataEnvelope } from "../envelope.js";

// The required members of each documented success schema, as the client uses them.
const REQUIRED = {
  sitemap: ROUTES.createSitemapRequest.success.required,
  schema: ROUTES.updateDataSchema.success.required,
  listing: ROUTES.listBrowserRequests.success.required,
};

const sitemap = { id: "smr_1", url: "https://x", state: "completed", links: [], link_count: 0 };
const schema = { id: "dsc_1", fields: [] };

describe("unwrapDataEnvelope", () => {
  it.each([
    [{ data: sitemap }, "sitemap", sitemap],
    [{ data: sitemap, error: null }, "sitemap", sitemap],
    [{ data: schema }, "schema", schema],
  ] as const)("unwraps %o as a %s", (body, shape, inner) => {
    expect(unwrapDataEnvelope(body, REQUIRED[shape])).toEqual({ value: inner, unwrapped: true });
  });

  it.each([
    [sitemap, "sitemap"],
    [{ data: sitemap, error: { code: "x" } }, "sitemap"],
    [{ data: sitemap, extra: 1 }, "sitemap"],
    [{ data: { something: "else" } }, "sitemap"],
    [{ data: [schema] }, "schema"],
    [{ data: schema, fields: [] }, "schema"],
    [null, "schema"],
    [{ data: { total_pages: 1 }, error: null }, "listing"],
  ] as const)("leaves %o alone (bare, ambiguous, or not the %s shape)", (body, shape) => {
    expect(unwrapDataEnvelope(body, REQUIRED[shape])).toEqual({ value: body, unwrapped: false });
  });
});
