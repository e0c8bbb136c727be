import { finding } from "../model/exchange.js";
import { responsePromise, responsesPromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * The server stopped answering after this request: it got no answer (no status line, or no whole body, within its
 * deadline), nor did the probes after it, and it was the first sent of the requests the outage took (the target's
 * culprit; see transport/outage.ts). One error for the outage, on the culprit, saying how long the server was down
 * and whether it came back: the requests lost with it are not reported on their own. Its promise: the operation's
 * documented responses (the documented one for the status, when a status line came), which promise an answer.
 */
export const serverStoppedAnswering: Check = (ex, { model }) => {
  const { outage, status, transportError, bodyError } = ex.response;
  if (!outage?.culprit) return [];
  const own =
    status === 0 ? (transportError ?? "no answer") : `status ${status}, ${bodyError?.detail ?? "no whole body"}`;
  const after = outage.recovered
    ? `it answered again after ${outage.downMs} ms (probe ${outage.probes})`
    : `it did not answer again within ${outage.downMs} ms (${outage.probes} probes): the run stopped here`;
  return [
    finding(ex, {
      severity: "error",
      title: "The server stopped answering after this request",
      received: `${own}; nor did the server answer anything after it: ${after}`,
      documented:
        "an answer to every request within its deadline: one of the operation's documented responses, and the " +
        "server answering the requests that follow",
      promise:
        (status ? responsePromise(model, ex.operation, status) : undefined) ?? responsesPromise(model, ex.operation),
    }),
  ];
};
