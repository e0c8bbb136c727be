import type { Check } from "../types.js";
import { isObject, isSuccess, show, violation } from "./helpers.js";

/** A successful listing carries `error: null` next to `data`. */
export const listingErrorNull: Check = (ex) => {
  const json = ex.response.json;
  if (ex.operation !== "listBrowserRequests" || !isSuccess(ex) || !isObject(json)) return [];
  if ("error" in json && json.error === null) return [];
  return [violation(ex, { check: "listing_error_null", severity: "error", title: "error is not null on success", received: "error" in json ? `error: ${show(json.error)}` : "no error member", documented: "error: null", instancePath: "/error", value: json.error })];
};
