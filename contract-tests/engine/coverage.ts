/**
 * Negative value classes of Schemathesis's coverage phase that engine/generate.ts does not build: duplicate
 * items where the schema asks for unique ones (`non_unique_items`), a member the schema forbids
 * (`additionalProperties: false`, `object_unexpected_properties`), too few or too many members
 * (`minProperties`/`maxProperties`), and a required query, header or cookie parameter left out
 * (`missing_parameter`, which Schemathesis's `missing_required_header` check judges for headers). Each value is
 * still confirmed invalid by ajv by the negative phase before it is sent, and is held like every rejection:
 * an error only where the operation documents a refusal.
 */
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import type { Mutation } from "./generate.js";
import { validSamples } from "./generate.js";

const isObject = isMapping;

/** A member name no schema of this kind lists. */
const UNEXPECTED_MEMBER = "contract_suite_unexpected_member";

/**
 * The coverage phase's further invalid values of a (dereferenced) schema, built on `valid` (a valid value of
 * it, when the caller has one) or on a generated one.
 */
export function moreInvalidValues(model: SpecModel, schema: unknown, pointer: string, valid?: unknown): Mutation[] {
  const { schema: s, pointer: at } = model.deref(schema, pointer);
  if (!isObject(s)) return [];
  const sample = () => (valid !== undefined ? valid : validSamples(model, at, 1)[0]);
  const out: Mutation[] = [];
  if (s.uniqueItems === true) {
    const list = sample();
    if (Array.isArray(list) && list.length > 0)
      out.push({
        what: "an array with a duplicate item where items must be unique",
        value: [...list, structuredClone(list[0])],
        demand: "error",
      });
    else {
      const [item] = s.items !== undefined ? validSamples(model, `${at}/items`, 1) : [];
      if (item !== undefined)
        out.push({
          what: "an array with a duplicate item where items must be unique",
          value: [item, structuredClone(item)],
          demand: "error",
        });
    }
  }
  const object = () => {
    const v = sample();
    return isObject(v) ? v : undefined;
  };
  if (s.additionalProperties === false || s.unevaluatedProperties === false) {
    const v = object();
    if (v && !(UNEXPECTED_MEMBER in (s.properties ?? {})))
      out.push({
        what: `a member the schema does not allow (${UNEXPECTED_MEMBER})`,
        value: { ...v, [UNEXPECTED_MEMBER]: "x" },
        demand: "error",
      });
  }
  if (typeof s.minProperties === "number" && s.minProperties > 0)
    out.push({ what: `fewer than ${s.minProperties} members`, value: {}, demand: "error" });
  if (typeof s.maxProperties === "number" && s.maxProperties < 1000) {
    const v = object() ?? {};
    const extra = Object.fromEntries(Array.from({ length: s.maxProperties + 1 }, (_, i) => [`member_${i}`, "x"]));
    out.push({ what: `more than ${s.maxProperties} members`, value: { ...extra, ...v }, demand: "error" });
  }
  return out;
}

/** The required query, header and cookie parameters of an operation: each is left out once. */
export function requiredParameters(op: OperationEntry): ParameterEntry[] {
  return op.parameters.filter((p) => p.required && p.in !== "path");
}
