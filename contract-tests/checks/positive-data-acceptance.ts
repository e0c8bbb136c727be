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
  return [
    finding(ex, {
      severity: "error",
      title: "Valid input rejected",
      received: `status ${status} for ${show(sent)}`,
      documented: "a 2xx (or a documented non-4xx status) for input that matches the request schema",
      promise: successPromise(model, ex.operation),
    }),
  ];
};
