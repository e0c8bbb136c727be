import { finding } from "../exchange.js";
import type { Check } from "../types.js";

/** No answer at all, or an undocumented 5xx, is a server error. */
export const notAServerError: Check = (ex, { model }) => {
  const { status, transportError } = ex.response;
  if (status === 0) return [finding(ex, { severity: "error", title: "No HTTP response", received: transportError ?? "no response", documented: "an HTTP response within the timeout" })];
  if (status >= 500 && !model.isDocumentedStatus(ex.operation, status))
    return [finding(ex, { severity: "error", title: "Server error", received: `status ${status}`, documented: "no undocumented 5xx, whatever the input" })];
  return [];
};
