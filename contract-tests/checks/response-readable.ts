import { finding } from "../model/exchange.js";
import { responsePromise, responsesPromise } from "../model/promise.js";
import type { BodyError, Check } from "../model/types.js";

/** What the target owed, per kind of failure, with the statement of HTTP or JSON it rests on. */
const OWED: Record<BodyError["kind"], { title: string; documented: string }> = {
  encoding: {
    title: "Response body does not decode as its Content-Encoding says",
    documented:
      "the documented response, its body encoded as the Content-Encoding header says (RFC 9110 " +
      "8.4: the coding applied to the content, which the recipient must undo to read it)",
  },
  cut: {
    title: "Response body cut short: the connection ended before the body was complete",
    documented:
      "the documented response, its body delivered whole: as many bytes as its Content-Length declares, or a " +
      "chunked body to its last chunk (RFC 9110 8.6, RFC 9112 6.3: a message that ends early is incomplete)",
  },
  timeout: {
    title: "Response body did not finish within the request's deadline",
    documented: "the documented response, headers and whole body, within the request's deadline (CONTRACT_TIMEOUT_MS)",
  },
  charset: {
    title: "Response body is not valid UTF-8",
    documented:
      "the documented response, its JSON (or declared charset=utf-8) text in UTF-8 " +
      "(RFC 8259 8.1: JSON exchanged between systems MUST be UTF-8)",
  },
};

/**
 * A response whose status line and headers arrived is the target's, body and all: a body that does not decode
 * as its Content-Encoding says, that ends before it is complete, that is still unfinished at the deadline, or
 * JSON that is not UTF-8 is an error naming what was received (status, headers, bytes, the decoder's error).
 */
export const responseReadable: Check = (ex, { model }) => {
  const { status, headers, bodyError, outage } = ex.response;
  // A body unfinished as the server stopped answering is server_stopped_answering's (one finding for the outage).
  if (!bodyError || status === 0 || outage) return [];
  const owed = OWED[bodyError.kind];
  const shown = ["content-type", "content-encoding", "content-length", "transfer-encoding"]
    .filter((h) => headers[h] !== undefined)
    .map((h) => `${h}: ${headers[h]!.slice(0, 120)}`);
  return [
    finding(ex, {
      severity: "error",
      title: owed.title,
      received: `status ${status}${shown.length ? ` (${shown.join("; ")})` : ""}; ${bodyError.detail}`,
      documented: owed.documented,
      promise: responsePromise(model, ex.operation, status) ?? responsesPromise(model, ex.operation),
    }),
  ];
};
