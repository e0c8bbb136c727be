/**
 * The edges phase (after Schemathesis's big generated values and its coverage phase's maximum-value classes):
 * valid values at the far edge of what the document allows, where it sets no bound. An int32 with no
 * `maximum` gets its format's limit (an integer with no format or int64 its 64-bit edges, below), a string with no
 * `maxLength` a few kilobytes, an array with no `maxItems` many items (many ids in a filter). The document
 * promises nothing about such a value except what always holds: no 5xx, and a documented status. So each
 * request is sent as `conforming`: a 5xx or an undocumented 2xx is an error, an undocumented 4xx a warning
 * (the server may have a limit the document does not show, like the listing's maximum page size).
 * One request per unbounded value, at most EDGE_REQUESTS_PER_OPERATION per operation: live runs stay cheap.
 *
 * The same phase sends the value classes real bugs hide behind, each once per member or parameter (at most
 * VALUE_CLASS_REQUESTS_PER_OPERATION per operation), each only where the schema takes it: `null` for a nullable
 * member (or a parameter with JSON content: a styled parameter has no wire form of null), text outside ASCII
 * (not in headers or cookies), and the 64-bit edges of an integer with no format or int64 (2^63-1, 2^63, 2^64,
 * -2^63-1), written exactly: as text in a query, path, header or cookie, as a JSON number's digits in a body.
 */
import { isMapping } from "../../openapi/lib/spec.js";
import { isJsonMedia, type OperationEntry, type ParameterEntry } from "../../openapi/lib/operations.js";
import type { RequestSpec } from "../transport/target.js";
import type { SpecModel } from "../model/model.js";
import { MAX_GENERATED_ITEMS, MAX_GENERATED_LENGTH } from "./bounds.js";
import { INT32_MAX, INT64_MAX, typesOf, validSamples } from "./generate.js";
import { bucketOf, cloneValues, readBack, serialize, type Values } from "./requests.js";
import { planOf } from "./plan.js";
import { fromWire } from "../model/wire-values.js";

/**
 * The length of a long string: a few kilobytes, far beyond what a name or an id needs, cheap to send (within the
 * generators' bound).
 */
export const EDGE_STRING_LENGTH = Math.min(4096, MAX_GENERATED_LENGTH);
/** The items of a long array (100 ids of 34 characters make a 3.5 kB query), within the generators' bound. */
export const EDGE_ITEMS = Math.min(100, MAX_GENERATED_ITEMS);
/** The most edge requests per operation (one per unbounded value, in document order). */
export const EDGE_REQUESTS_PER_OPERATION = 6;
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

const FLOAT_MAX = 3.4028234663852886e38;

type Schema = Record<string, any>;

/** One edge value of a schema, named. */
interface EdgeValue {
  what: string;
  value: unknown;
}

/** An integer schema the 64-bit value class covers: no format or int64, no upper bound, no step. */
function wide64(s: Schema): boolean {
  return (
    typesOf(s).includes("integer") &&
    (s.format === undefined || s.format === "int64") &&
    s.maximum === undefined &&
    s.exclusiveMaximum === undefined &&
    (s.multipleOf === undefined || s.multipleOf === 1)
  );
}

/** The largest integer or number the schema's format allows, when the schema sets no upper bound. */
function largeNumber(s: Schema, types: string[]): EdgeValue | undefined {
  if (s.maximum !== undefined || s.exclusiveMaximum !== undefined) return undefined;
  const integer = !types.includes("number");
  // An integer with no format or int64 gets its 64-bit edges, written exactly, as a value class of its own.
  if (integer && wide64(s)) return undefined;
  // int64 beyond 2^53 is not exact in JSON parsers (the suite's included): the largest exact one stands for it.
  const [limit, name] = integer
    ? s.format === "int64"
      ? [Number.MAX_SAFE_INTEGER, "the largest exact int64 (2^53 - 1)"]
      : [INT32_MAX, s.format === "int32" ? "the int32 maximum" : "the int32 maximum (no format, no maximum)"]
    : s.format === "float"
      ? [FLOAT_MAX, "the float maximum"]
      : [Number.MAX_VALUE, "the double maximum"];
  const step = typeof s.multipleOf === "number" && s.multipleOf > 0 ? s.multipleOf : 1;
  const value = step === 1 ? limit : Math.floor(limit / step) * step;
  return { what: `${name}, ${value}`, value };
}

