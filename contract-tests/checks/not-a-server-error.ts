import { finding } from "../model/exchange.js";
import type { SpecModel } from "../model/model.js";
import { operationPromise, responsesPromise, successPromise } from "../model/promise.js";
import type { Check, CheckContext } from "../model/types.js";

/**
 * RFC 9110's meaning of 500, quoted in the promise of a documented one: a description of a failure, never a
 * permission.
 */
const RFC_500 =
  'RFC 9110 15.6.1: a 500 means "the server encountered an unexpected condition that prevented it from ' +
  'fulfilling the request"; a documented 500, 5XX or default describes a failure, it permits none';

/**
 * True when the operation documents `status` (a 5xx) as a condition of its own: the exact code is listed and it
 * is not 500 (a 502, 503 or 504 for an unavailable upstream or site, say). A 500, a `5XX` range or a `default`
 * names no condition.
 */
export function documentedServerCondition(model: SpecModel, operationId: string, status: number): boolean {
  return status !== 500 && model.has(operationId) && model.documentedStatuses(operationId).includes(String(status));
}

/**
 * The promise a documented 5xx breaks: the 2xx a valid request is promised, else the operation itself, with RFC
 * 9110's word on 500.
 */
function documentedFailurePromise(model: SpecModel, operationId: string, intent: CheckContext["intent"]): string {
  const valid = intent === "acceptance" || intent === "conforming";
  const place = (valid ? successPromise(model, operationId) : undefined) ?? operationPromise(model, operationId);
  return `${place} (${RFC_500})`;
}

/**
 * No answer at all, or a 5xx, is a server error: a 500 whatever the document lists (a documented 500, `5XX` or
 * `default` describes what a failure looks like, it does not allow one), and any other 5xx unless the operation
 * lists that exact status as a condition of its own (the sitemap's 503 for an unavailable site). A request the
 * suite itself could not send is the suite's problem, and the embedded mock dying on a request is Prism's: a
 * warning each. A request lost to an outage of the server is server_stopped_answering's, not this check's.
 */
export const notAServerError: Check = (ex, { model, intent }) => {
  const { status, transportError, suiteError, mockCrash, outage } = ex.response;
  // Lost to an outage: server_stopped_answering reports it once, on its culprit.
  if (outage) return [];
  if (status === 0 && mockCrash)
    return [
      finding(ex, {
        severity: "warning",
        title: "The Prism mock failed on this request (a defect of the mock, not of the document)",
        received: mockCrash,
        documented: "an answer from the mock; no server but the embedded mock is judged by this",
      }),
    ];
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
  // A documented response example is the document's own text, not an answer of the server.
  if (status < 500 || ex.documented || documentedServerCondition(model, ex.operation, status)) return [];
  const listed = model.has(ex.operation) && model.isDocumentedStatus(ex.operation, status);
  return [
    finding(ex, {
      severity: "error",
      title: "Server error",
      received: `status ${status}`,
      documented: listed
        ? "no 5xx whatever the input, but one the document lists as a condition of its own (a 502, " +
          "503 or 504); its 500, 5XX or default describes a failure, it does not allow one"
        : "no undocumented 5xx, whatever the input",
      promise: listed ? documentedFailurePromise(model, ex.operation, intent) : responsesPromise(model, ex.operation),
    }),
  ];
};
