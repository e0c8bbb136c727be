import { finding, isSuccess, show } from "../model/exchange.js";
import { securityPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * With the second account's key, another account's identifiers are never returned (results are scoped to the caller's
 * account).
 */
export const accountIsolation: Check = (ex, { intent, foreignIds, model }) => {
  if (intent !== "other-account" || !foreignIds?.length || !isSuccess(ex)) return [];
  const text = ex.response.bodyText;
  const leaked = foreignIds.filter((id) => text.includes(JSON.stringify(id)));
  if (leaked.length === 0) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Another account's records returned",
      received:
        `${leaked.length} identifier(s) of the first account: ${show(leaked.slice(0, 3))}` +
        (leaked.length > 3 ? ` and ${leaked.length - 3} more` : ""),
      documented:
        "results scoped to the caller's account (the key the security requirement asks for identifies the caller)",
      promise: securityPromise(model, ex.operation),
    }),
  ];
};
