import { finding } from "../model/exchange.js";
import { securityPromise } from "../model/promise.js";
import { otherRefusal } from "../model/refusal.js";
import type { Check } from "../model/types.js";

const HOW = {
  "no-key": "without an API key",
  "empty-key": "with an empty API key",
  "wrong-key": "with a wrong API key",
} as const;

/**
 * A request without a key, with an empty key or with a wrong key must be refused with a 4xx, never answered; where
 * the operation documents the refusal's status (401, 403), with that status.
 */
export const ignoredAuth: Check = (ex, { intent, model, inDoubt }) => {
  if (intent !== "no-key" && intent !== "empty-key" && intent !== "wrong-key") return [];
  const status = ex.response.status;
  if (status === 0) return [];
  if (status >= 400 && status < 500) {
    // One title for no, an empty and a wrong key: the same answer to them is one cause (its input names which).
    return otherRefusal(
      ex,
      model,
      "credential",
      {
        title: "A missing or wrong credential was refused with another status than the documented {named}",
        documented: "status {named}: the operation documents its refusal of a missing or wrong credential",
      },
      inDoubt ? { lenient: { because: "in-doubt" as const, why: inDoubt } } : {},
    );
  }
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
