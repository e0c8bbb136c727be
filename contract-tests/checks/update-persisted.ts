import { finding, isSuccess } from "../model/exchange.js";
import { successPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";
import { differences } from "./read-back.js";

/**
 * After a successful update whose own answer echoed the members it was sent, a read shows those members as
 * sent: the update's documented 2xx answer is the promise (it said the resource now holds them).
 */
export const updatePersisted: Check = (ex, { intent, readBack, model }) => {
  if (intent !== "acceptance" || readBack?.after !== "updated" || !isSuccess(ex)) return [];
  const changed = differences(ex, readBack);
  if (changed.length === 0) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `Members ${readBack.writer} answered as updated read back otherwise`,
      received: changed.join("; "),
      documented: `the members the update echoed, read back as sent`,
      promise: successPromise(model, readBack.writer),
    }),
  ];
};
