/**
 * The edges phase's values, on their own: the far edge where the document sets no bound, never beyond a bound it
 * sets.
 */
import { describe, expect, it } from "vitest";
import {
  EDGE_ITEMS,
  EDGE_REQUESTS_PER_OPERATION,
  EDGE_STRING_LENGTH,
  edgeRequests,
  edgeValue,
  hasEdges,
} from "../engine/edges.js";
import {
  classValues,
  NON_ASCII_TEXT,
  VALUE_CLASS_REQUESTS_PER_OPERATION,
  valueClassRequests,
} from "../engine/value-classes.js";
import { toRequest } from "../engine/requests.js";
import { baseValues } from "../engine/values.js";
import { isSkip, skipText } from "../model/skip.js";
import { headersModel, model } from "../fixtures/exchanges.js";
import { readSettings } from "../config/settings.js";

const settings = readSettings({ CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_edges1" }) });
const requestsOf = (operationId: string, linked: (name: string) => unknown[] | undefined = () => undefined) => {
  const op = model.operation(operationId);
  const base = baseValues(model, settings, op);
  if (isSkip(base)) throw new Error(skipText(base));
  return edgeRequests(model, op, base, (p) => linked(p.name));
};
const classRequestsOf = (operationId: string, pathParameters = false) => {
  const op = model.operation(operationId);
  const base = baseValues(model, settings, op);
  if (isSkip(base)) throw new Error(skipText(base));
  return valueClassRequests(model, op, base, () => undefined, pathParameters);
};
/** A schema's class values, judged as the server reads them (text of digits as the number it names). */
const classesOf = (schema: unknown, at: { place: "query" | "body" | "header"; asText: boolean }, current?: unknown) =>
  classValues(
    model,
    schema,
    "",
    current,
    (v) =>
      model.validator.ajv.validate(
        schema as object,
        typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v,
      ) as boolean,
    at,
  );
const edgeOf = (schema: unknown) =>
  edgeValue(model, schema, "", undefined, (v) => model.validator.ajv.validate(schema as object, v) as boolean)?.value;

describe("edge values of a schema", () => {
  it(
    "an integer without maximum gets its format's limit (none of its own with no format or " +
      "int64: the 64-bit class); a bound, an enum or a const keeps the value out",
    () => {
      expect(edgeOf({ type: "integer", minimum: 1 })).toBeUndefined();
      expect(edgeOf({ type: "integer", format: "int64" })).toBeUndefined();
      expect(edgeOf({ type: ["integer", "null"], format: "int32" })).toBe(2 ** 31 - 1);
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
    },
  );

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
  it(
    "the listing: many ids and many states; its page size and page (no " +
      "format, no maximum) get their 64-bit edges as exact text",
    () => {
      const rs = requestsOf("listBrowserRequests");
      expect(rs.map((r) => r.what)).toEqual(["query parameter ids: 100 items", "query parameter status: 100 items"]);
      const classes = classRequestsOf("listBrowserRequests");
      expect(classes.map((r) => r.what)).toEqual([
        "query parameter pageSize: the 64-bit edge 9223372036854775807",
        "query parameter pageSize: the 64-bit edge 9223372036854775808",
        "query parameter pageSize: the 64-bit edge 18446744073709551616",
        "query parameter page: the 64-bit edge 9223372036854775807",
        "query parameter page: the 64-bit edge 9223372036854775808",
        "query parameter page: the 64-bit edge 18446744073709551616",
      ]);
      expect(
        classes.every((r) => r.intent === "conforming"),
        "a 64-bit edge may be refused, never with a 5xx",
      ).toBe(true);
      expect(toRequest(model.operation("listBrowserRequests"), classes[4]!.values).query).toEqual({
        page: "9223372036854775808",
      });
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
    },
  );

  it(
    "on a live target an identifier filter grows only from linked " + "ids (which exist), and is left out without them",
    () => {
      const rs = requestsOf("listBrowserRequests", (name) =>
        name === "ids" ? ["brq_linked1", "brq_linked2"] : undefined,
      );
      expect(new Set(rs[0]!.values.query.ids as string[])).toEqual(new Set(["brq_linked1", "brq_linked2"]));
      expect(
        requestsOf("listBrowserRequests", (name) => (name === "ids" ? [] : undefined)).map((r) => r.what),
      ).not.toContain("query parameter ids: 100 items");
    },
  );

  it(
    "the sitemap: a long URL and the int32 maximum max_cache_age; " + "the schema update: long strings and 100 fields",
    () => {
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
    },
  );

  it(
    "the sitemap's nullable max_cache_age gets null (to be accepted); the schema " +
      "update's nullable strings get null and text outside ASCII; a uri gets none",
    () => {
      expect(classRequestsOf("createSitemapRequest").map((r) => [r.what, r.intent])).toEqual([
        ["body member max_cache_age: null (the schema is nullable)", "acceptance"],
      ]);
      const schema = classRequestsOf("updateDataSchema");
      expect(schema.map((r) => r.what)).toEqual([
        "body member id: null (the schema is nullable)",
        `body member id: text outside ASCII, "dsc_8Vt3Qm6Lx1Rz9Kp4Nw7Hc2Jb5Yf0Gs${NON_ASCII_TEXT}"`,
        "body member name: null (the schema is nullable)",
        `body member name: text outside ASCII, "Product${NON_ASCII_TEXT}"`,
        "body member description: null (the schema is nullable)",
        `body member description: text outside ASCII, "A product listing scraped from a shop page.${NON_ASCII_TEXT}"`,
      ]);
      expect(schema).toHaveLength(VALUE_CLASS_REQUESTS_PER_OPERATION);
      expect(schema.every((r) => r.values.path.id === "dsc_edges1")).toBe(true);
      expect(
        classRequestsOf("updateDataSchema", true).some((r) => r.what.startsWith("path")),
        "a path parameter comes after the body members, within the cap",
      ).toBe(false);
    },
  );

  it(
    "value classes: null only where nullable and written as JSON; text outside ASCII only where the " +
      "schema takes it and never in a header; 64-bit edges by format and minimum, exact",
    () => {
      const whats = (schema: unknown, at: Parameters<typeof classesOf>[1], current?: unknown) =>
        classesOf(schema, at, current).map((c) => c.what);
      expect(whats({ type: ["integer", "null"], format: "int32" }, { place: "body", asText: false }, 5)).toEqual([
        "null (the schema is nullable)",
      ]);
      expect(whats({ type: "integer", format: "int32", nullable: true }, { place: "body", asText: false }, 5)).toEqual([
        "null (the schema is nullable)",
      ]);
      expect(
        whats({ type: ["string", "null"] }, { place: "query", asText: true }, "a"),
        "a styled parameter has no null",
      ).toEqual([`text outside ASCII, "a${NON_ASCII_TEXT}"`]);
      expect(whats({ type: "string" }, { place: "header", asText: true }, "a")).toEqual([]);
      expect(whats({ type: "string", pattern: "^[a-z]+$" }, { place: "query", asText: true }, "a")).toEqual([]);
      expect(whats({ type: "string", format: "uri" }, { place: "body", asText: false }, "https://a.example")).toEqual(
        [],
      );
      expect(
        classesOf({ type: "string", maxLength: 3 }, { place: "body", asText: false }, "abcd").map((c) => c.value),
        "shortened to fit a maxLength",
      ).toEqual([NON_ASCII_TEXT]);
      const body = classesOf({ type: "integer" }, { place: "body", asText: false });
      expect(body.map((c) => c.digits)).toEqual([
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551616",
        "-9223372036854775809",
      ]);
      expect(body[1]!.value).toBe(2 ** 63);
      expect(classesOf({ type: "integer" }, { place: "query", asText: true })[0]!.value).toBe("9223372036854775807");
      expect(
        classesOf({ type: "integer", format: "int64" }, { place: "header", asText: true }).map((c) => c.value),
      ).toEqual(["9223372036854775807", "-9223372036854775808"]);
      expect(
        classesOf({ type: "integer", minimum: 0 }, { place: "query", asText: true }).map((c) => c.value),
      ).not.toContain("-9223372036854775809");
      for (const none of [
        { type: "integer", format: "int32" },
        { type: "integer", maximum: 10 },
        { type: "integer", enum: [1] },
      ])
        expect(whats(none, { place: "query", asText: true }), JSON.stringify(none)).toEqual([]);
    },
  );

  it("a 64-bit edge in a JSON body is written with its exact digits (a JS number cannot hold 2^63-1)", () => {
    const op = headersModel.operation("createThing");
    const values = { path: {}, query: {}, header: {}, cookie: {}, body: { value: { count: 3, label: "ab" } } };
    const rs = valueClassRequests(headersModel, op, values, () => undefined);
    expect(rs.map((r) => r.what)).toEqual([
      "body member count: the 64-bit edge 9223372036854775807",
      "body member count: the 64-bit edge 9223372036854775808",
      "body member count: the 64-bit edge 18446744073709551616",
      "body member label: null (the schema is nullable)",
    ]);
    const sent = rs.map((r) => toRequest(op, r.values, r.extra));
    expect(sent[0]!.rawBody).toBe('{"count":9223372036854775807,"label":"ab"}');
    expect(sent[2]!.rawBody).toBe('{"count":18446744073709551616,"label":"ab"}');
    expect(sent[3]!.rawBody, "null goes as JSON null").toBeUndefined();
    expect(sent[3]!.json).toEqual({ count: 3, label: null });
  });

  it(
    "an integer path id gets its 64-bit edges as text, only where " +
      "identifiers may change (and never another class)",
    () => {
      const op = headersModel.operation("getThing");
      const values = { path: { n: 7 }, query: { note: "x" }, header: {}, cookie: {} };
      const rs = valueClassRequests(headersModel, op, values, () => undefined, true);
      expect(rs.map((r) => r.what)).toEqual([
        `query parameter note: text outside ASCII, "x${NON_ASCII_TEXT}"`,
        "path parameter n: the 64-bit edge 9223372036854775807",
        "path parameter n: the 64-bit edge 9223372036854775808",
        "path parameter n: the 64-bit edge 18446744073709551616",
      ]);
      expect(toRequest(op, rs[2]!.values).path).toBe("/things/9223372036854775808");
      expect(valueClassRequests(headersModel, op, values, () => undefined, false).map((r) => r.what)).toHaveLength(1);
      expect(
        valueClassRequests(headersModel, op, values, (p) => (p.name === "note" ? ["x"] : undefined), true).map(
          (r) => r.what,
        ),
        "a link-fed text is an identifier: left as the link gave it",
      ).toEqual(rs.slice(1).map((r) => r.what));
      expect(hasEdges(headersModel, op, true)).toBe(true);
    },
  );

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
