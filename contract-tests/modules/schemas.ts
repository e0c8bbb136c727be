/**
 * updateDataSchema: the field-type discrepancy (names go in, integers come out, one integer per name, no
 * mapping assumed), the returned tree pairs with the sent one, and the update echoes the path's id and the
 * name and description sent.
 */
import { bounded, finding, isObject, isSuccess, payload, payloadPrefix, show } from "../model/exchange.js";
import type { SpecModel } from "../model/model.js";
import type { Check, Exchange, Finding } from "../model/types.js";
import { statement } from "../model/promise.js";
import type { ContractModule } from "./types.js";

type Out = Array<Omit<Finding, "check">>;

/** A sent field and the returned field at the same position, with the returned field's instance path. */
interface FieldPair {
  sent: Record<string, any> | undefined;
  got: Record<string, any> | undefined;
  path: string;
}

/** The sent body and returned schema of a successful exchange, or undefined. */
function bodies(model: SpecModel, ex: Exchange): { sent: Record<string, any>; got: Record<string, any> } | undefined {
  const got = payload(model, ex);
  const sent = ex.request.json;
  return isSuccess(ex) && isObject(got) && isObject(sent) ? { sent, got } : undefined;
}

/**
 * Every position of either tree, depth first, in order (a missing side is undefined); depth bounded. A
 * `fields` member that was not sent claims nothing (whether omitted fields are kept or cleared is not shown,
 * seed 4.2): neither it nor anything below it is paired.
 */
function fieldPairs(sent: unknown, got: unknown, path = "/fields", depth = 0): FieldPair[] {
  // Null is "not given": a null `fields` on either side claims nothing below it.
  if (sent === undefined || sent === null || got === null) return [];
  const a = Array.isArray(sent) ? sent.filter(isObject) : [];
  const b = Array.isArray(got) ? got.filter(isObject) : [];
  const out: FieldPair[] = [];
  if (depth > 100) return out;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    out.push({ sent: a[i], got: b[i], path: `${path}/${i}` });
    out.push(...fieldPairs(a[i]?.fields, b[i]?.fields, `${path}/${i}/fields`, depth + 1));
  }
  return out;
}

/**
 * Every returned `type` is an integer of the response's type enum; each sent name maps to one integer, different
 * names to different ones.
 */
const fieldTypeDiscrepancy: Check = (ex, { model }) => {
  const b = bodies(model, ex);
  if (!b) return [];
  const codes = model.schemaEnum("FieldTypeCode");
  const out: Out = [];
  const add = (title: string, received: string, documented: string, at: string, value?: unknown) =>
    out.push(
      finding(ex, {
        severity: "error",
        title,
        received,
        documented,
        instancePath: payloadPrefix(model, ex) + at,
        schemaPath: "#/components/schemas/FieldTypeCode",
        value,
      }),
    );
  const byName = new Map<string, number>();
  const byCode = new Map<number, string>();
  // Every returned field's type is checked, whether or not fields were sent.
  for (const { sent, got, path } of fieldPairs(b.sent.fields ?? [], b.got.fields)) {
    if (!got || got.type === null) continue;
    const type = got.type;
    if (typeof type === "string")
      add(
        "String field type in the response",
        `type: ${show(type, 60)}`,
        `an integer in ${codes.join(", ")} (names are for requests only)`,
        `${path}/type`,
        type,
      );
    else if (codes.length > 0 && !codes.includes(type))
      add(
        "Field type outside FieldTypeCode",
        `type: ${show(type, 60)}`,
        `one of ${codes.join(", ")}`,
        `${path}/type`,
        type,
      );
    if (!sent || typeof sent.type !== "string" || !Number.isInteger(type) || sent.name !== got.name) continue;
    const known = byName.get(sent.type);
    if (known !== undefined && known !== type)
      add(
        "A type name returned as two integers",
        `"${sent.type}" -> ${known} and ${type}`,
        "one integer per type name",
        `${path}/type`,
        type,
      );
    const other = byCode.get(type);
    if (other !== undefined && other !== sent.type)
      add(
        "Two type names returned as the same integer",
        `"${other}" -> ${type}, "${sent.type}" -> ${type}`,
        "different integers for different type names",
        `${path}/type`,
        type,
      );
    byName.set(sent.type, type);
    byCode.set(type, sent.type);
  }
  return out;
};

/** The returned field tree pairs with the sent one: same names, same order, same nesting. */
const fieldTreePairing: Check = (ex, { model }) => {
  const b = bodies(model, ex);
  if (!b) return [];
  return fieldPairs(b.sent.fields, b.got.fields).flatMap(({ sent, got, path }) => {
    // A null name on either side is not given: it claims no position.
    if (sent && got && (sent.name === got.name || sent.name == null || got.name === null)) return [];
    const title = !got
      ? "Sent field missing from the response"
      : !sent
        ? "Response has a field that was not sent"
        : "Field name or order changed";
    return [
      finding(ex, {
        severity: "error",
        title,
        received: got ? `field ${show(got.name, 60)}` : "nothing",
        documented: sent ? `field ${show(sent.name, 60)} at this position (as sent)` : "no field here (none was sent)",
        instancePath: payloadPrefix(model, ex) + path,
        value: got?.name,
      }),
    ];
  });
};

/**
 * The updated schema carries the path's id and the name and description that were sent. A null sent is not given (no
 * claim); a value sent and answered as null is lost: the update dropped what the client just wrote.
 */
const schemaUpdateEcho: Check = (ex, { model }) => {
  const b = bodies(model, ex);
  if (!b) return [];
  const out: Out = [];
  const add = (field: string, received: unknown, documented: unknown, why: string) =>
    out.push(
      finding(ex, {
        severity: "error",
        title: `Returned ${field} differs from ${why}`,
        received: `${field}: ${show(received, 100)}`,
        documented: `${field}: ${show(documented, 100)}`,
        instancePath: `${payloadPrefix(model, ex)}/${field}`,
        value: bounded(received, 100),
      }),
    );
  const pathId = decodeURIComponent(ex.request.path.split("/").pop() ?? "");
  if (b.got.id !== null && b.got.id !== pathId) add("id", b.got.id, pathId, "the path's id");
  for (const field of ["name", "description"] as const)
    if (b.sent[field] != null && b.got[field] !== b.sent[field])
      add(
        field,
        b.got[field],
        b.sent[field],
        b.got[field] === null ? "the one sent (the update lost it)" : "the one sent",
      );
  return out;
};

/** The schemas module. */
export const schemasModule: ContractModule = {
  operationId: "updateDataSchema",
  checks: {
    field_type_discrepancy: {
      fn: fieldTypeDiscrepancy,
      relational: true,
      promise: statement("2.4", "in request bodies the type is a string ... In response bodies the type is an integer"),
    },
    field_tree_pairing: {
      fn: fieldTreePairing,
      relational: true,
      promise: statement("4.2", "Updates an existing data schema by its identifier and returns the updated schema"),
    },
    schema_update_echo: {
      fn: schemaUpdateEcho,
      relational: true,
      promise: statement("4.2", "Updates an existing data schema by its identifier and returns the updated schema"),
    },
  },
};
