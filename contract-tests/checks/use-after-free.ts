import { finding, isSuccess } from "../model/exchange.js";
import { refusalPromise, successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * After a successful delete, a read, update or delete of what it removed answers a 4xx (404, 410 or another
 * documented refusal): never a 2xx (the delete's documented success promised it gone), never a 5xx.
 */
export const useAfterFree: Check = (ex, { intent, deletedBy, model }) => {
  if (intent !== "after-delete") return [];
  const status = ex.response.status;
  if (status === 0 || (status >= 400 && status < 500)) return [];
  const refusal = refusalPromise(model, ex.operation, ["404", "410"]);
  const gone = deletedBy ? successPromise(model, deletedBy) : undefined;
  return [
    finding(ex, {
      severity: "error",
      title: isSuccess(ex)
        ? `A resource ${deletedBy ?? "a delete"} removed is still answered (use after free)`
        : `A resource ${deletedBy ?? "a delete"} removed is answered with a server error (use after free)`,
      received: `status ${status}`,
      documented: `a 4xx: the resource was deleted${refusal ? "" : " (404 or 410)"}`,
      promise: isSuccess(ex) ? (gone ?? refusal) : (refusal ?? gone),
    }),
  ];
};
