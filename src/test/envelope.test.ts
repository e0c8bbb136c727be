import { describe, expect, it } from "vitest";
import { unwrapDataEnvelope } from "../envelope.js";

const sitemap = { id: "smr_1", url: "https://x", state: "completed", links: [], link_count: 0 };
const schema = { id: "dsc_1", fields: [] };

describe("unwrapDataEnvelope", () => {
  it.each([
    [{ data: sitemap }, "sitemap", sitemap],
    [{ data: sitemap, error: null }, "sitemap", sitemap],
    [{ data: schema }, "schema", schema],
  ] as const)("unwraps %o as a %s", (body, shape, inner) => {
    expect(unwrapDataEnvelope(body, shape)).toEqual({ value: inner, unwrapped: true });
  });

  it.each([
    [sitemap, "sitemap"],
    [{ data: sitemap, error: { code: "x" } }, "sitemap"],
    [{ data: sitemap, extra: 1 }, "sitemap"],
    [{ data: { something: "else" } }, "sitemap"],
    [{ data: [schema] }, "schema"],
    [{ data: schema, fields: [] }, "schema"],
    [null, "schema"],
  ] as const)("leaves %o alone (bare, ambiguous, or not the %s shape)", (body, shape) => {
    expect(unwrapDataEnvelope(body, shape)).toEqual({ value: body, unwrapped: false });
  });
});
