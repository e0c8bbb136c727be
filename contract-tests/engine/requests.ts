/**
 * Requests built from the operation table: values for path, query and header parameters and the body,
 * serialised the way the document says (style, explode), and where each value comes from: the settings
 * (CONTRACT_PARAMS), a documented example, or generated data.
 */
import {
  essence,
  isJsonMedia,
  type MediaEntry,
  type OperationEntry,
  type ParameterEntry,
} from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import type { RequestSpec } from "../transport/target.js";
import { jsonType } from "./generate.js";
import { fromWire } from "../model/wire-values.js";
import { planOf, writingOf } from "./plan.js";

/** The values of one request, by parameter name; `body` absent means no body. */
export interface Values {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
  body?: { value: unknown };
}

/** No values yet. */
export const emptyValues = (): Values => ({ path: dict(), query: dict(), header: dict(), cookie: dict() });

/**
 * A map of names to values without a prototype: a parameter or member named `__proto__`, `constructor` or
 * `toString` (the document names them) is an ordinary entry, never the prototype's.
 */
const dict = <T = unknown>(from: Record<string, T> = {}): Record<string, T> =>
  Object.assign(Object.create(null) as Record<string, T>, from);

/** A deep copy of values whose buckets stay prototype-free maps. */
export function cloneValues(v: Values): Values {
  const c = structuredClone(v);
  return { ...c, path: dict(c.path), query: dict(c.query), header: dict(c.header), cookie: dict(c.cookie) };
}

/** The values of one parameter location (`path`, `query`, `header` or `cookie`). */
export function bucketOf(values: Values, where: string): Record<string, unknown> {
  return where === "query"
    ? values.query
    : where === "header"
      ? values.header
      : where === "cookie"
        ? values.cookie
        : values.path;
}

const textOf = (v: unknown) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));
const objectEntries = (v: Record<string, unknown>) => Object.entries(v).filter(([, x]) => x !== undefined);

/**
 * The text of a parameter value (path, header and cookie values, and what a query value reads as), by its
 * style: arrays joined (or repeated when exploded in a form), objects as `k,v,k2,v2` (`k=v,k2=v2` when
 * exploded); a parameter described by a JSON `content` is its JSON.
 */
export function serialize(p: ParameterEntry, value: unknown): string | string[] {
  if (p.contentType !== undefined) return isJsonMedia(p.contentType) ? JSON.stringify(value) : textOf(value);
  if (Array.isArray(value)) {
    const items = value.map(textOf);
    if (p.in === "query" && p.style === "form" && p.explode) return items;
    return items.join(p.style === "spaceDelimited" ? " " : p.style === "pipeDelimited" ? "|" : ",");
  }
  if (isMapping(value))
    return objectEntries(value)
      .map(([k, v]) => (p.explode ? `${k}=${textOf(v)}` : `${k},${textOf(v)}`))
      .join(",");
  return textOf(value);
}

/**
 * The query pairs of one parameter, by its style: form (objects exploded into their members), delimited, deepObject.
 */
export function queryPairs(p: ParameterEntry, value: unknown): Array<[string, string]> {
  if (p.contentType === undefined && isMapping(value)) {
    const entries = objectEntries(value);
    if (p.style === "deepObject") return entries.map(([k, v]) => [`${p.name}[${k}]`, textOf(v)]);
    if (p.style === "form" && p.explode) return entries.map(([k, v]) => [k, textOf(v)]);
    return [[p.name, entries.flatMap(([k, v]) => [k, textOf(v)]).join(",")]];
  }
  const text = serialize(p, value);
  return (Array.isArray(text) ? text : [text]).map((t) => [p.name, t]);
}

/** One path segment's value, by its style (simple, label `.v`, matrix `;name=v`), percent-encoded. */
function pathSegment(p: ParameterEntry | undefined, name: string, value: unknown): string {
  if (!p) return encodeURIComponent(textOf(value));
  const enc = (t: string) => encodeURIComponent(t).replace(/%2C/gi, ",");
  // An object's members: `k=v` each when exploded, else `k,v`.
  const members =
    isMapping(value) && p.contentType === undefined
      ? objectEntries(value).map(([k, v]) =>
          p.explode ? `${enc(k)}=${enc(textOf(v))}` : `${enc(k)},${enc(textOf(v))}`,
        )
      : undefined;
  const items = Array.isArray(value) ? value.map((v) => enc(textOf(v))) : [enc(textOf(value))];
  if (p.style === "label") return `.${(members ?? items).join(p.explode ? "." : ",")}`;
  if (p.style === "matrix") {
    if (!p.explode) return `;${enc(name)}=${(members ?? items).join(",")}`;
    return members ? members.map((m) => `;${m}`).join("") : items.map((t) => `;${enc(name)}=${t}`).join("");
  }
  if (members) return members.join(",");
  const text = serialize(p, value);
  return enc(Array.isArray(text) ? text.join(",") : text);
}

/** The path with its parameters filled in (each value percent-encoded, as its style writes it). */
export function expandPath(op: OperationEntry, path: Record<string, unknown>): string {
  const params = planOf(op).parameters.path;
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => pathSegment(params.get(name), name, path[name]));
}

