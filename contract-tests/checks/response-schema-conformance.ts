import { matchingMedia } from "../../openapi/lib/operations.js";
import { SPEC_ID, resolvePointer } from "../../openapi/lib/spec.js";
import { bounded, finding, payload, payloadPrefix, show } from "../exchange.js";
import type { Check, Finding } from "../types.js";

const MAX_PER_RESPONSE = 10;

/**
 * The body of a documented status validates against the schema of the media type it came as (the first JSON
 * one when its Content-Type is undocumented, which content_type_conformance reports), in the YAML (ajv, 2020-12, formats).
 */
export const responseSchemaConformance: Check = (ex, { model }) => {
  const { status, json, bodyText, truncated } = ex.response;
  if (status === 0 || truncated || !model.isDocumentedStatus(ex.operation, status)) return [];
  const media = model.responseMedia(ex.operation, status);
  const matched = matchingMedia(media, ex.response.contentType);
  // A text body (text/plain, text/csv...) is its text, even when it happens to parse as JSON; other
  // media that are not JSON (XML, binary, forms) are not validated.
  // A documented range (`*/*`, `text/*`) is read as the type actually received.
  const kind = matched ? (matched.mediaType.includes("*") ? (ex.response.contentType ?? "") : matched.mediaType) : "";
  const asText = matched !== undefined && /^text\//i.test(kind) && !/json/i.test(kind);
  if (matched && !asText && !/json/i.test(kind)) return [];
  const pointer = (asText || matched?.schemaPointer ? matched : media.find((m) => m.schemaPointer && /json/i.test(m.mediaType)))?.schemaPointer;
  if (!pointer || (!asText && json === undefined)) return [];
  const body = asText ? bodyText : payload(model, ex);
  const prefix = asText ? "" : payloadPrefix(model, ex);
  const seen = new Set<string>();
  const out: Array<Omit<Finding, "check">> = [];
  for (const err of model.validator.validate(pointer, body)) {
    const key = `${err.instancePath}|${err.keyword}|${JSON.stringify(err.params)}`;
    if (seen.has(key) || out.length >= MAX_PER_RESPONSE) continue;
    seen.add(key);
    const value = resolvePointer(body, err.instancePath);
    out.push(finding(ex, { severity: "error", title: `Response violates schema: ${err.message ?? err.keyword}`, received: show(value), documented: `${err.keyword} ${show(err.params, 160)}`, schemaPath: err.schemaPath.replace(SPEC_ID, ""), instancePath: prefix + err.instancePath, value: bounded(value, 120) }));
  }
  return out;
};
