/** Finds response properties the document does not list, walking nested objects, arrays and compositions. */
import { pointerSegment } from "../../openapi/lib/document-error.js";
import type { SpecModel } from "./model.js";

/** Appends one by one: a response with 200,000 undocumented members is no spread of 200,000 arguments (RangeError). */
const pushAll = <T>(to: T[], items: T[]) => {
  for (const item of items) to.push(item);
};

/** One property present in a value but absent from its schema. */
export interface UndocumentedProperty {
  instancePath: string;
  schemaPath: string;
  name: string;
}

type Branch = { schema: any; pointer: string };

/**
 * The branches of each schema object of a model, with the pointer they were found at: a listing's every item (and
 * every response of a run) is walked against the same schemas, and a loaded document does not change.
 */
const known = new WeakMap<SpecModel, WeakMap<object, { pointer: string; branches: Branch[] }>>();

/** A schema dereferenced with its `oneOf`, `anyOf` and `allOf` branches (nested ones too), each with its pointer. */
export function branches(model: SpecModel, schema: any, pointer: string): Branch[] {
  if (schema === null || typeof schema !== "object") return walkBranches(model, schema, pointer);
  let bySchema = known.get(model);
  if (!bySchema) {
    bySchema = new WeakMap();
    known.set(model, bySchema);
  }
  const seen = bySchema.get(schema);
  if (seen?.pointer === pointer) return seen.branches;
  const found = walkBranches(model, schema, pointer);
  bySchema.set(schema, { pointer, branches: found });
  return found;
}

function walkBranches(model: SpecModel, schema: any, pointer: string): Branch[] {
  const own = model.deref(schema, pointer);
  const out = [own];
  for (const kw of ["oneOf", "anyOf", "allOf"]) {
    const list = own.schema?.[kw];
    if (Array.isArray(list))
      list.forEach((s, i) => {
        pushAll(out, branches(model, s, `${own.pointer}/${kw}/${i}`));
      });
  }
  return out.filter((b) => b.schema && typeof b.schema === "object");
}

/** Lists the properties of `value` (at any depth) that the schema at `pointer` does not document. */
export function undocumentedMembers(
  model: SpecModel,
  schema: any,
  pointer: string,
  value: unknown,
  at = "",
  depth = 0,
): UndocumentedProperty[] {
  if (depth > 200) return []; // a hostile body nesting deeper than any document is reported by the schema check
  const all = branches(model, schema, pointer);
  const out: UndocumentedProperty[] = [];
  if (Array.isArray(value)) {
    for (const b of all.filter((b) => b.schema.items)) {
      const items = `${b.pointer}/items`;
      value.forEach((item, i) => {
        pushAll(out, undocumentedMembers(model, b.schema.items, items, item, `${at}/${i}`, depth + 1));
      });
    }
    return out;
  }
  if (typeof value !== "object" || value === null) return out;
  const objects = all.filter((b) => b.schema.properties || b.schema.additionalProperties !== undefined);
  if (objects.length === 0) return out; // the schema says nothing about this object's members
  const open = objects.some(
    (b) => b.schema.additionalProperties === true || typeof b.schema.additionalProperties === "object",
  );
  for (const [name, member] of Object.entries(value)) {
    const owners = objects.filter((b) => b.schema.properties && name in b.schema.properties);
    if (owners.length === 0 && !open)
      out.push({
        instancePath: `${at}/${pointerSegment(name)}`,
        schemaPath: `#${objects[0]!.pointer}/properties`,
        name,
      });
    for (const b of owners)
      pushAll(
        out,
        undocumentedMembers(
          model,
          b.schema.properties[name],
          `${b.pointer}/properties/${name}`,
          member,
          `${at}/${pointerSegment(name)}`,
          depth + 1,
        ),
      );
  }
  return out;
}
