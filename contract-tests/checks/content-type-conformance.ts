import type { Check } from "../types.js";
import { isDocumentedStatus, responseMedia } from "../spec-model.js";
import { violation } from "./helpers.js";

/** A documented status with content must carry a documented media type, and a JSON one must parse. */
export const contentTypeConformance: Check = (ex) => {
  const { status, contentType, json, bodyText } = ex.response;
  if (status === 0 || !isDocumentedStatus(ex.operation, status)) return [];
  const media = responseMedia(ex.operation, status);
  if (media.length === 0) return []; // documented without content: any body is fine
  const received = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const documented = media.map((m) => m.mediaType);
  if (!documented.includes(received))
    return [violation(ex, { check: "content_type_conformance", severity: "error", title: "Undocumented Content-Type", received: contentType ?? "(no Content-Type header)", documented: documented.join(", ") })];
  if (/json/.test(received) && json === undefined)
    return [violation(ex, { check: "content_type_conformance", severity: "error", title: "Response body is not valid JSON", received: bodyText.slice(0, 200) || "(empty body)", documented: `a ${received} body` })];
  return [];
};
