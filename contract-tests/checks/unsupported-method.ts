import { finding } from "../model/exchange.js";
import type { Check } from "../model/types.js";

/**
 * Schemathesis's `unsupported_method`: a method the document does not list for a path should be refused with
 * 405 Method Not Allowed, whose Allow header names the methods the path has (RFC 9110 §15.5.6: a 405 MUST
 * carry Allow). The document promises nothing about a method it does not list, and a server may as well answer
 * 404 or 501, so every finding here is a warning: it names RFC 9110, not the document.
 */
export const unsupportedMethod: Check = (ex, { intent, model }) => {
  if (intent !== "unsupported-method") return [];
  const { status, headers, transportError } = ex.response;
  const method = ex.request.method.toUpperCase();
  const documented =
    "405 Method Not Allowed with an Allow header (RFC 9110 §15.5.6; the document lists no answer for this method)";
  if (status === 0)
    return [
      finding(ex, {
        severity: "warning",
        title: `No answer to the undocumented method ${method}`,
        received: transportError ?? "no HTTP answer",
        documented,
      }),
    ];
  if (status === 405) {
    const allow = Object.entries(headers).find(([k]) => k.toLowerCase() === "allow")?.[1];
    return allow === undefined
      ? [
          finding(ex, {
            severity: "warning",
            title: `405 for ${method} without an Allow header`,
            received: "status 405, no Allow header",
            documented,
          }),
        ]
      : [];
  }
  // A well-formed id need not exist, and routers answer 404 before they look at the method (as Schemathesis allows).
  if (status === 404 && /\{[^}]+\}/.test(model.operation(ex.operation).path)) return [];
  const what =
    status < 300
      ? `The API answered the undocumented method ${method} with a success (an operation the document does not show)`
      : status >= 500
        ? `A server error for the undocumented method ${method}`
        : `The undocumented method ${method} was not answered with 405`;
  return [finding(ex, { severity: "warning", title: what, received: `status ${status}`, documented })];
};
