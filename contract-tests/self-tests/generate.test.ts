/** The small generators of the suite, on their own, over every parameter and body schema of the document. */
import { describe, expect, it } from "vitest";
import { boundaries, conservative, invalidValues, validSamples } from "../engine/generate.js";
import { planOf } from "../engine/plan.js";
import { model } from "../fixtures/exchanges.js";

const params = model.operations.flatMap((op) =>
  op.parameters.map((p) => ({ name: `${op.operationId} ${p.in} ${p.name}`, p })),
);
const bodies = model.operations.flatMap((op) =>
  planOf(op).body?.pointer ? [{ name: op.operationId, pointer: planOf(op).body!.pointer! }] : [],
);

describe("valid samples (json-schema-faker, confirmed by ajv)", () => {
  it.each(bodies.map((b) => [b.name, b] as const))(
    "the body of %s: every sample validates, repeatably",
    (_name, { pointer }) => {
      const samples = validSamples(model, pointer, 10);
      expect(samples.length).toBe(10);
      for (const s of samples) expect(model.validator.validate(pointer, s)).toEqual([]);
      expect(validSamples(model, pointer, 10)).toEqual(samples);
    },
  );

  it.each(params.map((x) => [x.name, x] as const))("%s: samples validate", (_name, { p }) => {
    for (const s of validSamples(model, p.schemaPointer, 5))
      expect(model.validator.validate(p.schemaPointer, s)).toEqual([]);
  });

  it(
    "stays where acceptance is guaranteed: no negative unbounded " + "integers, a default caps an unbounded maximum",
    () => {
      expect(conservative({ type: "integer" })).toMatchObject({ minimum: 0, maximum: 100 });
      expect(conservative({ type: "integer", minimum: 1, default: 30 })).toMatchObject({ minimum: 1, maximum: 30 });
      expect(conservative({ type: ["integer", "null"], format: "int32", default: 0 })).toMatchObject({
        minimum: 0,
        maximum: 2 ** 31 - 1,
      });
      expect(conservative({ type: "integer", minimum: 5, maximum: 9 })).toMatchObject({ minimum: 5, maximum: 9 });
    },
  );
});

describe("boundaries and invalid values", () => {
  it("gives the document's own bounds", () => {
    expect(boundaries(model, { type: "integer", minimum: 1, maximum: 9 }).map((b) => b.value)).toEqual([1, 9]);
    expect(boundaries(model, { type: ["integer", "null"], format: "int32" }).map((b) => b.value)).toEqual([
      2 ** 31 - 1,
    ]);
    expect(boundaries(model, { type: "string", minLength: 2, maxLength: 4 }).map((b) => b.value)).toEqual([
      "aa",
      "aaaa",
    ]);
  });

  it.each(params.map((x) => [x.name, x] as const))("%s: every invalid value breaks its schema", (_name, { p }) => {
    for (const m of invalidValues(model, p.schema))
      expect(model.validator.validate(p.schemaPointer, m.value), m.what).not.toEqual([]);
  });

  it.each([
    [{ type: "string", minLength: 3, maxLength: 5 }, ["shorter than minLength 3", "longer than maxLength 5"]],
    [
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      ["at the exclusive minimum 0", "at the exclusive maximum 1"],
    ],
    [{ type: "integer", multipleOf: 5 }, ["not a multiple of 5"]],
    [{ type: "number", multipleOf: 0.5 }, ["not a multiple of 0.5"]],
    [{ type: "string", const: "on" }, ['other than the const "on"']],
    [{ type: "array", maxItems: 2, items: { type: "string", enum: ["a", "b"] } }, ["more than 2 items"]],
  ])("mutates every keyword of %j, each mutation invalid by ajv", (schema, expected) => {
    const mutations = invalidValues(model, schema);
    expect(mutations.map((m) => m.what)).toEqual(expect.arrayContaining(expected));
    const validate = model.validator.ajv.compile(schema);
    for (const m of mutations) expect(validate(m.value), `${m.what}: ${JSON.stringify(m.value)}`).toBe(false);
  });

  it.each([
    [{ type: "string" }, ["integer", "boolean", "array", "object", "null"]],
    [{ type: "object" }, ["string", "integer", "boolean", "array", "null"]],
    [{ type: ["string", "null"] }, ["integer", "boolean", "array", "object"]],
    [{ type: "number" }, ["string", "boolean", "array", "object", "null"]],
    [{ anyOf: [{ type: "string" }, { type: "integer" }] }, []],
    [{}, []],
  ])("sends %j every JSON type it rules out, and none it allows", (schema, types) => {
    const wrong = invalidValues(model, schema).filter((m) => m.wrongType?.at === "");
    expect(wrong.map((m) => m.wrongType!.type)).toEqual(types);
    const validate = model.validator.ajv.compile(schema);
    for (const m of wrong) expect(validate(m.value), `${m.what}: ${JSON.stringify(m.value)}`).toBe(false);
  });

  it("names where a wrong type sits: the value, or an array's item", () => {
    const items = invalidValues(model, { type: "array", items: { type: "integer" } }).filter((m) => m.wrongType);
    expect(items.filter((m) => m.wrongType!.at === "item").map((m) => m.value)).toEqual([
      ["a string"],
      [true],
      [["a", "list"]],
      [{ an: "object" }],
      [null],
    ]);
  });

  it("names formats and patterns as implied, everything else as demanded", () => {
    const kinds = invalidValues(model, { type: "string", pattern: "^brq_", format: "uri" }).map(
      (m) => `${m.demand}: ${m.what}`,
    );
    expect(kinds).toEqual(
      expect.arrayContaining([
        "error: integer where the schema allows string",
        "warning: a string not matching ^brq_",
        "warning: a string that is not a uri",
      ]),
    );
    expect(
      invalidValues(model, { type: "array", minItems: 1, items: { enum: ["a"], type: "string" } }).map((m) => m.what),
    ).toEqual(expect.arrayContaining(["fewer than 1 items", "an item that is a value outside the enum"]));
  });
});
