import type { Check } from "../types.js";
import { isDocumentedStatus, responseMedia } from "../spec-model.js";
import { undocumentedProperties as find } from "../undocumented.js";
import { resolvePointer } from "../../openapi/lib/spec.js";
import { payload, payloadPrefix, show, violation } from "./helpers.js";

/** Response members the document does not list: a warning, or an error under CONTRACT_STRICT=1. */
export const undocumentedProperties: Check = (ex, ctx) => {
  const { status, json } = ex.response;
  if (status === 0 || json === undefined || !isDocumentedStatus(ex.operation, status)) return [];
  const pointer = responseMedia(ex.operation, status).find((m) => m.schemaPointer)?.schemaPointer;
  if (!pointer) return [];
  const body = payload(ex);
  return find({ $ref: `#${pointer}` }, pointer, body).map((p) =>
    violation(ex, {
      check: "undocumented_properties",
      severity: ctx.strict ? "error" : "warning",
      title: `Undocumented property "${p.name}" in the response`,
      received: `"${p.name}": ${show(resolvePointer(body, p.instancePath), 120)}`,
      documented: "only the properties the schema lists",
      schemaPath: p.schemaPath,
      instancePath: payloadPrefix(ex) + p.instancePath,
      value: resolvePointer(body, p.instancePath),
    }),
  );
};
