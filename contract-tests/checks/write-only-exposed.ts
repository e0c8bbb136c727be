import { pointerSegment } from "../../openapi/lib/document-error.js";
import { isJsonMedia } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import { finding, isSuccess, payload, payloadPrefix, responseBodySchema, show } from "../model/exchange.js";
import type { SpecModel } from "../model/model.js";
import type { Check } from "../model/types.js";
import { branches } from "../model/undocumented.js";

/** Deeper than any document nests; a hostile body is bounded (body_size_limit reports the depth itself). */
const MAX_DEPTH = 200;
/** Most members reported per answer (a listing of many records repeats one finding, counted). */
const MAX_EXPOSED = 50;

/** What a value is, without the value or its size: a secret is named, never shown. */
const kindOf = (v: unknown): string =>
  Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;

/** A member of the body a schema marks `writeOnly`, present with a value. */
interface Exposed {
  at: string;
  name: string;
  /** The `writeOnly` keyword's place. */
  promise: string;
  value: unknown;
}

/** What a walk of a body against one schema found: the exposed members, and the members it lists otherwise. */
interface Walk {
  exposed: Exposed[];
  listed: Set<string>;
}

/** Walks `value` against the schema at `pointer` (through `$ref`, compositions, properties and items). */
function walk(model: SpecModel, schema: unknown, pointer: string, value: unknown, at: string, depth: number, w: Walk) {
  if (depth > MAX_DEPTH || w.exposed.length >= MAX_EXPOSED || value === null || typeof value !== "object") return;
  const all = branches(model, schema, pointer);
  if (Array.isArray(value)) {
    for (const b of all.filter((x) => x.schema.items))
      value.forEach((item, i) => {
        walk(model, b.schema.items, `${b.pointer}/items`, item, `${at}/${i}`, depth + 1, w);
      });
    return;
  }
  for (const [name, member] of Object.entries(value)) {
    const path = `${at}/${pointerSegment(name)}`;
    for (const b of all) {
      if (!isMapping(b.schema.properties) || !Object.hasOwn(b.schema.properties, name)) continue;
      const where = `${b.pointer}/properties/${pointerSegment(name)}`;
      const m = model.deref(b.schema.properties[name], where);
      if (m.schema?.writeOnly !== true) w.listed.add(path);
      else if (member !== null && !w.exposed.some((e) => e.at === path))
        w.exposed.push({ at: path, name, promise: `#${m.pointer}/writeOnly`, value: member });
      walk(model, b.schema.properties[name], where, member, path, depth + 1, w);
    }
  }
}

/** The JSON body schema of the operation's request, if any. */
const requestSchema = (model: SpecModel, operationId: string): string | undefined =>
  model.has(operationId)
    ? model.operation(operationId).requestBody?.content.find((m) => isJsonMedia(m.mediaType) && m.schemaPointer)
        ?.schemaPointer
    : undefined;

/**
 * A member the response schema marks `writeOnly` (a password) is in the answer with a value; so is a member the
 * operation's request schema marks `writeOnly` in an answer of success whose schema does not list it as returned.
 * A documented response example is held to it too (the document contradicts its own keyword). Its value is never
 * shown in the report: only its type.
 */
export const writeOnlyExposed: Check = (ex, { model }) => {
  const { status, json } = ex.response;
  if (status === 0 || json === undefined || !model.isDocumentedStatus(ex.operation, status)) return [];
  const chosen = responseBodySchema(model, ex);
  if (!chosen || chosen.asText) return [];
  const body = payload(model, ex);
  const answer: Walk = { exposed: [], listed: new Set() };
  walk(model, { $ref: `#${chosen.pointer}` }, chosen.pointer, body, "", 0, answer);
  // A refusal may name the request's members (`{"password": ["too short"]}`): only an answer of success is read
  // with the request's schema.
  const sent = isSuccess(ex) ? requestSchema(model, ex.operation) : undefined;
  const request: Walk = { exposed: [], listed: new Set() };
  if (sent) walk(model, { $ref: `#${sent}` }, sent, body, "", 0, request);
  const exposed = [
    ...answer.exposed,
    ...request.exposed.filter((e) => !answer.listed.has(e.at) && !answer.exposed.some((a) => a.at === e.at)),
  ].slice(0, MAX_EXPOSED);
  const prefix = payloadPrefix(model, ex);
  return exposed.map((e) =>
    finding(ex, {
      severity: "error",
      title: `Write-only member "${show(e.name, 60).slice(1, -1)}" in the response`,
      received: `${show(e.name, 60)}: ${kindOf(e.value)} (its value is not shown here)`,
      documented: "writeOnly: sent by a client, never returned (null or left out)",
      instancePath: prefix + e.at,
      schemaPath: e.promise,
      promise: e.promise,
    }),
  );
};
