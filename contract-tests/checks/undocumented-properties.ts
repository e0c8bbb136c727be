import { resolvePointer } from "../../openapi/lib/document-error.js";
import { bounded, finding, payload, payloadPrefix, responseBodySchema, show } from "../model/exchange.js";
import { undocumentedMembers } from "../model/undocumented.js";
import type { Check } from "../model/types.js";

/** Response members the document does not list: a warning, or an error under CONTRACT_STRICT=1. */
export const undocumentedProperties: Check = (ex, { model }) => {
  const { status, json } = ex.response;
  if (status === 0 || json === undefined || !model.isDocumentedStatus(ex.operation, status)) return [];
  const chosen = responseBodySchema(model, ex);
  if (!chosen || chosen.asText) return [];
  const { pointer } = chosen;
  const body = payload(model, ex);
  return undocumentedMembers(model, { $ref: `#${pointer}` }, pointer, body).map((p) =>
    finding(ex, {
      severity: "error",
      title: `Undocumented property "${show(p.name, 60).slice(1, -1)}" in the response`,
      received: `"${show(p.name, 60).slice(1, -1)}": ${show(resolvePointer(body, p.instancePath), 120)}`,
      documented: "only the properties the schema lists",
      schemaPath: p.schemaPath,
      instancePath: payloadPrefix(model, ex) + p.instancePath,
      value: bounded(resolvePointer(body, p.instancePath), 120),
      // Only strict (the user's request) holds a schema's silence about other members as a promise.
      promise: p.schemaPath,
      lenient: { because: "strict-only" },
    }),
  );
};
