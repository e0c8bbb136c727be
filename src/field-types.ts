/**
 * Field types: requests send names, responses return integers whose mapping is unpublished. The client
 * ships no mapping. It learns integer-name pairs only by pairing the fields it sent with the fields the
 * service returned (pairing.ts, loaded on the first schema update), and names integers from what it learned.
 */
import { ENUMS } from "../generated/routes.js";
import { ArgumentError } from "./errors.js";
import type { DataSchema, FieldTypeCode, FieldTypeCodes, FieldTypeName, SchemaField } from "./types.js";

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

/** The deepest nesting of fields the client sends or reads (deeper trees get a typed error, not a stack overflow). */
export const MAX_FIELD_DEPTH = 100;
/** The field type names the document lists. */
export const FIELD_TYPE_NAMES: readonly string[] = ENUMS.FieldTypeName;

/** Names the integers of `schema` from known pairs (`typeName` null where the integer is not known yet). */
export function nameFieldTypes(schema: DataSchema, codes: FieldTypeCodes): TypedDataSchema {
  const name = (fields: SchemaField[] | undefined, depth: number): TypedSchemaField[] => {
    if (depth > MAX_FIELD_DEPTH && fields?.length)
      throw new ArgumentError("schema.fields", `nests fields deeper than ${MAX_FIELD_DEPTH} levels`);
    return (fields ?? []).map((f) => ({
      ...f,
      typeName: codes.get(f.type) ?? null,
      fields: name(f.fields, depth + 1),
    }));
  };
  return { ...schema, fields: name(schema.fields, 1) };
}

/** The integer-name pairs seen so far, kept one-to-one. */
export class FieldTypeRegistry {
  readonly #byCode = new Map<FieldTypeCode, FieldTypeName>();
  readonly #byName = new Map<FieldTypeName, FieldTypeCode>();

  constructor(
    seed?: Iterable<readonly [FieldTypeCode, FieldTypeName]> | Partial<Record<FieldTypeCode, FieldTypeName>>,
  ) {
    const entries =
      seed === undefined
        ? []
        : Symbol.iterator in Object(seed)
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

  /** The name paired with integer `code`, if known. */
  nameOf(code: number): FieldTypeName | undefined {
    return this.#byCode.get(code as FieldTypeCode);
  }

  /** The integer paired with `name`, if known. */
  codeOf(name: FieldTypeName): number | undefined {
    return this.#byName.get(name);
  }

  /** Learns pairs (already checked to be one-to-one with what is known). */
  learn(pairs: Map<number, FieldTypeName>): void {
    for (const [code, name] of pairs) {
      this.#byCode.set(code as FieldTypeCode, name);
      this.#byName.set(name, code as FieldTypeCode);
    }
  }
}
