import { finding, isSuccess } from "../model/exchange.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";
import { differences } from "./read-back.js";

/**
 * After a successful update, a read shows each member the update wrote (and the read declares) as written: null,
 * absent or another value is lost data. The update's documented 2xx answer is the promise (it said the resource
 * now holds them).
 */
export const updatePersisted: Check = (ex, { intent, readBack, model }) => {
  if (intent !== "acceptance" || readBack?.after !== "updated" || !isSuccess(ex)) return [];
  const changed = differences(ex, readBack);
  if (changed.length === 0) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `Members ${readBack.writer} wrote read back otherwise`,
      received: changed.join("; "),
      documented: `the members the update wrote, read back as written`,
      promise: successPromise(model, readBack.writer),
    }),
  ];
};
