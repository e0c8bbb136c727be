import { finding } from "../model/exchange.js";
import { securityPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * A credential used after its account was deleted (the run registered the account and deleted it): refused with a
 * 4xx, never answered (the account lives on for its tokens) and never a 5xx (the server trips on a user that is
 * gone). The security requirement is the promise: the credential no longer names an account.
 */
export const revokedCredential: Check = (ex, { intent, model }) => {
  if (intent !== "revoked-credential") return [];
  const status = ex.response.status;
  if (status === 0 || (status >= 400 && status < 500)) return [];
  return [
    finding(ex, {
      severity: "error",
      title:
        status >= 500
          ? "A deleted account's credential makes the server fail"
          : "A deleted account's credential is still accepted",
      received: `status ${status}`,
      documented: "a 4xx: the account the credential names was deleted, so the credential names no account",
      promise: securityPromise(model, ex.operation),
    }),
  ];
};
