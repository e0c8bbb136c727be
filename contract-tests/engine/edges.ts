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
 * The same phase sends the value classes (value-classes.ts).
 */
import { isMapping } from "../../openapi/lib/spec.js";
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import type { SpecModel } from "../model/model.js";
import { MAX_GENERATED_ITEMS, MAX_GENERATED_LENGTH } from "./bounds.js";
import { INT32_MAX, typesOf, validSamples } from "./generate.js";
import { bucketOf, cloneValues, readBack, serialize, type Values } from "./requests.js";
import { planOf } from "./plan.js";
import { fromWire } from "../model/wire-values.js";
import {
  hasClass,
  placementOf,
  wide64,
  type EdgeRequest,
  type EdgeValue,
  type Placement,
  type Schema,
} from "./value-classes.js";

/**
 * The length of a long string: a few kilobytes, far beyond what a name or an id needs, cheap to send (within the
 * generators' bound).
 */
export const EDGE_STRING_LENGTH = Math.min(4096, MAX_GENERATED_LENGTH);
/** The items of a long array (100 ids of 34 characters make a 3.5 kB query), within the generators' bound. */
export const EDGE_ITEMS = Math.min(100, MAX_GENERATED_ITEMS);
/** The most edge requests per operation (one per unbounded value, in document order). */
export const EDGE_REQUESTS_PER_OPERATION = 6;

const FLOAT_MAX = 3.4028234663852886e38;

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

/** A parameter's edge value, judged on the wire (what the server reads back), from `current` or a generated value. */
function parameterEdge(model: SpecModel, p: ParameterEntry, current: unknown): EdgeValue | undefined {
  const accepts = (v: unknown) =>
    model.validator.validate(p.schemaPointer, fromWire(model, p, serialize(p, v))).length === 0;
  return edgeValue(model, p.schema, p.schemaPointer, current, accepts);
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
