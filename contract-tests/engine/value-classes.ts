/**
 * The value classes real bugs hide behind, each once per member or parameter (at most
 * VALUE_CLASS_REQUESTS_PER_OPERATION per operation), each only where the schema takes it: `null` for a nullable
 * member (or a parameter with JSON content: a styled parameter has no wire form of null), text outside ASCII
 * (not in headers or cookies), and the 64-bit edges of an integer with no format or int64 (2^63-1, 2^63, 2^64,
 * -2^63-1), written exactly: as text in a query, path, header or cookie, as a JSON number's digits in a body. The
 * edges phase sends them with its edge values (edges.ts).
 */
import { isMapping } from "../../openapi/lib/spec.js";
import { isJsonMedia, type OperationEntry, type ParameterEntry } from "../../openapi/lib/operations.js";
import type { RequestSpec } from "../transport/target.js";
import type { SpecModel } from "../model/model.js";
import { INT64_MAX, typesOf, validSamples } from "./generate.js";
import { bucketOf, cloneValues, readBack, serialize, type Values } from "./requests.js";
import { planOf } from "./plan.js";
import { fromWire } from "../model/wire-values.js";

/** A schema, as the generators read it. */
export type Schema = Record<string, any>;

/** The most value-class requests (null, text outside ASCII, 64-bit integers) per operation. */
export const VALUE_CLASS_REQUESTS_PER_OPERATION = 6;
/**
 * Text outside ASCII: a Latin-1 letter and a character outside the Basic Multilingual Plane (a UTF-16 surrogate
 * pair).
 */
export const NON_ASCII_TEXT = "é\u{1F600}";
/**
 * The 64-bit edges of an integer with no format: int64's maximum, one past it, uint64's overflow, one below int64's
 * minimum.
 */
const INT64_EDGES: readonly bigint[] = [INT64_MAX, INT64_MAX + 1n, 2n ** 64n, -INT64_MAX - 2n];

/** One edge value of a schema, named. */
export interface EdgeValue {
  what: string;
  value: unknown;
}

/** An integer schema the 64-bit value class covers: no format or int64, no upper bound, no step. */
export function wide64(s: Schema): boolean {
  return (
    typesOf(s).includes("integer") &&
    (s.format === undefined || s.format === "int64") &&
    s.maximum === undefined &&
    s.exclusiveMaximum === undefined &&
    (s.multipleOf === undefined || s.multipleOf === 1)
  );
}

/**
 * How a value is written: where it goes, and whether it goes as text (a styled parameter, a form field) rather than
 * JSON.
 */
export interface Placement {
  place: ParameterEntry["in"] | "body";
  asText: boolean;
}

/**
 * True when a value class may have a value for the (dereferenced) schema written as `at` says (see {@link
 * classValues}).
 */
export function hasClass(model: SpecModel, schema: unknown, at: Placement): boolean {
  const s = model.deref(schema, "").schema as Schema | undefined;
  if (!s || typeof s !== "object" || s.enum !== undefined || s.const !== undefined) return false;
  const types = typesOf(s);
  // Text outside ASCII is sent where no pattern or format could exclude it and two characters fit.
  const text =
    types.includes("string") &&
    s.pattern === undefined &&
    s.format === undefined &&
    (s.maxLength === undefined || s.maxLength >= 2);
  return (
    ((types.includes("null") || s.nullable === true) && !at.asText) ||
    (text && at.place !== "header" && at.place !== "cookie") ||
    (wide64(s) && (at.asText || at.place === "body"))
  );
}

/**
 * Where a parameter's value goes, and whether as text (a styled parameter) or as JSON (a parameter with JSON
 * `content`).
 */
export const placementOf = (p: ParameterEntry): Placement => ({
  place: p.in,
  asText: p.contentType === undefined || !isJsonMedia(p.contentType),
});

/**
 * One value of a value class; `digits` is the exact integer when a JS number cannot hold it (a body writes these
 * digits).
 */
export interface ClassValue extends EdgeValue {
  digits?: string;
  /**
   * The answer it must get: acceptance (a 2xx) for null and text, or only a documented, non-5xx one (a 64-bit edge
   * may be refused).
   */
  intent: "acceptance" | "conforming";
}

/** True when `n` is at or above the schema's minimum (and above its exclusive minimum). */
function aboveMinimum(s: Schema, n: bigint): boolean {
  const min = typeof s.minimum === "number" ? BigInt(Math.ceil(s.minimum)) : undefined;
  const exclusive = typeof s.exclusiveMinimum === "number" ? BigInt(Math.floor(s.exclusiveMinimum)) : undefined;
  return (min === undefined || n >= min) && (exclusive === undefined || n > exclusive);
}

/**
 * The value-class values of the (dereferenced) schema at `pointer`, each still valid (`accepts`): `null` where
 * the schema is nullable and the value goes as JSON (a styled parameter has no wire form of null); text outside
 * ASCII grown from `current` where no pattern, format or length excludes it (not in a header or cookie, whose
 * values are ASCII on the wire); the 64-bit edges of an integer with no format (2^63-1, 2^63, 2^64, -2^63-1) or
 * int64 (2^63-1, -2^63) that its minimum allows, as text where the value goes as text, else as a number whose
 * exact `digits` the body writes.
 */
