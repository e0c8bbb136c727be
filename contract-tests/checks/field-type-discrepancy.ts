import type { Check, Violation } from "../types.js";
import { schemaEnum } from "../spec-model.js";
import { fieldPairs, schemaBodies } from "./field-tree.js";
import { payloadPrefix, violation } from "./helpers.js";

/**
 * Names go in, integers come out: every returned `type` is an integer of FieldTypeCode, each sent name maps
 * to one integer and different names to different integers. A string type in a response is a violation.
 */
export const fieldTypeDiscrepancy: Check = (ex) => {
  const bodies = schemaBodies(ex);
  if (!bodies) return [];
  const codes = schemaEnum("FieldTypeCode");
  const out: Violation[] = [];
  const add = (title: string, received: string, documented: string, instancePath: string, value?: unknown) =>
    out.push(violation(ex, { check: "field_type_discrepancy", severity: "error", title, received, documented, instancePath: payloadPrefix(ex) + instancePath, schemaPath: "#/components/schemas/FieldTypeCode", value }));
  const byName = new Map<string, number>();
  const byCode = new Map<number, string>();
  for (const { sent, got, path } of fieldPairs(bodies.sent.fields, bodies.got.fields)) {
    if (!got) continue;
    const type = got.type;
    if (typeof type === "string") add("String field type in the response", `type: ${JSON.stringify(type)}`, `an integer in ${codes.join(", ")} (names are for requests only)`, `${path}/type`, type);
    else if (!codes.includes(type)) add("Field type outside FieldTypeCode", `type: ${JSON.stringify(type)}`, `one of ${codes.join(", ")}`, `${path}/type`, type);
    if (!sent || typeof sent.type !== "string" || !Number.isInteger(type) || sent.name !== got.name) continue;
    const known = byName.get(sent.type);
    if (known !== undefined && known !== type) add("A type name returned as two integers", `"${sent.type}" -> ${known} and ${type}`, "one integer per type name", `${path}/type`, type);
    const other = byCode.get(type);
    if (other !== undefined && other !== sent.type) add("Two type names returned as the same integer", `"${other}" -> ${type}, "${sent.type}" -> ${type}`, "different integers for different type names", `${path}/type`, type);
    byName.set(sent.type, type);
    byCode.set(type, sent.type);
  }
  return out;
};
