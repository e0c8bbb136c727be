import { finding, isSuccess, show } from "../model/exchange.js";
import { scopedPromise, securityPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * With the second account's key, another account's identifiers are never returned, where the document says the
 * operation's results are the caller's alone (its description: "scoped to the caller's account", "only the owner
 * reads it"). Where it says nothing of it, another account may see them (a listing of every user): a warning,
 * held under CONTRACT_STRICT=1 by the security requirement.
 */
export const accountIsolation: Check = (ex, { intent, foreignIds, model }) => {
  if (intent !== "other-account" || !foreignIds?.length || !isSuccess(ex)) return [];
  const text = ex.response.bodyText;
  // An identifier as a JSON string, or (digits) as a JSON number.
  const leaked = foreignIds.filter(
    (id) =>
      text.includes(JSON.stringify(id)) || (/^-?\d+$/.test(id) && new RegExp(`[:\\[,]\\s*${id}\\s*[,}\\]]`).test(text)),
  );
  if (leaked.length === 0) return [];
  const scoped = scopedPromise(model, ex.operation);
  return [
    finding(ex, {
      severity: "error",
      title: "Another account's records returned",
      received:
        `${leaked.length} identifier(s) of the first account: ${show(leaked.slice(0, 3))}` +
        (leaked.length > 3 ? ` and ${leaked.length - 3} more` : ""),
      documented:
        "results scoped to the caller's account (the key the security requirement asks for identifies the caller)",
      ...(scoped
        ? { promise: scoped }
        : {
            promise: securityPromise(model, ex.operation),
            lenient: {
              because: "document-silent",
              why: "the document does not say the operation's results are the caller's alone",
            } as const,
          }),
    }),
  ];
};
