/** The edges phase's values, on their own: the far edge where the document sets no bound, never beyond a bound it sets. */
import { describe, expect, it } from "vitest";
import {
  EDGE_ITEMS,
  EDGE_REQUESTS_PER_OPERATION,
  EDGE_STRING_LENGTH,
  edgeRequests,
  edgeValue,
  hasEdges,
} from "../engine/edges.js";
import { baseValues } from "../engine/requests.js";
import { model } from "../fixtures/exchanges.js";
import { readSettings } from "../config/settings.js";

const settings = readSettings({ CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_edges1" }) });
const requestsOf = (operationId: string, linked: (name: string) => unknown[] | undefined = () => undefined) => {
  const op = model.operation(operationId);
  const base = baseValues(model, settings, op);
  if ("skip" in base) throw new Error(base.skip);
  return edgeRequests(model, op, base.values, (p) => linked(p.name));
};
const edgeOf = (schema: unknown) =>
  edgeValue(model, schema, "", undefined, (v) => model.validator.ajv.validate(schema as object, v) as boolean)?.value;

describe("edge values of a schema", () => {
  it("an integer without maximum gets its format's limit; a bound, an enum or a const keeps the value out", () => {
    expect(edgeOf({ type: "integer", minimum: 1 })).toBe(2 ** 31 - 1);
    expect(edgeOf({ type: ["integer", "null"], format: "int32" })).toBe(2 ** 31 - 1);
    expect(edgeOf({ type: "integer", format: "int64" })).toBe(Number.MAX_SAFE_INTEGER);
    expect(edgeOf({ type: "integer", multipleOf: 1000 })).toBe(2_147_483_000);
    expect(edgeOf({ type: "number", format: "float" })).toBe(3.4028234663852886e38);
    for (const bounded of [
      { type: "integer", maximum: 100 },
      { type: "integer", exclusiveMaximum: 5 },
      { type: "string", maxLength: 20 },
      { type: "string", enum: ["a"] },
      { type: "array", items: { type: "string" }, maxItems: 3 },
      { const: 3 },
    ])
      expect(edgeOf(bounded), JSON.stringify(bounded)).toBeUndefined();
  });

  it("a string grows to a few kB and keeps its pattern and format (a URL grows in its path)", () => {
    expect(
      edgeValue(model, { type: "string", pattern: "^brq_[A-Za-z0-9]+$" }, "", "brq_x1", (v) =>
        /^brq_[A-Za-z0-9]+$/.test(String(v)),
      )?.value,
    ).toBe(`brq_x1${"a".repeat(EDGE_STRING_LENGTH - 6)}`);
    const url = edgeValue(model, { type: "string", format: "uri" }, "", "https://www.example.com", () => true)!
      .value as string;
    expect(url.startsWith("https://www.example.com/aaa")).toBe(true);
    expect(url.length).toBe(EDGE_STRING_LENGTH);
    expect(
      edgeValue(model, { type: "string", format: "date-time" }, "", "2025-08-22T11:05:43Z", () => false),
      "no valid long value: none",
    ).toBeUndefined();
  });
});

describe("the edge requests of each operation of the document", () => {
  it("the listing: many ids, many states, the int32 maximum page size and page", () => {
    const rs = requestsOf("listBrowserRequests");
    expect(rs.map((r) => r.what)).toEqual([
      "query parameter ids: 100 items",
      "query parameter status: 100 items",
      "query parameter pageSize: the int32 maximum (no format, no maximum), 2147483647",
      "query parameter page: the int32 maximum (no format, no maximum), 2147483647",
    ]);
    const ids = rs[0]!.values.query.ids as string[];
    expect(ids).toHaveLength(EDGE_ITEMS);
    for (const r of rs)
      for (const [name, v] of Object.entries(r.values.query))
        expect(
          model.validator.validate(
            model.operation("listBrowserRequests").parameters.find((p) => p.name === name)!.schemaPointer,
            v,
          ),
        ).toEqual([]);
  });

  it("on a live target an identifier filter grows only from linked ids (which exist), and is left out without them", () => {
    const rs = requestsOf("listBrowserRequests", (name) =>
      name === "ids" ? ["brq_linked1", "brq_linked2"] : undefined,
    );
    expect(new Set(rs[0]!.values.query.ids as string[])).toEqual(new Set(["brq_linked1", "brq_linked2"]));
    expect(
      requestsOf("listBrowserRequests", (name) => (name === "ids" ? [] : undefined)).map((r) => r.what),
    ).not.toContain("query parameter ids: 100 items");
  });

  it("the sitemap: a long URL and the int32 maximum max_cache_age; the schema update: long strings and 100 fields", () => {
    expect(requestsOf("createSitemapRequest").map((r) => r.what)).toEqual([
      `body member url: a string of ${EDGE_STRING_LENGTH} characters`,
      "body member max_cache_age: the int32 maximum, 2147483647",
    ]);
    const schema = requestsOf("updateDataSchema");
    expect(schema.map((r) => r.what)).toEqual([
      "body member id: a string of 4096 characters",
      "body member name: a string of 4096 characters",
      "body member description: a string of 4096 characters",
      "body member fields: 100 items",
    ]);
    for (const r of schema)
      expect(
        model.validator.validate(
          model.operation("updateDataSchema").requestBody!.content[0]!.schemaPointer!,
          r.values.body!.value,
        ),
      ).toEqual([]);
    expect(
      schema.every((r) => r.values.path.id === "dsc_edges1"),
      "the path id is never changed",
    ).toBe(true);
  });

  it("is planned only for operations with something to grow, and sends at most a handful per operation", () => {
    expect(
      model.operations
        .filter((op) => hasEdges(model, op))
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(["createSitemapRequest", "listBrowserRequests", "updateDataSchema"]);
    expect(EDGE_REQUESTS_PER_OPERATION).toBeLessThanOrEqual(6);
  });
});
