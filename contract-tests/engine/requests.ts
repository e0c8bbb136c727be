/**
 * Requests built from the operation table: values for path, query and header parameters and the body,
 * serialised the way the document says (style, explode), and where each value comes from: the settings
 * (CONTRACT_PARAMS), a documented example, or generated data.
 */
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import type { SpecModel } from "../model.js";
import { configuredValue, type Settings } from "../settings.js";
import type { RequestSpec } from "../target.js";
import { GENERATION_SEED, jsonType, validSamples } from "./generate.js";

/** The values of one request, by parameter name; `body` absent means no body. */
export interface Values {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body?: { value: unknown };
}

/** Serialises a parameter value by its style: arrays joined (or repeated when exploded in a form). */
export function serialize(p: ParameterEntry, value: unknown): string | string[] {
  if (Array.isArray(value)) {
    const items = value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)));
    if (p.in === "query" && p.style === "form" && p.explode) return items;
    return items.join(p.style === "spaceDelimited" ? " " : p.style === "pipeDelimited" ? "|" : ",");
  }
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** The path with its parameters filled in (each value percent-encoded). */
export function expandPath(op: OperationEntry, path: Record<string, unknown>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const p = op.parameters.find((x) => x.in === "path" && x.name === name);
    const raw = p ? serialize(p, path[name]) : String(path[name]);
    return encodeURIComponent(Array.isArray(raw) ? raw.join(",") : raw);
  });
}

/** The JSON media type of the request body, if the operation takes one. */
export function jsonBody(op: OperationEntry) {
  return op.requestBody?.content.find((m) => /json/i.test(m.mediaType));
}

/** Builds the request for `op` with `values`. */
export function toRequest(op: OperationEntry, values: Values, extra: Partial<RequestSpec> = {}): RequestSpec {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(values.query)) {
    const p = op.parameters.find((x) => x.in === "query" && x.name === name);
    if (value !== undefined && p) query[name] = serialize(p, value);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values.header)) if (value !== undefined) headers[name] = String(value);
  return {
    operation: op.operationId,
    method: op.method,
    path: expandPath(op, values.path),
    query,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(values.body ? { json: values.body.value } : {}),
    ...extra,
  };
}

/** Reads a wire string back as the parameter's schema type (as servers and Prism coerce query values). */
export function fromWire(model: SpecModel, p: ParameterEntry, wire: string | string[]): unknown {
  const s = model.deref(p.schema, "").schema ?? {};
  const types: string[] = s.type === undefined ? [] : [s.type].flat();
  const scalar = (text: string, t: string[]): unknown =>
    (t.includes("integer") || t.includes("number")) && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : t.includes("boolean") && (text === "true" || text === "false") ? text === "true" : text;
  if (types.includes("array")) {
    const items: string[] = Array.isArray(wire) ? wire : wire === "" ? [] : wire.split(p.style === "pipeDelimited" ? "|" : p.style === "spaceDelimited" ? " " : ",");
    const itemTypes: string[] = [model.deref(s.items ?? {}, "").schema?.type ?? []].flat();
    return items.map((i) => scalar(i, itemTypes));
  }
  return scalar(Array.isArray(wire) ? wire.join(",") : wire, types);
}

/** Where the base values of an operation come from, or why there are none. */
export type BaseValues = { values: Values; pairedWith?: string } | { skip: string };

/** A value for one parameter: configured, else a documented example, else generated from its schema. */
function parameterValue(model: SpecModel, settings: Settings, op: OperationEntry, p: ParameterEntry, useExamples: boolean): { value: unknown } | undefined {
  const configured = configuredValue(settings, op.operationId, p.name);
  if (configured.found) return { value: configured.value };
  if (useExamples && p.examples[0]) return { value: p.examples[0].value };
  const [sample] = validSamples(model, p.schemaPointer, 1, GENERATION_SEED);
  return sample === undefined ? undefined : { value: sample };
}

/** Top-level body members the settings pin (e.g. `createSitemapRequest.url`), applied over an object body. */
export function withConfiguredMembers(settings: Settings, op: OperationEntry, body: unknown, except?: string): unknown {
  if (jsonType(body) !== "object") return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const key of Object.keys(settings.params)) {
    const [opId, name] = key.includes(".") ? key.split(".", 2) : [op.operationId, key];
    if (opId === op.operationId && name && name !== except && !op.parameters.some((p) => p.name === name) && (name in out || key.includes("."))) out[name] = settings.params[key];
  }
  return out;
}

/**
 * The base request of an operation: required parameters and the body, from settings, examples or generated
 * data. On a live target the path parameters of an operation that changes state come only from the settings
 * (the suite never writes to a resource it was not given), and those of a safe one from the settings or `linked`.
 */
export function baseValues(model: SpecModel, settings: Settings, op: OperationEntry, linked: Record<string, unknown> = {}): BaseValues {
  const live = settings.kind === "live";
  const values: Values = { path: {}, query: {}, header: {} };
  for (const p of op.parameters) {
    if (p.in === "cookie") continue;
    if (p.in === "path") {
      const configured = configuredValue(settings, op.operationId, p.name);
      if (configured.found) values.path[p.name] = configured.value;
      else if (p.name in linked) values.path[p.name] = linked[p.name];
      else if (live) return { skip: `skipped: needs CONTRACT_PARAMS {"${op.operationId}.${p.name}": ...}${op.safe ? " (or a link that supplies it)" : " (a resource the suite may change)"}` };
      else {
        const v = parameterValue(model, settings, op, p, true);
        if (!v) return { skip: `skipped: no value for the path parameter ${p.name}` };
        values.path[p.name] = v.value;
      }
      continue;
    }
    if (!p.required) continue;
    const v = parameterValue(model, settings, op, p, true);
    if (!v) return { skip: `skipped: no value for the required ${p.in} parameter ${p.name}` };
    (p.in === "query" ? values.query : values.header)[p.name] = v.value;
  }
  const media = jsonBody(op);
  if (media) {
    const example = media.examples[0];
    const body = example ? example.value : media.schemaPointer ? validSamples(model, media.schemaPointer, 1)[0] : {};
    values.body = { value: withConfiguredMembers(settings, op, structuredClone(body)) };
  }
  return { values };
}
