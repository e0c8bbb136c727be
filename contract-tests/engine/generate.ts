/**
 * Data from the document's schemas: valid values (json-schema-faker on a reference-free, bounded copy of the
 * schema, each sample confirmed by ajv), boundary values of numbers and strings, and invalid values for the
 * negative phase (each confirmed invalid by ajv, so a slip of the generator never becomes a finding).
 */
import { generateSync } from "json-schema-faker";
import { isMapping } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { refPointer } from "../../openapi/lib/document-error.js";
import type { SpecModel } from "../model/model.js";
import { linearRegExp } from "../../openapi/lib/regex.js";
import { GENERATION_SEED } from "../config/settings.js";
import { BoundExceeded, INLINE_NODE_BUDGET, MAX_GENERATED_ITEMS, MAX_GENERATED_LENGTH } from "./bounds.js";

/** How deep recursive schemas are unrolled for generation. */
const REF_DEPTH = 6;
/** The largest int32. */
export const INT32_MAX = 2 ** 31 - 1;
/** The largest int64, exactly. */
export const INT64_MAX = 2n ** 63n - 1n;

type Schema = Record<string, any>;
const isObject = isMapping;
const ANNOTATIONS = new Set(["enum", "examples", "example", "default", "const", "description", "required"]);

/**
 * The schema at `place` with local `$ref`s inlined (recursion cut at `depth`: deeper references become
 * `false`); at most INLINE_NODE_BUDGET nodes, else {@link BoundExceeded} naming the place.
 */
function inlineSchema(
  model: SpecModel,
  schema: unknown,
  place: string,
  depth = REF_DEPTH,
  budget = { left: INLINE_NODE_BUDGET },
): unknown {
  if (--budget.left < 0)
    throw new BoundExceeded(
      place,
      `inlining the schema's references would build more than ${INLINE_NODE_BUDGET} ` +
        `nodes (a $ref fan-out); give it an example`,
    );
  if (Array.isArray(schema)) return schema.map((s) => inlineSchema(model, s, place, depth, budget));
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === "string") {
    if (depth <= 0) return false;
    const { $ref, ...rest } = schema;
    return inlineSchema(
      model,
      { ...(resolvePointer(model.doc, refPointer($ref)) as Schema), ...rest },
      place,
      depth - 1,
      budget,
    );
  }
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      ANNOTATIONS.has(k) || k.startsWith("x-") ? v : inlineSchema(model, v, place, depth, budget),
    ]),
  );
}

/** The types a schema names (`type` as a string or a list; none when absent). */
export const typesOf = (s: Schema): string[] => (s.type === undefined ? [] : [s.type].flat());

/**
 * A copy that keeps generated values where the document guarantees acceptance: integers from their minimum
 * (0 when none) up to their maximum, else their default, else the int32/int64 limit, else minimum + 100 (a
 * server may refuse a large page size whose maximum is not shown); short strings and arrays.
 */
export function conservative(schema: unknown, place = ""): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => conservative(s, `${place}/${i}`));
  if (!isObject(schema)) return schema;
  const out: Schema = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, ANNOTATIONS.has(k) ? v : conservative(v, `${place}/${k}`)]),
  );
  // Sizes the generator builds stay within the bounds: larger maxima are capped, larger minima stop generation.
  if (typeof out.minLength === "number" && out.minLength > MAX_GENERATED_LENGTH)
    throw new BoundExceeded(
      place,
      `minLength ${out.minLength} is over the ${MAX_GENERATED_LENGTH} characters the suite generates`,
    );
  if (typeof out.minItems === "number" && out.minItems > MAX_GENERATED_ITEMS)
    throw new BoundExceeded(
      place,
      `minItems ${out.minItems} is over the ${MAX_GENERATED_ITEMS} items the suite generates`,
    );
  if (typeof out.maxLength === "number" && out.maxLength > MAX_GENERATED_LENGTH) out.maxLength = MAX_GENERATED_LENGTH;
  if (typeof out.maxItems === "number" && out.maxItems > MAX_GENERATED_ITEMS) out.maxItems = MAX_GENERATED_ITEMS;
  const types = typesOf(out);
  if (types.includes("integer") || types.includes("number")) {
    const min = out.minimum ?? 0;
    out.minimum = min;
    if (out.maximum === undefined) {
      const limit = out.format === "int32" ? INT32_MAX : out.format === "int64" ? Number.MAX_SAFE_INTEGER : undefined;
      out.maximum = typeof out.default === "number" && out.default > min ? out.default : (limit ?? min + 100);
    }
  }
  if (types.includes("string") && out.maxLength === undefined && out.pattern === undefined && out.format === undefined)
    out.maxLength = 24;
  if (types.includes("array") && out.maxItems === undefined) out.maxItems = 3;
  return out;
}

