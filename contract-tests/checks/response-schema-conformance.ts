import type { Check, Violation } from "../types.js";
import { SPEC_ID, resolvePointer } from "../../openapi/lib/spec.js";
import { isDocumentedStatus, responseMedia, specValidator } from "../spec-model.js";
import { payload, payloadPrefix, show, violation } from "./helpers.js";

const MAX_PER_RESPONSE = 10;

/** The body of a documented status validates against its schema in the YAML (ajv, 2020-12, formats). */
export const responseSchemaConformance: Check = (ex) => {
  const { status, json } = ex.response;
  if (status === 0 || json === undefined || !isDocumentedStatus(ex.operation, status)) return [];
  const pointer = responseMedia(ex.operation, status).find((m) => m.schemaPointer && /json/.test(m.mediaType))?.schemaPointer;
  if (!pointer) return [];
  const body = payload(ex);
  const seen = new Set<string>();
  const out: Violation[] = [];
  for (const err of specValidator().validate(pointer, body)) {
    const key = `${err.instancePath}|${err.keyword}|${JSON.stringify(err.params)}`;
    if (seen.has(key) || out.length >= MAX_PER_RESPONSE) continue;
    seen.add(key);
    out.push(
      violation(ex, {
        check: "response_schema_conformance",
        severity: "error",
        title: `Response violates schema: ${err.message ?? err.keyword}`,
        received: show(resolvePointer(body, err.instancePath)),
        documented: `${err.keyword} ${JSON.stringify(err.params)}`,
        schemaPath: err.schemaPath.replace(SPEC_ID, ""),
        instancePath: payloadPrefix(ex) + err.instancePath,
        value: resolvePointer(body, err.instancePath),
      }),
    );
  }
  return out;
};
