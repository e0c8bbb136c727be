import { finding, isSuccess } from "../model/exchange.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";
import { differences } from "./read-back.js";

/**
 * The answer to a create or update that succeeded shows each member the client sent (and the answer declares) as
 * it was written: null or another value is lost data (null says nothing where the server derives a value, but
 * here the client just wrote one). A member the answer leaves out makes no claim (an answer may be partial: the
 * read-back holds it then). The writer's documented 2xx is the promise.
 */
export const lostWrite: Check = (ex, { intent, wrote, model }) => {
  if (intent !== "acceptance" || !wrote || !isSuccess(ex)) return [];
  const changed = differences(ex, { ...wrote, after: "created", writer: ex.operation }, false);
  if (changed.length === 0) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `The answer of ${ex.operation} drops or changes what was written`,
      received: changed.join("; "),
      documented: "each member the request wrote, answered as written",
      promise: successPromise(model, ex.operation),
    }),
  ];
};
