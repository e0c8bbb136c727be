import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FieldTypeRegistry, type TypedSchemaField } from "../field-types.js";
import { pairFields } from "../pairing.js";
import type { FieldTypeName, SchemaFieldInput } from "../index.js";

const NAMES: FieldTypeName[] = ["array", "boolean", "datetime", "decimal", "double", "integer", "object", "string"];

const { tree } = fc.letrec<{ tree: SchemaFieldInput[]; field: SchemaFieldInput }>((tie) => ({
  tree: fc.array(tie("field"), { maxLength: 4 }),
  field: fc.record({
    name: fc.string({ minLength: 1, maxLength: 6 }),
    type: fc.constantFrom(...NAMES),
    fields: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.constant([] as SchemaFieldInput[]), tie("tree")),
  }),
}));
const mapping = fc
  .shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 8, maxLength: 8 })
  .map((codes) => new Map(NAMES.map((n, i) => [n, codes[i]!])));

const respond = (fields: SchemaFieldInput[], codes: Map<FieldTypeName, number>): unknown[] =>
  fields.map((f) => ({
    name: f.name,
    type: codes.get(f.type),
    description: null,
    fields: respond(f.fields ?? [], codes),
  }));

/** Every JSON pointer of a field in the tree, with the field. */
function pointers(fields: SchemaFieldInput[], base = "/fields"): Array<[string, SchemaFieldInput]> {
  return fields.flatMap((f, i) => [
    [`${base}/${i}`, f] as [string, SchemaFieldInput],
    ...pointers(f.fields ?? [], `${base}/${i}/fields`),
  ]);
}

describe("field pairing, for any schema tree and any secret mapping", () => {
  it("pairs a faithful response, names every field as sent, and learns only true pairs", () => {
    fc.assert(
      fc.property(tree, mapping, (sent, codes) => {
        const registry = new FieldTypeRegistry();
        const result = pairFields(registry, sent, respond(sent, codes), "/fields");
        if (!("fields" in result)) return false;
        const walk = (s: SchemaFieldInput[], t: TypedSchemaField[]): boolean =>
          s.length === t.length &&
          s.every(
            (f, i) =>
              t[i]!.typeName === f.type && t[i]!.type === codes.get(f.type) && walk(f.fields ?? [], t[i]!.fields),
          );
        return walk(sent, result.fields) && [...registry.snapshot()].every(([code, name]) => codes.get(name) === code);
      }),
    );
  });

  it("refuses a response with one field renamed, naming that field's pointer, and learns nothing", () => {
    fc.assert(
      fc.property(
        tree.filter((t) => t.length > 0),
        mapping,
        fc.nat(),
        (sent, codes, pick) => {
          const all = pointers(sent);
          const [pointer] = all[pick % all.length]!;
          const response = respond(sent, codes) as Array<Record<string, any>>;
          const segments = pointer.split("/").slice(2); // after "/fields"
          let node: any = { fields: response };
          for (let i = 0; i < segments.length; i += 2) node = node.fields[Number(segments[i])];
          node.name = `${node.name}~renamed`;
          const registry = new FieldTypeRegistry();
          const result = pairFields(registry, sent, response, "/fields");
          expect("violations" in result && result.violations.map((v) => v.pointer)).toContain(`${pointer}/name`);
          expect(registry.snapshot().size).toBe(0);
        },
      ),
    );
  });
});
