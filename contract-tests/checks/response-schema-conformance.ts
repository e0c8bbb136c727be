import { resolvePointer } from "../../openapi/lib/document-error.js";
import { bounded, finding, payload, payloadPrefix, responseBodySchema, ruleText, show } from "../model/exchange.js";
import { docPointer } from "../model/promise.js";
import type { Check, Finding } from "../model/types.js";

const MAX_PER_RESPONSE = 10;

/**
 * The description of an `if`/`then` rule and the statement it rests on (`x-interface-statement`), when it has a
 * description.
 */
function ruleOf(schema: unknown): { description: string; statement: string } | undefined {
  const s = schema as Record<string, unknown> | undefined;
  if (typeof s?.description !== "string") return undefined;
  const description = s.description.trim().replace(/\s+/g, " ").slice(0, 200);
  return {
    description,
    statement:
      typeof s["x-interface-statement"] === "string"
        ? s["x-interface-statement"]
        : `the "then" part of this rule: ${description}`,
  };
}

/**
 * The body of a documented status validates against the schema of the media type it came as (the first JSON
 * one when its Content-Type is undocumented, which content_type_conformance reports), in the YAML (ajv, 2020-12,
 * formats).
 */
export const responseSchemaConformance: Check = (ex, { model }) => {
  const { status, bodyText, truncated } = ex.response;
  if (status === 0 || truncated || !model.isDocumentedStatus(ex.operation, status)) return [];
  const chosen = responseBodySchema(model, ex);
  if (!chosen) return [];
  const { pointer, asText } = chosen;
  // A schema the validator cannot compile is the document's problem: named, never thrown, never a silent pass.
  const problem = model.validator.problem(pointer);
  if (problem)
    return [
      finding(ex, {
        severity: "warning",
        title: "Response not validated: the document's schema cannot be compiled",
        received: `status ${status}`,
        documented: problem,
      }),
    ];
  const body = asText ? bodyText : payload(model, ex);
  const prefix = asText ? "" : payloadPrefix(model, ex);
  const seen = new Set<string>();
  const out: Array<Omit<Finding, "check">> = [];
  for (const err of model.validator.explain(pointer, body)) {
    const key = `${err.instancePath}|${err.keyword}|${JSON.stringify(err.params)}`;
    if (seen.has(key) || out.length >= MAX_PER_RESPONSE) continue;
    seen.add(key);
    const value = resolvePointer(body, err.instancePath);
    // A conditional rule (if/then) that fails: the rule named by its description and the statement it rests on.
    const rule = err.keyword === "if" ? ruleOf(err.parentSchema) : undefined;
    out.push(
      finding(ex, {
        severity: "error",
        title: rule
          ? `Response breaks a rule of its schema: ${rule.description}`
          : `Response violates schema: ${err.message ?? err.keyword}`,
        received: show(value),
        documented: rule ? rule.statement : ruleText(err),
        schemaPath: model.validator.schemaPathOf(err),
        instancePath: prefix + err.instancePath,
        value: bounded(value, 120),
        promise: docPointer(pointer),
      }),
    );
  }
  return out;
};
