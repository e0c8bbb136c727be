import { essence, isJsonMedia, matchingMedia } from "../../openapi/lib/operations.js";
import { finding, show } from "../model/exchange.js";
import { responsePromise } from "../model/promise.js";
import type { Check } from "../model/types.js";

/**
 * A documented status with content carries a documented media type (ranges such as `text/*` included), and a JSON one
 * parses.
 */
export const contentTypeConformance: Check = (ex, { model }) => {
  const { status, contentType, json, bodyText, truncated, tooDeep, bodyError } = ex.response;
  if (status === 0 || !model.isDocumentedStatus(ex.operation, status)) return [];
  const media = model.responseMedia(ex.operation, status);
  if (media.length === 0) return []; // documented without content: any body is fine
  const received = essence(contentType ?? "");
  const documented = media.map((m) => m.mediaType.toLowerCase());
  const promise = responsePromise(model, ex.operation, status, "content");
  if (!matchingMedia(media, contentType))
    return [
      finding(ex, {
        severity: "error",
        title: "Undocumented Content-Type",
        received: contentType ? show(contentType, 120) : "(no Content-Type header)",
        documented: documented.join(", "),
        promise,
      }),
    ];
  // A body that could not be read as its headers say is response_readable's finding, not a second one here.
  if (isJsonMedia(received) && json === undefined && !truncated && tooDeep === undefined && !bodyError)
    return [
      finding(ex, {
        severity: "error",
        title: "Response body is not valid JSON",
        received: bodyText ? show(bodyText) : "(empty body)",
        documented: `a ${received} body`,
        promise,
      }),
    ];
  return [];
};
