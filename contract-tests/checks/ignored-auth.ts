import { finding } from "../model/exchange.js";
import { securityPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

const HOW = {
  "no-key": "without an API key",
  "empty-key": "with an empty API key",
  "wrong-key": "with a wrong API key",
} as const;

/** A request without a key, with an empty key or with a wrong key must be refused with a 4xx, never answered. */
export const ignoredAuth: Check = (ex, { intent, model, inDoubt }) => {
  if (intent !== "no-key" && intent !== "empty-key" && intent !== "wrong-key") return [];
  const status = ex.response.status;
  if (status === 0 || (status >= 400 && status < 500)) return [];
  const schemes = model
    .operation(ex.operation)
    .security.map((alt) => alt.map((s) => s.scheme).join(" + "))
    .join(" or ");
  if (inDoubt)
    return [
      finding(ex, {
        severity: "error",
        title: `The API answered a request ${HOW[intent]}, which the document does not call unauthenticated`,
        rule: "credential-ignored",
        received: `status ${status}`,
        documented: "a 4xx refusal",
        lenient: { because: "in-doubt", why: inDoubt },
      }),
    ];
  return [
    finding(ex, {
      severity: "error",
      title: `The API answered a request ${HOW[intent]}`,
      // One kind whatever the credential was (missing, empty, wrong): the inputs of one failure.
      rule: "credential-ignored",
      received: `status ${status}`,
      documented: `a 4xx refusal: the operation requires ${schemes || "authentication"}`,
      promise: securityPromise(model, ex.operation),
    }),
  ];
};
