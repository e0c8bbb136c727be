import type { Check, Violation } from "../types.js";
import { schemaBodies } from "./field-tree.js";
import { payloadPrefix, show, violation } from "./helpers.js";

/** The updated schema carries the path's id and the name and description that were sent. */
export const schemaUpdateEcho: Check = (ex) => {
  const bodies = schemaBodies(ex);
  if (!bodies) return [];
  const out: Violation[] = [];
  const add = (field: string, received: unknown, documented: unknown, why: string) =>
    out.push(violation(ex, { check: "schema_update_echo", severity: "error", title: `Returned ${field} differs from ${why}`, received: `${field}: ${show(received)}`, documented: `${field}: ${show(documented)}`, instancePath: `${payloadPrefix(ex)}/${field}`, value: received }));
  const pathId = decodeURIComponent(ex.request.path.split("/").pop() ?? "");
  if (bodies.got.id !== pathId) add("id", bodies.got.id, pathId, "the path's id");
  for (const field of ["name", "description"] as const)
    if (field in bodies.sent && bodies.got[field] !== bodies.sent[field]) add(field, bodies.got[field], bodies.sent[field], "the one sent");
  return out;
};
