import type { Check } from "../types.js";
import { documentedStatuses, isDocumentedStatus } from "../spec-model.js";
import { violation } from "./helpers.js";

/** Only documented statuses; like Prism's validator an undocumented 4xx is a warning, 2xx/3xx/5xx an error. */
export const statusCodeConformance: Check = (ex, ctx) => {
  const status = ex.response.status;
  if (status === 0 || isDocumentedStatus(ex.operation, status)) return [];
  const is4xx = status >= 400 && status < 500;
  // The document says "expect a 4xx" for missing keys and invalid input without naming the status.
  if (is4xx && ctx.intent !== "conforming" && ctx.intent !== "acceptance") return [];
  return [
    violation(ex, {
      check: "status_code_conformance",
      severity: is4xx ? "warning" : "error",
      title: "Undocumented HTTP status code",
      received: `status ${status}`,
      documented: `one of ${documentedStatuses(ex.operation).join(", ")}`,
    }),
  ];
};