/** A form field's text: strings as they are, other values as JSON (`5`, `true`, `{"a":1}`); null as empty. */
const fieldText = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? "" : JSON.stringify(v));

/** A form body's Encoding Object (by property). */
type Encoding = NonNullable<MediaEntry["encoding"]>;

/**
 * How one member of a URL-encoded form is written: the Encoding Object's style and explode (default form, exploded),
 * as a query parameter would be.
 */
function formMember(name: string, encoding: Encoding, schema: unknown = {}): ParameterEntry {
  const e = encoding[name] ?? {};
  const style = e.style ?? "form";
  return {
    name,
    in: "query",
    required: false,
    style,
    explode: e.explode ?? style === "form",
    schema,
    schemaPointer: "",
    examples: [],
  };
}

/**
 * A member the Encoding Object gives a JSON media type (or, in a multipart form, an object: its default media is
 * JSON).
 */
const jsonMember = (encoding: Encoding, name: string, v: unknown, multipart: boolean) => {
  const type = encoding[name]?.contentType;
  return type !== undefined ? isJsonMedia(type) : multipart && isMapping(v);
};

/**
 * The fields of a form body, as its Encoding Object says: a member with a JSON contentType as its JSON text;
 * in a URL-encoded form, objects and arrays by the member's style and explode (default form, exploded: an
 * object's members as fields, an array repeated); in a multipart form, arrays repeated per item, objects as JSON.
 */
function formFields(value: unknown, encoding: Encoding = {}, multipart = false): Array<[string, string]> {
  if (!isMapping(value)) return [];
  return Object.entries(value).flatMap(([k, v]): Array<[string, string]> => {
    if (v === undefined) return [];
    if (jsonMember(encoding, k, v, multipart)) return [[k, JSON.stringify(v)]];
    if (multipart || v === null || typeof v !== "object")
      return (Array.isArray(v) ? v : [v])
        .filter((x) => x !== undefined)
        .map((x): [string, string] => [k, fieldText(x)]);
    return queryPairs(formMember(k, encoding), v);
  });
}

/** True when `value`, written as the operation's body media, is no body at all (an empty form): a body left out. */
export function readsAsNoBody(op: OperationEntry, value: unknown): boolean {
  const body = planOf(op).body;
  if (!body || body.writing === "json") return false;
  if (body.writing === "text") return fieldText(value) === "";
  return formFields(value, body.encoding, body.writing === "multipart").length === 0;
}

const MULTIPART_BOUNDARY = "webauto-contract-suite-boundary-7c1e";

