import { matchingMedia } from "../../openapi/lib/operations.js";
import { finding, show } from "../model/exchange.js";
import { operationPromise, REFUSAL_STATUSES, refusalPromise } from "../model/promise.js";
import type { Check, Leniency } from "../model/types.js";

/** The statuses that document a refusal of a body sent in a media type the operation does not take. */
const MEDIA_REFUSALS = ["415", ...REFUSAL_STATUSES];

/**
 * Input the document rules out must get a 4xx, never a 2xx or a 5xx, where the document promises a refusal:
 * the operation documents a response for such input (400, 422, 4XX, or a `default` beside a 2xx; 415 too for
 * a body in a media type it does not take). Elsewhere an acceptance is a warning: the document promises no
 * refusal, and a lenient server is free to read the input its own way. Where the document only names a format
 * or pattern (`demand: "warning"`) it is a warning too. CONTRACT_STRICT=1 holds every refusal (as Schemathesis
 * does), except input that cannot be told apart from a valid request (`ambiguous`: an empty value), and a request
 * the transport did not send as built (`inDoubt`: a header it cannot carry), which is a warning naming why.
 */
export const negativeDataRejection: Check = (ex, { intent, demand, mutation, model, ambiguous, inDoubt }) => {
  const status = ex.response.status;
  if (intent !== "rejection" || status === 0 || (status >= 400 && status < 500)) return [];
  const sent = ex.request.bodyText ?? show(ex.request.query);
  const takes = model.operation(ex.operation).requestBody?.content ?? [];
  const otherMedia =
    ex.request.bodyText !== undefined &&
    takes.length > 0 &&
    !matchingMedia(takes, ex.request.headers["content-type"] ?? null);
  const documentedRefusal = refusalPromise(model, ex.operation, otherMedia ? MEDIA_REFUSALS : undefined);
  // Why the refusal is not held this time (strict holds the document's silence and its looseness, nothing else).
  const lenient: Leniency | undefined = inDoubt
    ? { because: "in-doubt", why: `the request on the wire is not the one the suite built: ${inDoubt}` }
    : ambiguous
      ? { because: "indistinguishable", why: "the input cannot be told apart from a valid request" }
      : (demand ?? "error") === "warning"
        ? { because: "implied-rule", why: "the document names this rule without saying it is enforced" }
        : !documentedRefusal
          ? {
              because: "document-silent",
              why: "the document promises no refusal: the operation documents no 400, 422, 4XX or default error response",
            }
          : undefined;
  const promise =
    documentedRefusal ??
    `${operationPromise(model, ex.operation)} (CONTRACT_STRICT=1: every refusal of input the document rules out is held)`;
  return [
    finding(ex, {
      severity: "error",
      title:
        status < 300
          ? `Invalid input accepted${mutation ? ` (${mutation})` : ""}`
          : `Invalid input not answered with a 4xx${mutation ? ` (${mutation})` : ""}`,
      received: `status ${status} for ${show(sent)}`,
      documented: "a 4xx for input the document rules out",
      promise,
      ...(lenient ? { lenient } : {}),
    }),
  ];
};
