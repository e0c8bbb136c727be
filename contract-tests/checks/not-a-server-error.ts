import { finding } from "../model/exchange.js";
import { responsesPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * No answer at all, or an undocumented 5xx, is a server error (the operation's responses promise an answer
 * among them). A request the suite itself could not send is the suite's problem: a warning about the suite.
 */
export const notAServerError: Check = (ex, { model }) => {
  const { status, transportError, suiteError } = ex.response;
  if (status === 0 && suiteError)
    return [
      finding(ex, {
        severity: "warning",
        title: "The suite could not send this request or read its answer (the suite's problem, not the target's)",
        received: transportError ?? "not sent",
        documented: "a request the suite can send as the document describes it",
      }),
    ];
  if (status === 0)
    return [
      finding(ex, {
        severity: "error",
        title: "No HTTP response",
        received: transportError ?? "no response",
        documented: "an HTTP response within the timeout",
        promise: responsesPromise(model, ex.operation),
      }),
    ];
  if (status >= 500 && !model.isDocumentedStatus(ex.operation, status))
    return [
      finding(ex, {
        severity: "error",
        title: "Server error",
        received: `status ${status}`,
        documented: "no undocumented 5xx, whatever the input",
        promise: responsesPromise(model, ex.operation),
      }),
    ];
  return [];
};
