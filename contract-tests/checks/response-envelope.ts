import { finding, isEnveloped } from "../model/exchange.js";
import { responsePromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * A 2xx body wrapped as `{"data": ...}` although the document shows it bare (some live pages show the sitemap
 * and schema responses so). The inner value is what the other checks validate; the wrapper is a warning, an
 * error under strict.
 */
export const responseEnvelope: Check = (ex, { model }) => {
  if (!isEnveloped(model, ex)) return [];
  return [
    finding(ex, {
      severity: "error",
      title: 'Response wrapped in an undocumented {"data": ...} envelope',
      received: `an object with members ${Object.keys(ex.response.json as object).join(", ")}`,
      documented: "the bare object the document shows for this operation",
      instancePath: "/data",
      promise: responsePromise(model, ex.operation, ex.response.status, "content"),
      lenient: { because: "strict-only" },
    }),
  ];
};
