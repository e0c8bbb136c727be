/** Parameters written as their style says: the OpenAPI specification's own style examples, value by value. */
import { describe, expect, it } from "vitest";
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { expandPath, queryPairs, toRequest } from "../engine/requests.js";

const COLOR_ARRAY = ["blue", "black", "brown"];
const COLOR_OBJECT = { R: 100, G: 200, B: 150 };
const param = (
  where: ParameterEntry["in"],
  style: string,
  explode: boolean,
  extra: Partial<ParameterEntry> = {},
): ParameterEntry => ({
  name: "color",
  in: where,
  required: true,
  style,
  explode,
  schema: {},
  schemaPointer: "",
  examples: [],
  ...extra,
});
const path = (style: string, explode: boolean, value: unknown) =>
  expandPath({ path: "/x/{color}", parameters: [param("path", style, explode)] } as unknown as OperationEntry, {
    color: value,
  }).slice("/x/".length);
const query = (style: string, explode: boolean, value: unknown) =>
  queryPairs(param("query", style, explode), value)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");

describe("path styles (OpenAPI 3.1, Style Examples)", () => {
  it.each([
    ["simple", false, "blue", "blue"],
    ["simple", false, COLOR_ARRAY, "blue,black,brown"],
    ["simple", false, COLOR_OBJECT, "R,100,G,200,B,150"],
    ["simple", true, COLOR_OBJECT, "R=100,G=200,B=150"],
    ["label", false, "blue", ".blue"],
    ["label", false, COLOR_ARRAY, ".blue,black,brown"],
    ["label", true, COLOR_ARRAY, ".blue.black.brown"],
    ["label", false, COLOR_OBJECT, ".R,100,G,200,B,150"],
    ["label", true, COLOR_OBJECT, ".R=100.G=200.B=150"],
    ["matrix", false, "blue", ";color=blue"],
    ["matrix", false, COLOR_ARRAY, ";color=blue,black,brown"],
    ["matrix", true, COLOR_ARRAY, ";color=blue;color=black;color=brown"],
    ["matrix", false, COLOR_OBJECT, ";color=R,100,G,200,B,150"],
    ["matrix", true, COLOR_OBJECT, ";R=100;G=200;B=150"],
  ])("%s (explode %s) writes %j as %s", (style, explode, value, expected) => {
    expect(path(style as string, explode as boolean, value)).toBe(expected);
  });
});

describe("query styles", () => {
  it.each([
    ["form", true, "blue", "color=blue"],
    ["form", false, COLOR_ARRAY, "color=blue,black,brown"],
    ["form", true, COLOR_ARRAY, "color=blue&color=black&color=brown"],
    ["form", false, COLOR_OBJECT, "color=R,100,G,200,B,150"],
    ["form", true, COLOR_OBJECT, "R=100&G=200&B=150"],
    ["spaceDelimited", false, COLOR_ARRAY, "color=blue black brown"],
    ["pipeDelimited", false, COLOR_ARRAY, "color=blue|black|brown"],
    ["deepObject", true, COLOR_OBJECT, "color[R]=100&color[G]=200&color[B]=150"],
  ])("%s (explode %s) writes %j as %s", (style, explode, value, expected) => {
    expect(query(style as string, explode as boolean, value)).toBe(expected);
  });

  it("writes a parameter described by JSON content as its JSON, whatever the style", () => {
    expect(query("form", true, COLOR_OBJECT).startsWith("R=")).toBe(true);
    expect(queryPairs(param("query", "form", true, { contentType: "application/json" }), COLOR_OBJECT)).toEqual([
      ["color", '{"R":100,"G":200,"B":150}'],
    ]);
  });

  it(
    "gathers the pairs of a request: repeated keys as lists, a " + "deepObject's members under their bracketed names",
    () => {
      const op = {
        operationId: "o",
        method: "GET",
        path: "/x",
        parameters: [param("query", "form", true), { ...param("query", "deepObject", true), name: "f" }],
      } as unknown as OperationEntry;
      expect(
        toRequest(op, { path: {}, query: { color: COLOR_ARRAY, f: { a: 1 } }, header: {}, cookie: {} }).query,
      ).toEqual({ color: COLOR_ARRAY, "f[a]": "1" });
    },
  );
});