/**
 * A long version of a valid string: `seed` with characters appended (after a `/` for a URL), kept only if the
 * schema still accepts it, so a pattern or format is never broken.
 */
function longString(seed: string, accepts: (v: string) => boolean): EdgeValue | undefined {
  const room = EDGE_STRING_LENGTH - seed.length;
  if (room <= 0) return undefined;
  const appended = seed + "a".repeat(room);
  const asPath = `${seed.replace(/\/$/, "")}/${"a".repeat(room - 1)}`;
  // A URL grows in its path (a longer host name would only be a site that cannot be reached).
  for (const extended of /^[a-z][a-z0-9+.-]*:\/\//i.test(seed) ? [asPath, appended] : [appended, asPath])
    if (accepts(extended)) return { what: `a string of ${extended.length} characters`, value: extended };
  return undefined;
}

/**
 * The edge value of the (dereferenced) schema at `pointer`, grown from `current` (a valid value of it) or a
 * generated one; `accepts` says whether a candidate is still valid. Undefined where the document bounds the
 * value (maximum, maxLength, maxItems, enum, const) or no valid edge value can be built.
 */
export function edgeValue(
  model: SpecModel,
  schema: unknown,
  pointer: string,
  current: unknown,
  accepts: (v: unknown) => boolean,
): EdgeValue | undefined {
  const s = model.deref(schema, pointer).schema as Schema | undefined;
  if (!s || typeof s !== "object" || s.enum !== undefined || s.const !== undefined) return undefined;
  const types = typesOf(s);
  const candidates: Array<EdgeValue | undefined> = [];
  if (types.includes("integer") || types.includes("number")) candidates.push(largeNumber(s, types));
  if (types.includes("string") && s.maxLength === undefined) {
    const seed =
      typeof current === "string"
        ? current
        : validSamples(model, pointer, 3).find((v): v is string => typeof v === "string");
    if (seed !== undefined) candidates.push(longString(seed, accepts));
  }
  if (types.includes("array") && s.maxItems === undefined && s.items !== undefined) {
    const pool =
      Array.isArray(current) && current.length > 0
        ? current
        : validSamples(model, `${model.deref(schema, pointer).pointer}/items`, 5);
    if (pool.length > 0) {
      const items = Array.from({ length: EDGE_ITEMS }, (_, i) => structuredClone(pool[i % pool.length]));
      candidates.push({ what: `${EDGE_ITEMS} items`, value: items });
    }
  }
  return candidates.find((c) => c !== undefined && accepts(c.value));
}

/**
 * True when the (dereferenced) schema has an edge to grow to: a number, string or array the document leaves
 * unbounded.
 */
function unbounded(model: SpecModel, schema: unknown): boolean {
  const s = model.deref(schema, "").schema as Schema | undefined;
  if (!s || typeof s !== "object" || s.enum !== undefined || s.const !== undefined) return false;
  const types = typesOf(s);
  return (
    ((types.includes("integer") || types.includes("number")) &&
      s.maximum === undefined &&
      s.exclusiveMaximum === undefined) ||
    (types.includes("string") && s.maxLength === undefined) ||
    (types.includes("array") && s.maxItems === undefined && s.items !== undefined)
  );
}

/**
 * How a value is written: where it goes, and whether it goes as text (a styled parameter, a form field) rather than
 * JSON.
 */
interface Placement {
  place: ParameterEntry["in"] | "body";
  asText: boolean;
}

/**
 * True when a value class may have a value for the (dereferenced) schema written as `at` says (see {@link
 * classValues}).
 */
function hasClass(model: SpecModel, schema: unknown, at: Placement): boolean {
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
const placementOf = (p: ParameterEntry): Placement => ({
  place: p.in,
  asText: p.contentType === undefined || !isJsonMedia(p.contentType),
});

/**
 * True when the operation has a query, header or cookie parameter or a top-level body member with an edge or a
 * value class: the phase is planned only then. A path parameter, or one `linkFed` says links feed, counts only
 * for the 64-bit edges and only when `changeIds` (see {@link valueClassRequests}).
 */
export function hasEdges(
  model: SpecModel,
  op: OperationEntry,
  changeIds = false,
  linkFed: (p: ParameterEntry) => boolean = () => false,
): boolean {
  const int64Id = (p: ParameterEntry) =>
    changeIds && wide64(model.deref(p.schema, "").schema ?? {}) && placementOf(p).asText;
  const plan = planOf(op).body;
  const body = plan?.pointer ? model.deref({ $ref: `#${plan.pointer}` }, plan.pointer).schema : undefined;
  const bodyAt: Placement = { place: "body", asText: plan?.writing !== "json" };
  return (
    op.parameters.some((p) =>
      p.in === "path"
        ? int64Id(p)
        : unbounded(model, p.schema) || (linkFed(p) ? int64Id(p) : hasClass(model, p.schema, placementOf(p))),
    ) ||
    Object.values((body?.properties ?? {}) as Record<string, unknown>).some(
      (m) => unbounded(model, m) || hasClass(model, m, bodyAt),
    )
  );
}

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

/** A parameter's edge value, judged on the wire (what the server reads back), from `current` or a generated value. */
function parameterEdge(model: SpecModel, p: ParameterEntry, current: unknown): EdgeValue | undefined {
  const accepts = (v: unknown) =>
    model.validator.validate(p.schemaPointer, fromWire(model, p, serialize(p, v))).length === 0;
  return edgeValue(model, p.schema, p.schemaPointer, current, accepts);
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

/**
 * The edge requests of `op` built on `values` (the operation's base request): one per optional or required
 * query, header or cookie parameter and top-level body member with an unbounded edge. `linked(name)` gives
 * values from responses for a parameter a link targets (an identifier must exist on a live server); such a
 * parameter is grown only from them.
 */
export function edgeRequests(
  model: SpecModel,
  op: OperationEntry,
  values: Values,
  linked: (p: ParameterEntry) => unknown[] | undefined,
): EdgeRequest[] {
  const out: EdgeRequest[] = [];
  for (const p of op.parameters.filter((x) => x.in !== "path")) {
    const fed = linked(p);
    if (fed && fed.length === 0) continue;
    const current = fed ? fed.flat() : bucketOf(values, p.in)[p.name];
    const edge = parameterEdge(model, p, current);
    if (!edge) continue;
    const v = cloneValues(values);
    bucketOf(v, p.in)[p.name] = edge.value;
    out.push({ what: `${p.in} parameter ${p.name}: ${edge.what}`, values: v });
  }
  const plan = planOf(op).body;
  const body = values.body?.value;
  if (plan?.pointer && isMapping(body)) {
    const { pointer } = plan;
    const schema = model.deref({ $ref: `#${pointer}` }, pointer);
    for (const [name, member] of Object.entries((schema.schema?.properties ?? {}) as Record<string, unknown>)) {
      const withMember = (v: unknown) => ({ ...(body as object), [name]: v });
      const accepts = (v: unknown) =>
        model.validator.validate(pointer, readBack(model, op, withMember(v))).length === 0;
      const edge = edgeValue(
        model,
        member,
        `${schema.pointer}/properties/${name}`,
        (body as Record<string, unknown>)[name],
        accepts,
      );
      if (edge)
        out.push({
          what: `body member ${name}: ${edge.what}`,
          values: { ...cloneValues(values), body: { value: withMember(edge.value) } },
        });
    }
  }
  return out.slice(0, EDGE_REQUESTS_PER_OPERATION);
}
