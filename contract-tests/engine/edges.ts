/**
 * The edges phase (after Schemathesis's big generated values and its coverage phase's maximum-value classes):
 * valid values at the far edge of what the document allows, where it sets no bound. An integer with no
 * `maximum` gets its format's limit (int32, int64 as far as JSON numbers are exact), a string with no
 * `maxLength` a few kilobytes, an array with no `maxItems` many items (many ids in a filter). The document
 * promises nothing about such a value except what always holds: no 5xx, and a documented status. So each
 * request is sent as `conforming`: a 5xx or an undocumented 2xx is an error, an undocumented 4xx a warning
 * (the server may have a limit the document does not show, like the listing's maximum page size).
 * One request per unbounded value, at most EDGE_REQUESTS_PER_OPERATION per operation: live runs stay cheap.
 */
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import type { SpecModel } from "../model/model.js";
import { MAX_GENERATED_ITEMS, MAX_GENERATED_LENGTH } from "./bounds.js";
import { typesOf, validSamples } from "./generate.js";
import { bodyMedia, bucketOf, readBack, serialize, toRequest, type Values } from "./requests.js";
import { fromWire } from "../model/wire-values.js";
import type { ScenarioContext } from "./scenario.js";
import { skip } from "./skip.js";

/** The length of a long string: a few kilobytes, far beyond what a name or an id needs, cheap to send (within the generators' bound). */
export const EDGE_STRING_LENGTH = Math.min(4096, MAX_GENERATED_LENGTH);
/** The items of a long array (100 ids of 34 characters make a 3.5 kB query), within the generators' bound. */
export const EDGE_ITEMS = Math.min(100, MAX_GENERATED_ITEMS);
/** The most edge requests per operation (one per unbounded value, in document order). */
export const EDGE_REQUESTS_PER_OPERATION = 6;

const INT32_MAX = 2 ** 31 - 1;
const FLOAT_MAX = 3.4028234663852886e38;

type Schema = Record<string, any>;

/** One edge value of a schema, named. */
interface EdgeValue {
  what: string;
  value: unknown;
}

/** The largest integer or number the schema's format allows, when the schema sets no upper bound. */
function largeNumber(s: Schema, types: string[]): EdgeValue | undefined {
  if (s.maximum !== undefined || s.exclusiveMaximum !== undefined) return undefined;
  const integer = !types.includes("number");
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

/** True when the (dereferenced) schema has an edge to grow to: a number, string or array the document leaves unbounded. */
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

/** True when the operation has a query, header or cookie parameter or a top-level body member with an edge (the phase is planned only then). */
export function hasEdges(model: SpecModel, op: OperationEntry): boolean {
  const media = bodyMedia(op);
  const body = media?.schemaPointer
    ? model.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer).schema
    : undefined;
  return (
    op.parameters.some((p) => p.in !== "path" && unbounded(model, p.schema)) ||
    Object.values((body?.properties ?? {}) as Record<string, unknown>).some((m) => unbounded(model, m))
  );
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
    const v = structuredClone(values);
    bucketOf(v, p.in)[p.name] = edge.value;
    out.push({ what: `${p.in} parameter ${p.name}: ${edge.what}`, values: v });
  }
  const media = bodyMedia(op);
  const body = values.body?.value;
  if (media?.schemaPointer && body !== null && typeof body === "object" && !Array.isArray(body)) {
    const pointer = media.schemaPointer;
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
          values: { ...structuredClone(values), body: { value: withMember(edge.value) } },
        });
    }
  }
  return out.slice(0, EDGE_REQUESTS_PER_OPERATION);
}

/** The phase: each edge request sent; its answer need only be documented and not a server error. */
export async function edges(
  ctx: ScenarioContext,
  op: OperationEntry,
  values: Values,
  linked: (p: ParameterEntry) => unknown[] | undefined,
): Promise<void> {
  const requests = edgeRequests(ctx.model, op, values, linked);
  if (requests.length === 0)
    skip("skipped: the document bounds every value of this operation (or sets none the suite can grow)");
  for (const r of requests) await ctx.send(toRequest(op, r.values), { intent: "conforming" });
}
