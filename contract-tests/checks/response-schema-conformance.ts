import { SPEC_ID, resolvePointer } from "../../openapi/lib/spec.js";
import { bounded, finding, payload, payloadPrefix, show } from "../exchange.js";
import type { Check, Finding } from "../types.js";

const MAX_PER_RESPONSE = 10;

/** The body of a documented status validates against its schema in the YAML (ajv, 2020-12, formats). */
export const responseSchemaConformance: Check = (ex, { model }) => {
  const { status, json } = ex.response;
  if (status === 0 || json === undefined || !model.isDocumentedStatus(ex.operation, status)) return [];
  const pointer = model.responseMedia(ex.operation, status).find((m) => m.schemaPointer && /json/i.test(m.mediaType))?.schemaPointer;
  if (!pointer) return [];
  const body = payload(model, ex);
  const prefix = payloadPrefix(model, ex);
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
