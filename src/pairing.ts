/**
 * Pairing the fields sent in a schema update with the fields returned (same names, same order, same
 * nesting), learning integer-name pairs only from an answer that pairs, and checking a schema body before
 * it is sent. Loaded on the first `updateSchema` call, so clients that never update a schema do not carry it.
 */
import { ArgumentError, type Violation } from "./errors.js";
import { FIELD_TYPE_NAMES, MAX_FIELD_DEPTH, type FieldTypeRegistry, type TypedSchemaField } from "./field-types.js";
import type { FieldTypeCode, FieldTypeName, SchemaField, SchemaFieldInput } from "./types.js";
import { isObject } from "./values.js";

const MAX_VIOLATIONS = 20;

/**
 * Checks a schema body before it is sent: every field an object with a string `name`, a `type` among the
 * document's names (any string with `allowUnknownTypes`), `fields` an array when present, nesting at most
 * {@link MAX_FIELD_DEPTH} deep. Throws ArgumentError naming the field, e.g. `schema.fields[0].fields[2].type`.
 */
export function checkSchemaInput(schema: DataSchemaInputLike, allowUnknownTypes: boolean): void {
  const stack: Array<{ fields: unknown; at: string; depth: number }> = [
    { fields: schema.fields, at: "schema.fields", depth: 1 },
  ];
  while (stack.length > 0) {
    const { fields, at, depth } = stack.pop()!;
    if (fields === undefined) continue;
    if (!Array.isArray(fields)) throw new ArgumentError(at, "must be an array of fields");
    if (depth > MAX_FIELD_DEPTH && fields.length > 0)
      throw new ArgumentError(at, `nests fields deeper than ${MAX_FIELD_DEPTH} levels`);
    fields.forEach((f: unknown, i) => {
      const here = `${at}[${i}]`;
      if (!isObject(f)) throw new ArgumentError(here, "must be a field object with name and type");
      if (typeof f.name !== "string") throw new ArgumentError(`${here}.name`, "must be a string");
      if (typeof f.type !== "string")
        throw new ArgumentError(
          `${here}.type`,
          `must be a type name (a string: ${FIELD_TYPE_NAMES.join(", ")}), ` +
            `got ${f.type === null ? "null" : typeof f.type}`,
        );
      if (!allowUnknownTypes && !FIELD_TYPE_NAMES.includes(f.type)) {
        throw new ArgumentError(
          `${here}.type`,
          `must be one of ${FIELD_TYPE_NAMES.join(", ")}, got ${JSON.stringify(f.type.slice(0, 40))} ` +
            `(set allowUnknownFieldTypes to send names the document does not list)`,
        );
      }
      stack.push({ fields: f.fields, at: `${here}.fields`, depth: depth + 1 });
    });
  }
}

/** The part of a schema body the check reads. */
interface DataSchemaInputLike {
  fields?: unknown;
}

/**
 * Pairs the sent fields with the returned ones. On success, learns the pairs into `registry` and returns the
 * typed fields; otherwise learns nothing and returns the violations (JSON pointers below `basePointer`).
 */
export function pairFields(
  registry: FieldTypeRegistry,
  sent: SchemaFieldInput[] | undefined,
  returned: unknown,
  basePointer: string,
): { fields: TypedSchemaField[] } | { violations: Violation[] } {
  const violations: Violation[] = [];
  const byCode = new Map<number, FieldTypeName>();
  const byName = new Map<FieldTypeName, number>();
  const fail = (pointer: string, rule: string, message: string) => {
    if (violations.length < MAX_VIOLATIONS) violations.push({ pointer, rule, message });
  };
  const walk = (s: SchemaFieldInput[] | null, got: unknown, pointer: string, depth: number): TypedSchemaField[] => {
    if (got === undefined && (s === null || s.length === 0)) return [];
    if (depth > MAX_FIELD_DEPTH && Array.isArray(got) && got.length > 0) {
      fail(pointer, "depth", `fields nested deeper than ${MAX_FIELD_DEPTH} levels`);
      return [];
    }
    if (!Array.isArray(got)) {
      fail(pointer, "type", "fields must be an array");
      return [];
    }
    if (s !== null && s.length !== got.length) {
      fail(pointer, "field-pairing", `sent ${s.length} field(s), received ${got.length}`);
      return [];
    }
    return got.map((g: unknown, i): TypedSchemaField => {
      const p = `${pointer}/${i}`;
      const sentField = s?.[i];
      if (!isObject(g) || typeof g.name !== "string" || !Number.isInteger(g.type) || (g.type as number) < 0) {
        fail(p, "type", "a field must be an object with a string name and a non-negative integer type");
        return { ...(g as object), typeName: null, fields: [] } as unknown as TypedSchemaField;
      }
      const code = g.type as FieldTypeCode;
      let typeName: FieldTypeName | null = registry.nameOf(code) ?? null;
      if (sentField && typeof sentField.type === "string") {
        if (g.name !== sentField.name)
          fail(`${p}/name`, "field-pairing", `sent field "${sentField.name}" here, received "${g.name}"`);
        typeName = sentField.type;
        const knownName = byCode.get(code) ?? registry.nameOf(code);
        const knownCode = byName.get(typeName) ?? registry.codeOf(typeName);
        if (knownName !== undefined && knownName !== typeName) {
          fail(
            `${p}/type`,
            "field-type-unique",
            `integer ${code} was paired with "${knownName}" and now with "${typeName}"`,
          );
        } else if (knownCode !== undefined && knownCode !== code) {
          fail(
            `${p}/type`,
            "field-type-unique",
            `"${typeName}" was paired with integer ${knownCode} and now with ${code}`,
          );
        }
        byCode.set(code, typeName);
        byName.set(typeName, code);
      }
      const children = walk(sentField ? (sentField.fields ?? []) : null, g.fields, `${p}/fields`, depth + 1);
      return { ...(g as unknown as SchemaField), typeName, fields: children };
    });
  };
  const fields = walk(sent ?? null, returned, basePointer, 1);
  if (violations.length > 0) return { violations };
  registry.learn(byCode);
  return { fields };
}