/** `count` valid values of the schema at `pointer` (fewer when the generator cannot satisfy it); repeatable. */
export function validSamples(model: SpecModel, pointer: string, count: number, seed = GENERATION_SEED): unknown[] {
  let schema: unknown;
  try {
    schema = conservative(inlineSchema(model, { $ref: `#${pointer}` }, pointer));
  } catch (err) {
    // A size bound inside the inlined copy: name the schema generated and the bound.
    throw err instanceof BoundExceeded && !err.place.startsWith(pointer)
      ? new BoundExceeded(`${pointer} (at ${err.place} of its inlined copy)`, err.bound)
      : err;
  }
  const out: unknown[] = [];
  for (let i = 0; out.length < count && i < count * 4; i++) {
    let value: unknown;
    try {
      value = generateSync(schema as never, { seed: seed + i, maxItems: 3, refDepthMax: 3 });
    } catch {
      continue;
    }
    if (value !== undefined && model.validator.validate(pointer, value).length === 0) out.push(value);
  }
  return out;
}

/** One boundary value of a (dereferenced) schema, named. */
export interface Boundary {
  what: string;
  value: unknown;
}

/** The document's own bounds of a number or string schema: minimum, maximum, minLength, maxLength. */
export function boundaries(model: SpecModel, schema: unknown): Boundary[] {
  const s = model.deref(schema, "").schema;
  if (!isObject(s)) return [];
  const types = typesOf(s);
  const out: Boundary[] = [];
  if (types.includes("integer") || types.includes("number")) {
    if (typeof s.minimum === "number") out.push({ what: `minimum ${s.minimum}`, value: s.minimum });
    if (typeof s.maximum === "number") out.push({ what: `maximum ${s.maximum}`, value: s.maximum });
    if (s.format === "int32") out.push({ what: "int32 maximum", value: INT32_MAX });
  }
  if (types.includes("string") && s.pattern === undefined && s.enum === undefined) {
    if (typeof s.minLength === "number" && s.minLength > 0 && s.minLength <= MAX_GENERATED_LENGTH)
      out.push({ what: `minLength ${s.minLength}`, value: "a".repeat(s.minLength) });
    if (typeof s.maxLength === "number" && s.maxLength <= MAX_GENERATED_LENGTH)
      out.push({ what: `maxLength ${s.maxLength}`, value: "a".repeat(s.maxLength) });
  }
  return out;
}

/** An invalid value, why it is invalid, and whether the document demands its rejection or only implies it. */
export interface Mutation {
  what: string;
  value: unknown;
  /** `warning` for formats and patterns, which the document names without saying they are enforced. */
  demand: "error" | "warning";
  /**
   * A value of a JSON type the schema rules out: where it sits ("" the value itself, "item" an array's item) and its
   * type. Written as text (a styled parameter, a form field), the types read alike: the caller keeps one per place.
   */
  wrongType?: { at: string; type: string };
}

/** Values of each JSON type, for "a value of the wrong type". */
const TYPED_VALUES: unknown[] = ["a string", 12345, true, ["a", "list"], { an: "object" }, null];

/** The JSON type of a value (`integer` for whole numbers). */
export function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
}

const allows = (types: string[], t: string) => types.includes(t) || (t === "integer" && types.includes("number"));