export function classValues(
  model: SpecModel,
  schema: unknown,
  pointer: string,
  current: unknown,
  accepts: (v: unknown) => boolean,
  at: Placement,
): ClassValue[] {
  const s = model.deref(schema, pointer).schema as Schema | undefined;
  if (!s || typeof s !== "object" || s.enum !== undefined || s.const !== undefined) return [];
  const types = typesOf(s);
  const out: ClassValue[] = [];
  if ((types.includes("null") || s.nullable === true) && !at.asText && current !== null && accepts(null))
    out.push({ what: "null (the schema is nullable)", value: null, intent: "acceptance" });
  if (types.includes("string") && at.place !== "header" && at.place !== "cookie") {
    const seed =
      typeof current === "string"
        ? current
        : validSamples(model, pointer, 3).find((v): v is string => typeof v === "string");
    const kept = seed === undefined ? [] : [...seed];
    const text = [
      ...(seed === undefined ? [] : [`${seed}${NON_ASCII_TEXT}`]),
      NON_ASCII_TEXT,
      ...(kept.length > 2 ? [`${kept.slice(0, -2).join("")}${NON_ASCII_TEXT}`] : []),
    ].find((v) => accepts(v));
    if (text !== undefined)
      out.push({ what: `text outside ASCII, ${JSON.stringify(text).slice(0, 80)}`, value: text, intent: "acceptance" });
  }
  if (wide64(s) && (at.asText || at.place === "body"))
    for (const n of s.format === "int64" ? [INT64_MAX, -INT64_MAX - 1n] : INT64_EDGES) {
      if (!aboveMinimum(s, n)) continue;
      const digits = n.toString();
      const value = at.asText ? digits : Number(n);
      if (accepts(value)) out.push({ what: `the 64-bit edge ${digits}`, value, digits, intent: "conforming" });
    }
  return out;
}

/** What the edges phase of one operation sends: values to send, each named. */
export interface EdgeRequest {
  what: string;
  values: Values;
  /** How the request is written beyond its values (a body whose integer is written with its exact digits). */
  extra?: Partial<RequestSpec>;
  /** The answer it must get (see {@link ClassValue}); conforming when not given. */
  intent?: ClassValue["intent"];
}

/** A placeholder replaced by an integer's exact digits in a JSON body's text. */
const DIGITS_MARK = "__contract_suite_exact_integer__";

/**
 * The value-class requests of `op` built on `values` (see {@link classValues}): one per class value of each
 * query, header or cookie parameter and top-level body member, at most VALUE_CLASS_REQUESTS_PER_OPERATION.
 * Where identifiers may change (`changeIds`: a safe operation, or the mock), a path parameter and a parameter
 * `linked` feeds get the 64-bit edges (an identifier that does not exist: a 4xx is fine, a 5xx is not);
 * elsewhere they are left as they are.
 */
export function valueClassRequests(
  model: SpecModel,
  op: OperationEntry,
  values: Values,
  linked: (p: ParameterEntry) => unknown[] | undefined,
  changeIds = false,
): EdgeRequest[] {
  const out: EdgeRequest[] = [];
  // Identifiers come last: one changed is mostly one that does not exist.
  const ids: EdgeRequest[] = [];
  for (const p of op.parameters) {
    const id = p.in === "path" || linked(p) !== undefined;
    if (id && !changeIds) continue;
    const accepts = (v: unknown) =>
      model.validator.validate(p.schemaPointer, fromWire(model, p, serialize(p, v))).length === 0;
    const current = bucketOf(values, p.in)[p.name];
    // An identifier gets only the 64-bit edges (an id as a number): other classes would only name another resource.
    const classes = classValues(model, p.schema, p.schemaPointer, current, accepts, placementOf(p)).filter(
      (c) => !id || c.digits !== undefined,
    );
    for (const c of classes) {
      const v = cloneValues(values);
      bucketOf(v, p.in)[p.name] = c.value;
      (id ? ids : out).push({
        what: `${p.in} parameter ${p.name}: ${c.what}`,
        values: v,
        intent: c.intent,
      });
    }
  }
  const plan = planOf(op).body;
  const body = values.body?.value;
  if (plan?.pointer && isMapping(body)) {
    const { pointer } = plan;
    const json = plan.writing === "json";
    const schema = model.deref({ $ref: `#${pointer}` }, pointer);
    for (const [name, member] of Object.entries((schema.schema?.properties ?? {}) as Record<string, unknown>)) {
      const withMember = (v: unknown) => ({ ...(body as object), [name]: v });
      const accepts = (v: unknown) =>
        model.validator.validate(pointer, readBack(model, op, withMember(v))).length === 0;
      const at: Placement = { place: "body", asText: !json };
      const current = (body as Record<string, unknown>)[name];
      for (const c of classValues(model, member, `${schema.pointer}/properties/${name}`, current, accepts, at)) {
        // A JSON number beyond 2^53 is written with its exact digits (JSON carries them; a JS number does not).
        const exact =
          json && c.digits !== undefined
            ? {
                rawBody: JSON.stringify(withMember(DIGITS_MARK)).replace(JSON.stringify(DIGITS_MARK), c.digits),
              }
            : undefined;
        out.push({
          what: `body member ${name}: ${c.what}`,
          values: { ...cloneValues(values), body: { value: withMember(c.value) } },
          intent: c.intent,
          ...(exact ? { extra: exact } : {}),
        });
      }
    }
  }
  return [...out, ...ids].slice(0, VALUE_CLASS_REQUESTS_PER_OPERATION);
}
