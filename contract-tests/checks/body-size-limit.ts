import { finding } from "../model/exchange.js";
import { responsePromise } from "../model/promise.js";
import { MAX_JSON_DEPTH } from "../transport/target.js";
import type { Check } from "../model/types.js";

/**
 * A body over the suite's limit was not read whole, or nests deeper than the suite parses, so it could not be
 * checked: reported, never silently passed.
 */
export const bodySizeLimit: Check = (ex, { model }) => {
  const { tooDeep } = ex.response;
  // The documented content of the response is the promise a body the suite cannot read may break.
  const promise =
    ex.response.status > 0 && model.responseMedia(ex.operation, ex.response.status).length > 0
      ? responsePromise(model, ex.operation, ex.response.status, "content")
      : undefined;
  if (tooDeep !== undefined)
    return [
      finding(ex, {
        severity: "error",
        title: `Response body nests deeper than ${MAX_JSON_DEPTH} levels (not validated)`,
        received: `${tooDeep} levels of arrays and objects`,
        documented: `a body the suite can validate (at most ${MAX_JSON_DEPTH} levels)`,
        promise,
      }),
    ];
  if (!ex.response.truncated) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Response body larger than the suite reads (not validated)",
      received: `more than ${ex.response.bodyLimit ?? ex.response.bodyBytes - 1} bytes (reading stopped there)`,
      documented: "a body the suite can validate (raise CONTRACT_MAX_BODY_BYTES if this size is expected)",
      promise,
    }),
  ];
};
