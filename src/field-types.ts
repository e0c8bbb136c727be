/**
 * Field types: requests send names, responses return integers whose mapping is unpublished. The client
 * ships no mapping. It learns integer-name pairs only by pairing the fields it sent with the fields the
 * service returned (same names, same order, same nesting), and refuses a response that does not pair.
 */
import type { Violation } from "./errors.js";
import type { DataSchema, FieldTypeCode, FieldTypeCodes, FieldTypeName, SchemaField, SchemaFieldInput } from "./types.js";

/** A returned field with the name of its type (`typeName`) next to the raw integer (`type`). */
export interface TypedSchemaField extends Omit<SchemaField, "fields"> {
  /** The type name: the one sent for this field, or the learned name for its integer; null when unknown. */
  typeName: FieldTypeName | null;
  fields: TypedSchemaField[];
}

/** A returned data schema whose fields carry `typeName`. */
export interface TypedDataSchema extends Omit<DataSchema, "fields"> {
  fields: TypedSchemaField[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const MAX_VIOLATIONS = 20;

/** Names the integers of `schema` from known pairs (`typeName` null where the integer is not known yet). */
export function nameFieldTypes(schema: DataSchema, codes: FieldTypeCodes): TypedDataSchema {
  const name = (fields: SchemaField[] | undefined): TypedSchemaField[] =>
    (fields ?? []).map((f) => ({ ...f, typeName: codes.get(f.type) ?? null, fields: name(f.fields) }));
  return { ...schema, fields: name(schema.fields) };
}

/** The integer-name pairs seen so far, kept one-to-one. */
export class FieldTypeRegistry {
  readonly #byCode = new Map<FieldTypeCode, FieldTypeName>();
  readonly #byName = new Map<FieldTypeName, FieldTypeCode>();

  constructor(seed?: Iterable<readonly [FieldTypeCode, FieldTypeName]> | Partial<Record<FieldTypeCode, FieldTypeName>>) {
    const entries = seed === undefined ? [] : Symbol.iterator in Object(seed)
      ? [...(seed as Iterable<readonly [FieldTypeCode, FieldTypeName]>)]
      : Object.entries(seed).map(([k, v]) => [Number(k) as FieldTypeCode, v as FieldTypeName] as const);
    for (const [code, name] of entries) {
      const otherName = this.#byCode.get(code);
      const otherCode = this.#byName.get(name);
      if ((otherName !== undefined && otherName !== name) || (otherCode !== undefined && otherCode !== code)) {
        throw new Error(`fieldTypeCodes: the seed pairs integer ${code} or name "${name}" twice`);
      }
      this.#byCode.set(code, name);
      this.#byName.set(name, code);
    }
  }

  /** A snapshot of the pairs learned so far (integer to name). */
  snapshot(): FieldTypeCodes {
    return new Map(this.#byCode);
  }

  /**
   * Pairs the sent fields with the returned ones. On success, learns the pairs and returns the typed fields;
   * otherwise learns nothing and returns the violations (JSON pointers below `basePointer`).
   */
  pair(sent: SchemaFieldInput[] | undefined, returned: unknown, basePointer: string): { fields: TypedSchemaField[] } | { violations: Violation[] } {
    const violations: Violation[] = [];
    const byCode = new Map<number, FieldTypeName>();
    const byName = new Map<FieldTypeName, number>();
    const fail = (pointer: string, rule: string, message: string) => {
      if (violations.length < MAX_VIOLATIONS) violations.push({ pointer, rule, message });
    };
    const walk = (s: SchemaFieldInput[] | null, got: unknown, pointer: string): TypedSchemaField[] => {
      if (got === undefined && (s === null || s.length === 0)) return [];
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
        let typeName: FieldTypeName | null = this.#byCode.get(code) ?? null;
        if (sentField) {
          if (g.name !== sentField.name) fail(`${p}/name`, "field-pairing", `sent field "${sentField.name}" here, received "${g.name}"`);
          typeName = sentField.type;
          const knownName = byCode.get(code) ?? this.#byCode.get(code);
          const knownCode = byName.get(typeName) ?? this.#byName.get(typeName);
          if (knownName !== undefined && knownName !== typeName) {
            fail(`${p}/type`, "field-type-unique", `integer ${code} was paired with "${knownName}" and now with "${typeName}"`);
          } else if (knownCode !== undefined && knownCode !== code) {
            fail(`${p}/type`, "field-type-unique", `"${typeName}" was paired with integer ${knownCode} and now with ${code}`);
          }
          byCode.set(code, typeName);
          byName.set(typeName, code);
        }
        const children = walk(sentField ? sentField.fields ?? [] : null, g.fields, `${p}/fields`);
        return { ...(g as unknown as SchemaField), typeName, fields: children };
      });
    };
    const fields = walk(sent ?? null, returned, basePointer);
    if (violations.length > 0) return { violations };
    for (const [code, name] of byCode) {
      this.#byCode.set(code as FieldTypeCode, name);
      this.#byName.set(name, code as FieldTypeCode);
    }
    return { fields };
  }
}
