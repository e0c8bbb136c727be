import { finding } from "../model/exchange.js";
import { securityPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * The run's own token forged (OWASP API2:2023, broken authentication): a JWT with its signature altered, or with its
 * header saying `alg: none` and no signature, must be refused with a 4xx. Accepting it means anyone can sign what
 * they like: the security requirement is the promise.
 */
export const forgedCredential: Check = (ex, { intent, model, cause }) => {
  if (intent !== "forged-credential") return [];
  const status = ex.response.status;
  if (status === 0 || (status >= 400 && status < 500)) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `A forged token was ${status >= 500 ? "not refused (a server error)" : "accepted"}: ${cause ?? "its signature altered"}`,
      received: `status ${status}`,
      documented: "a 4xx: the token's signature does not verify, so it names no account",
      promise: securityPromise(model, ex.operation),
    }),
  ];
};
