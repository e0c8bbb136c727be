import { resolvePointer } from "../../openapi/lib/spec.js";
import { bounded, finding, payload, payloadPrefix, responseBodySchema, show } from "../exchange.js";
import { docPointer } from "../promise.js";
import type { Check, Finding } from "../types.js";

const MAX_PER_RESPONSE = 10;

/**
 * The body of a documented status validates against the schema of the media type it came as (the first JSON
 * one when its Content-Type is undocumented, which content_type_conformance reports), in the YAML (ajv, 2020-12, formats).
 */
export const responseSchemaConformance: Check = (ex, { model }) => {
  const { status, bodyText, truncated } = ex.response;
  if (status === 0 || truncated || !model.isDocumentedStatus(ex.operation, status)) return [];
  const chosen = responseBodySchema(model, ex);
  if (!chosen) return [];
  const { pointer, asText } = chosen;
  const body = asText ? bodyText : payload(model, ex);
  const prefix = asText ? "" : payloadPrefix(model, ex);
  const seen = new Set<string>();
  const out: Array<Omit<Finding, "check">> = [];
  for (const err of model.validator.validate(pointer, body)) {
    const key = `${err.instancePath}|${err.keyword}|${JSON.stringify(err.params)}`;
    if (seen.has(key) || out.length >= MAX_PER_RESPONSE) continue;
    seen.add(key);
    const value = resolvePointer(body, err.instancePath);
    out.push(finding(ex, { severity: "error", title: `Response violates schema: ${err.message ?? err.keyword}`, received: show(value), documented: `${err.keyword} ${show(err.params, 160)}`, schemaPath: model.validator.schemaPathOf(err), instancePath: prefix + err.instancePath, value: bounded(value, 120), promise: docPointer(pointer) }));
  }
  return out;
};