/** Values that break a (dereferenced) schema: wrong JSON type, out of range, outside the enum, pattern, format. */
export function invalidValues(model: SpecModel, schema: unknown, depth = 0): Mutation[] {
  const s = model.deref(schema, "").schema;
  // Arrays of arrays are probed a few levels deep (an `items` cycle would never end).
  if (!isObject(s) || depth > REF_DEPTH) return [];
  const types = typesOf(s);
  const out: Mutation[] = [];
  // Every JSON type the schema rules out (null, a boolean, a number, a string, an array, an object): a server may
  // read each its own way. A schema of no type (or whose types a composition widens) rules none out here; the
  // negative phase sends only what ajv confirms invalid.
  if (types.length > 0)
    for (const wrong of TYPED_VALUES.filter((v) => !allows(types, jsonType(v))))
      out.push({
        what: `${jsonType(wrong)} where the schema allows ${types.join(" or ")}`,
        value: wrong,
        demand: "error",
        wrongType: { at: "", type: jsonType(wrong) },
      });
  if (types.includes("integer"))
    out.push({ what: "a fraction where an integer is required", value: 1.5, demand: "error" });
  if (typeof s.minimum === "number")
    out.push({ what: `below the minimum ${s.minimum}`, value: s.minimum - 1, demand: "error" });
  if (typeof s.maximum === "number")
    out.push({ what: `above the maximum ${s.maximum}`, value: s.maximum + 1, demand: "error" });
  if (typeof s.exclusiveMinimum === "number")
    out.push({ what: `at the exclusive minimum ${s.exclusiveMinimum}`, value: s.exclusiveMinimum, demand: "error" });
  if (typeof s.exclusiveMaximum === "number")
    out.push({ what: `at the exclusive maximum ${s.exclusiveMaximum}`, value: s.exclusiveMaximum, demand: "error" });
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) {
    const off = types.includes("integer") ? (s.multipleOf > 1 ? s.multipleOf + 1 : undefined) : s.multipleOf * 1.5;
    if (off !== undefined) out.push({ what: `not a multiple of ${s.multipleOf}`, value: off, demand: "error" });
  }
  // A format only names the range: its violation accepted is a warning, like any other format's.
  if (s.format === "int32" && s.maximum === undefined)
    out.push({ what: "beyond int32 (format only)", value: INT32_MAX + 1, demand: "warning" });
  if (types.includes("string") || (types.length === 0 && (s.minLength !== undefined || s.maxLength !== undefined))) {
    if (typeof s.minLength === "number" && s.minLength > 0 && s.minLength <= MAX_GENERATED_LENGTH)
      out.push({ what: `shorter than minLength ${s.minLength}`, value: "x".repeat(s.minLength - 1), demand: "error" });
    if (typeof s.maxLength === "number" && s.maxLength < MAX_GENERATED_LENGTH)
      out.push({ what: `longer than maxLength ${s.maxLength}`, value: "x".repeat(s.maxLength + 1), demand: "error" });
  }
  if (s.const !== undefined && (typeof s.const === "string" || typeof s.const === "number")) {
    out.push({
      what: `other than the const ${JSON.stringify(s.const)}`,
      value: typeof s.const === "string" ? `${s.const}-other` : s.const + 1,
      demand: "error",
    });
  }
  if (Array.isArray(s.enum) && s.enum.every((e: unknown) => typeof e === "string"))
    out.push({ what: "a value outside the enum", value: "not-an-allowed-value", demand: "error" });
  if (typeof s.pattern === "string") {
    // RE2 (linear time): a catastrophic pattern cannot hang the generator; one RE2 cannot run yields no mutation.
    const re = linearRegExp(s.pattern, "u");
    const bad = re.unchecked ? undefined : ["not matching!", "x", "0", "-"].find((c) => !re.test(c));
    if (bad !== undefined) out.push({ what: `a string not matching ${s.pattern}`, value: bad, demand: "warning" });
  }
  if (typeof s.format === "string" && ["uri", "date-time", "email", "uuid"].includes(s.format))
    out.push({ what: `a string that is not a ${s.format}`, value: "not a valid value", demand: "warning" });
  if (types.includes("array") && s.items !== undefined) {
    for (const m of invalidValues(model, s.items, depth + 1))
      out.push({
        ...m,
        what: `an item that is ${m.what}`,
        value: [m.value],
        ...(m.wrongType
          ? { wrongType: { at: `item${m.wrongType.at && `.${m.wrongType.at}`}`, type: m.wrongType.type } }
          : {}),
      });
    if (typeof s.minItems === "number" && s.minItems > 0)
      out.push({ what: `fewer than ${s.minItems} items`, value: [], demand: "error" });
    const itemSchema = model.deref(s.items, "").schema;
    const itemTypes = isObject(itemSchema) ? typesOf(itemSchema) : [];
    const item =
      isObject(itemSchema) && Array.isArray(itemSchema.enum)
        ? itemSchema.enum[0]
        : TYPED_VALUES.find((v) => allows(itemTypes, jsonType(v)));
    if (
      typeof s.maxItems === "number" &&
      s.maxItems < MAX_GENERATED_ITEMS &&
      item !== undefined &&
      s.uniqueItems !== true
    )
      out.push({
        what: `more than ${s.maxItems} items`,
        value: Array.from({ length: s.maxItems + 1 }, () => item),
        demand: "error",
      });
  }
  return out;
}
