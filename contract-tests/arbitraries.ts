/** fast-check arbitraries for valid requests, derived from the request schemas of the YAML document. */
import fc from "fast-check";
import { resolvePointer } from "../openapi/lib/spec.js";
import { schemaEnum, spec } from "./spec-model.js";

/** The fixed seed and bounded count of every generated sample (repeatable runs). */
export const GENERATION = { seed: 20_251_121, numRuns: 10 } as const;

/** Draws a repeatable sample of `count` values. */
export function sample<T>(arb: fc.Arbitrary<T>, count: number = GENERATION.numRuns): T[] {
  return fc.sample(arb, { seed: GENERATION.seed, numRuns: count });
}

/** SitemapRequestInput: `url` a page URL under the configured site, `max_cache_age` an int32 >= 0, null or omitted. */
export function sitemapBody(siteUrl: string): fc.Arbitrary<Record<string, unknown>> {
  const url = fc.oneof(fc.constant(siteUrl), fc.webPath({ size: "xsmall" }).map((p) => new URL(p || "/", siteUrl).href));
  // int32 per the schema; negative ages are not meaningful for "seconds", so the suite does not send them.
  const age = fc.oneof(fc.constantFrom(0, 60, 3600), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constant(null));
  return fc.record({ url, max_cache_age: age }, { requiredKeys: ["url"] });
}

/** SchemaFieldInput trees: type names from FieldTypeName; only `array` and `object` have children. */
export function schemaBody(): fc.Arbitrary<Record<string, unknown>> {
  const names = schemaEnum("FieldTypeName") as string[];
  const leafTypes = names.filter((n) => n !== "array" && n !== "object");
  const text = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_") });
  const description = fc.option(fc.string({ maxLength: 30 }), { nil: null });
  const { field } = fc.letrec<{ field: Record<string, unknown> }>((tie) => ({
    field: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.record({ name: text, type: fc.constantFrom(...leafTypes), description, fields: fc.constant([]) }),
      fc.record({ name: text, type: fc.constantFrom("array", "object"), description, fields: fc.array(tie("field"), { minLength: 1, maxLength: 3 }) }),
    ),
  }));
  return fc.record({ name: fc.option(text, { nil: null }), description, fields: fc.array(field, { minLength: 1, maxLength: 4 }) });
}

/**
 * Listing queries: `status` subsets of the state enum, `ids` from `knownIds` when given (a live server may
 * answer unknown ids as it likes: the seed does not show it) or else matching the id pattern, paging within
 * the defaults.
 */
export function listingQuery(knownIds?: ReadonlyArray<string>): fc.Arbitrary<Record<string, string>> {
  const states = schemaEnum("BrowserRequestState") as string[];
  const pattern = resolvePointer(spec(), "/components/schemas/BrowserRequestId/pattern") as string;
  const id = knownIds?.length ? fc.constantFrom(...knownIds) : fc.stringMatching(new RegExp(pattern), { size: "small" });
  const ids = fc.uniqueArray(id, { minLength: 1, maxLength: 3 }).map((s) => s.join(","));
  // Page sizes up to the default (30): the maximum page size is not shown, so larger sizes may be refused.
  const query = {
    status: fc.uniqueArray(fc.constantFrom(...states), { minLength: 1, maxLength: states.length }).map((s) => s.join(",")),
    pageSize: fc.integer({ min: 1, max: 30 }).map(String),
    page: fc.integer({ min: 1, max: 3 }).map(String),
  };
  // An empty account has no ids to ask for; unknown ids are not sent to a live server.
  return knownIds?.length === 0 ? fc.record(query, { requiredKeys: [] }) : fc.record({ ...query, ids }, { requiredKeys: [] });
}
