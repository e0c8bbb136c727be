import type { ParameterEntry } from "../../openapi/lib/operations.js";
import { documentedResponse } from "../../openapi/lib/operations.js";
import { fromWire } from "../model/wire-values.js";
import { finding, ruleText, show } from "../model/exchange.js";
import { responsePromise } from "../model/promise.js";
import type { Check, Finding } from "../model/types.js";

/**
 * The headers a documented response declares: each required one is present, and each present one's text,
 * read as its schema's type (`"5"` is 5 for an integer, `"a,b"` an array), validates against that schema.
 */
export const responseHeadersConformance: Check = (ex, { model }) => {
  const { status, headers } = ex.response;
  // A documented example is a body without headers: there is nothing to check.
  if (status === 0 || ex.documented) return [];
  const response = documentedResponse(model.operation(ex.operation), status);
  const out: Array<Omit<Finding, "check">> = [];
  for (const h of response?.headers ?? []) {
    const text = headers[h.name.toLowerCase()];
    const promise = responsePromise(model, ex.operation, status, "headers", h.name);
    if (text === undefined) {
      if (h.required)
        out.push(
          finding(ex, {
            severity: "error",
            title: `Missing required response header ${h.name}`,
            received: "(absent)",
            documented: `${h.name}, required on ${response!.status}`,
            promise,
          }),
        );
      continue;
    }
    if (!h.schemaPointer) continue;
    const p: ParameterEntry = {
      name: h.name,
      in: "header",
      required: h.required,
      style: "simple",
      explode: false,
      schema: { $ref: `#${h.schemaPointer}` },
      schemaPointer: h.schemaPointer,
      examples: [],
    };
    const err = model.validator.explain(h.schemaPointer, fromWire(model, p, text))[0];
    if (err)
      out.push(
        finding(ex, {
          severity: "error",
          title: `Response header ${h.name} violates its schema: ${err.message ?? err.keyword}`,
          received: show(text, 120),
          documented: ruleText(err),
          schemaPath: model.validator.schemaPathOf(err),
          promise,
        }),
      );
  }
  return out;
};