/** A body value written as `mediaType` says: the text sent and its Content-Type. */
export function encodeBody(
  mediaType: string,
  value: unknown,
  encoding: Encoding = {},
): { rawBody: string; contentType: string } {
  const type = mediaType.split(";")[0]!.trim();
  const writing = writingOf(type);
  if (writing === "form")
    return { rawBody: new URLSearchParams(formFields(value, encoding)).toString(), contentType: type };
  if (writing === "multipart") {
    const quote = (name: string) => name.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
    const parts = formFields(value, encoding, true).map(
      ([k, v]) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`,
    );
    return {
      rawBody: `${parts.join("")}--${MULTIPART_BOUNDARY}--\r\n`,
      contentType: `${type}; boundary=${MULTIPART_BOUNDARY}`,
    };
  }
  if (writing === "json") return { rawBody: JSON.stringify(value), contentType: type };
  return { rawBody: fieldText(value), contentType: type };
}

/** The request fields of a body: JSON as `json` (sent as its media type), any other media written out. */
function bodyFields(op: OperationEntry, value: unknown): Partial<RequestSpec> {
  const body = planOf(op).body;
  if (!body) return { json: value };
  if (body.writing === "json")
    return {
      json: value,
      ...(!/^application\/json\b/i.test(body.contentType) ? { contentType: body.contentType } : {}),
    };
  return { json: value, ...encodeBody(body.contentType, value, body.encoding) };
}

/** Builds the request for `op` with `values`. */
export function toRequest(op: OperationEntry, values: Values, extra: Partial<RequestSpec> = {}): RequestSpec {
  const { parameters } = planOf(op);
  const query: Record<string, string | string[]> = dict();
  for (const [name, value] of Object.entries(values.query)) {
    const p = parameters.query.get(name);
    if (value === undefined || !p) continue;
    for (const [key, text] of queryPairs(p, value)) {
      const seen = query[key];
      query[key] =
        seen === undefined
          ? p.style === "form" && p.explode && Array.isArray(value)
            ? [text]
            : text
          : [...[seen].flat(), text];
    }
  }
  const headers: Record<string, string> = dict();
  const wire = (where: "header" | "cookie", name: string, value: unknown) => {
    const p = parameters[where].get(name);
    const text = p ? serialize(p, value) : String(value);
    return Array.isArray(text) ? text.join(",") : text;
  };
  for (const [name, value] of Object.entries(values.header))
    if (value !== undefined) headers[name] = wire("header", name, value);
  const cookies = Object.entries(values.cookie ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => `${name}=${encodeURIComponent(wire("cookie", name, v))}`);
  if (cookies.length) headers.cookie = cookies.join("; ");
  return {
    operation: op.operationId,
    method: op.method,
    path: expandPath(op, values.path),
    ...(Object.keys(values.path).length ? { pathParams: dict(values.path) } : {}),
    query,
    ...(values.body ? bodyFields(op, values.body.value) : {}),
    ...extra,
    // Headers of `extra` (Prism's Prefer, for one) are added to the parameters' headers, never in their place.
    ...(Object.keys(headers).length || extra.headers ? { headers: dict({ ...headers, ...extra.headers }) } : {}),
  };
}

/**
 * A body as the server reads it back: JSON as it is; a form's fields as text, coerced by their property
 * schemas the way query values are (`"5"` is 5 for an integer), so a mutation that is still valid on the
 * wire is not taken for a negative case; a text body as its text.
 */
export function readBack(model: SpecModel, op: OperationEntry, value: unknown): unknown {
  const body = planOf(op).body;
  if (!body || body.writing === "json") return value;
  if (body.writing === "text") return fieldText(value);
  const schema = body.pointer ? (model.deref({ $ref: `#${body.pointer}` }, body.pointer).schema ?? {}) : {};
  const multipart = body.writing === "multipart";
  const { encoding } = body;
  const out: Record<string, unknown> = dict();
  if (!isMapping(value)) return out;
  for (const [name, v] of Object.entries(value)) {
    // A member written as no field at all (an empty array, repeated per item) is absent on the wire.
    if (v === undefined || formFields({ [name]: v }, encoding, multipart).length === 0) continue;
    // A JSON member reads back as the JSON it is; any other as its text, read as its property's type.
    if (jsonMember(encoding, name, v, multipart)) out[name] = JSON.parse(JSON.stringify(v)) as unknown;
    else {
      const p = multipart
        ? formMember(name, {}, schema.properties?.[name])
        : formMember(name, encoding, schema.properties?.[name]);
      out[name] = fromWire(
        model,
        p,
        v === null ? "" : multipart && Array.isArray(v) ? v.map(fieldText) : multipart ? fieldText(v) : serialize(p, v),
      );
    }
  }
  return out;
}

/** Why a form body's value is not what its fields carry: members written as no field, a value that is no object. */
function formLosses(op: OperationEntry, value: unknown): string[] {
  const body = planOf(op).body;
  if (!body || (body.writing !== "form" && body.writing !== "multipart")) return [];
  const media = body.media;
  const multipart = body.writing === "multipart";
  if (!isMapping(value))
    return value === undefined
      ? []
      : [`a ${jsonType(value)} body, which a ${essence(media.mediaType)} form writes as no fields`];
  return Object.entries(value)
    .filter(([k, v]) => v !== undefined && formFields({ [k]: v }, media.encoding, multipart).length === 0)
    .map(
      ([k, v]) =>
        `the member ${k} holds ${JSON.stringify(v)}, which a ${essence(media.mediaType)} form writes as no field`,
    );
}

/**
 * Why a body valid under its schema does not reach the server valid: written in its media type (a form, text)
 * and read back as the server reads it, it breaks the schema (a required member holding an empty array is no
 * field of a form; a string is no multipart form). Undefined when the wire carries it, or it was not valid.
 */
export function wireLoss(model: SpecModel, op: OperationEntry, value: unknown): string | undefined {
  const media = planOf(op).body?.media;
  if (!media?.schemaPointer || isJsonMedia(media.mediaType) || value === undefined) return undefined;
  const [broken] = model.validator.validate(media.schemaPointer, readBack(model, op, value));
  if (!broken || model.validator.validate(media.schemaPointer, value).length > 0) return undefined;
  const losses = formLosses(op, value);
  return (
    `the body is valid, but the wire cannot carry it as ${essence(media.mediaType)}${losses.length ? ` (${losses.join("; ")})` : ""}: ` +
    `as the server reads it, it breaks ${broken.keyword} at ${broken.instancePath || "(root)"} ` +
    `(#${media.schemaPointer})`
  );
}

/** Why a documented example breaks its own schema (read as the server reads it), or undefined when it is valid. */
export function exampleProblem(
  model: SpecModel,
  op: OperationEntry,
  where: ParameterEntry | "body",
  value: unknown,
): string | undefined {
  const pointer = where === "body" ? planOf(op).body?.pointer : where.schemaPointer;
  if (!pointer) return undefined;
  const read = where === "body" ? readBack(model, op, value) : fromWire(model, where, serialize(where, value));
  const [err] = model.validator.validate(pointer, read);
  if (!err) return undefined;
  // Valid as written, but not as the wire carries it: the suite's request is in doubt, not the document.
  if (where === "body") {
    const lost = wireLoss(model, op, value);
    if (lost) return `the document's example is valid, but ${lost.replace(/^the body is valid, but /, "")}`;
  }
  return (
    `the document's example breaks its own schema (${err.instancePath || "(root)"} ${err.message ?? err.keyword}, ` +
    `#${pointer}): a defect of the document, so its refusal is no broken promise`
  );
}
