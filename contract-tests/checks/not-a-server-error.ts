import type { Check } from "../types.js";
import { isDocumentedStatus } from "../spec-model.js";
import { violation } from "./helpers.js";

/** No answer at all, or an undocumented 5xx, is a server error. */
export const notAServerError: Check = (ex) => {
  const { status, transportError } = ex.response;
  if (status === 0)
    return [violation(ex, { check: "not_a_server_error", severity: "error", title: "No HTTP response", received: transportError ?? "no response", documented: "an HTTP response within the timeout" })];
  if (status >= 500 && !isDocumentedStatus(ex.operation, status))
    return [violation(ex, { check: "not_a_server_error", severity: "error", title: "Server error", received: `status ${status}`, documented: "no undocumented 5xx, whatever the input" })];
  return [];
};
