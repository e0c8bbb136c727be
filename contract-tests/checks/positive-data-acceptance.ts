import { finding, show } from "../model/exchange.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/** Valid input (documented examples, generated data, link-fed values) must not be refused with a 4xx. */
export const positiveDataAcceptance: Check = (ex, { intent, model, inDoubt }) => {
  const status = ex.response.status;
  if (intent !== "acceptance" || status < 400 || status >= 500) return [];
  // A request without body or query is shown by its method and path (`{}` would say nothing of what was sent).
  const sent =
    ex.request.bodyText ??
    (Object.keys(ex.request.query).length ? show(ex.request.query) : `${ex.request.method} ${ex.request.path}`);
  if (inDoubt)
    return [
      finding(ex, {
        severity: "error",
        title: "Input refused that the suite could not build as the document promises",
        received: `status ${status} for ${show(sent)}`,
        documented: "a 2xx for valid input",
        lenient: { because: "in-doubt", why: inDoubt },
      }),
    ];
  // A refusal the operation documents as a condition of its own (a credential without the privilege an admin
  // operation asks for, a conflict with what the server holds) is the server's state, not the input's: a warning.
  const condition =
    CONDITIONS.has(status) &&
    model.has(ex.operation) &&
    model.documentedStatuses(ex.operation).includes(String(status));
  return [
    finding(ex, {
      severity: "error",
      title: "Valid input rejected",
      received: `status ${status} for ${show(sent)}`,
      documented: "a 2xx (or a documented non-4xx status) for input that matches the request schema",
      promise: successPromise(model, ex.operation),
      ...(condition
        ? {
            lenient: {
              because: "documented-condition",
              why: `the operation documents ${status} as a condition of its own (${CONDITIONS.get(status)})`,
            },
          }
        : {}),
    }),
  ];
};

/** Refusals an operation may document as a condition of the caller or of the server's state, not of the input. */
const CONDITIONS = new Map([
  [401, "a credential the operation does not accept, such as one without its privilege"],
  [403, "a credential without the privilege the operation asks for"],
  [404, "a resource the request names that the server does not hold"],
  [409, "a conflict with what the server holds"],
  [410, "a resource the request names that the server no longer holds"],
]);
