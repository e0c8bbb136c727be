import { finding } from "../exchange.js";
import type { Check } from "../types.js";

/** A body over the suite's limit was not read whole, so it could not be checked: reported, never silently passed. */
export const bodySizeLimit: Check = (ex) => {
  if (!ex.response.truncated) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "Response body larger than the suite reads (not validated)",
      received: `more than ${ex.response.bodyLimit ?? ex.response.bodyBytes - 1} bytes (reading stopped there)`,
      documented: "a body the suite can validate (raise CONTRACT_MAX_BODY_BYTES if this size is expected)",
    }),
  ];
};
