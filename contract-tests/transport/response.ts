/**
 * The steps of the target's send after the status line: read the body (bounded, inside the deadline), decode it
 * (UTF-8, the charset a JSON body owes, JSON no deeper than the suite walks), and the response as recorded for
 * each way an exchange can end: answered (a body error after the status line included: the target's), no
 * answer, the suite's own failure, or the embedded mock's crash.
 */
import { bodyFailureOf, deadlineFailure, readLimited, type LimitedBody } from "../../wire/body.js";
import type { Deadline } from "../../wire/deadline.js";
import { charsetFailure, decodeUtf8, parseJson } from "../../wire/decode.js";
import type { Scrubber } from "../../wire/redact.js";
import { isJsonMedia } from "../../openapi/lib/operations.js";
import type { BodyError, ReceivedResponse } from "../model/types.js";

/** Body characters kept for a body over the limit (it is not parsed). */
const TRUNCATED_EXCERPT_CHARS = 4096;
/**
 * The deepest nesting of arrays and objects the suite parses. Checks, reports and the worker's messages walk
 * bodies recursively; a hostile body nested deeper is reported by body_size_limit instead of crashing them.
 */
export const MAX_JSON_DEPTH = 512;

/** A body as read: what arrived (up to the limit), and why it is not whole, if it is not. */
export interface ReadBody extends LimitedBody {
  /** The body could not be read whole (its Content-Encoding, a cut, the deadline): the target's fault. */
  bodyError?: BodyError;
}

/**
 * The read step: the body of `res`, up to `limit` bytes, raced against the exchange's deadline (disposed here, the
 * moment the read ends). A failure is recorded as the target's (`bodyError`), its detail scrubbed.
 */
export async function readBody(
  res: Response,
  limit: number,
  deadline: Deadline,
  timeoutMs: number,
  scrubber: Scrubber,
): Promise<ReadBody> {
  try {
    return await readLimited(res, limit, false, deadline.signal);
  } catch (err) {
    const failure = deadline.timedOut()
      ? deadlineFailure(err, res.headers, timeoutMs)
      : bodyFailureOf(err, res.headers);
    return {
      bytes: new Uint8Array(0),
      total: 0,
      truncated: false,
      bodyError: { ...failure, detail: scrubber.text(failure.detail) },
    };
  } finally {
    deadline.dispose();
  }
}

/** A body as text and JSON. */
export interface DecodedBody {
  /** The text (scrubbed; the beginning only of a body over the limit; empty for a body that did not arrive whole). */
  text: string;
  /** The parsed JSON, when the text is JSON no deeper than {@link MAX_JSON_DEPTH}. */
  json: unknown;
  /** How deep the text nests (0 when it was not measured). */
  depth: number;
  /** Why the body is not readable as its headers say, the charset included. */
  bodyError?: BodyError;
}

/**
 * The decode step: a body declared UTF-8 (JSON is) must be; a body that did not arrive whole is not parsed (a
 * charset error keeps its text, with U+FFFD for the bad bytes), nor is one over the limit or nested too deep.
 */
export function decodeBody(contentType: string | null, read: ReadBody, scrubber: Scrubber): DecodedBody {
  const { bytes, truncated } = read;
  let bodyError = read.bodyError;
  if (!bodyError && !truncated) {
    const charset = charsetFailure(contentType, bytes, isJsonMedia);
    if (charset) bodyError = { ...charset, detail: scrubber.text(charset.detail) };
  }
  const raw = bodyError && bodyError.kind !== "charset" ? "" : decodeUtf8(bytes);
  const text = scrubber.text(truncated ? raw.slice(0, TRUNCATED_EXCERPT_CHARS) : raw);
  const { json, depth } = truncated ? { json: undefined, depth: 0 } : parseJson(text, MAX_JSON_DEPTH);
  return { text, json, depth, ...(bodyError ? { bodyError } : {}) };
}

/** How an exchange ended, once its retries are over. */
export type Outcome =
  /** A status line arrived: the response, its body as read and decoded. */
  | { kind: "answered"; res: Response; read: ReadBody; body: DecodedBody }
  /** No HTTP answer (the deadline, a refused or reset connection...): `error` says why. */
  | { kind: "no-answer"; error: string }
  /** The suite could not send the request or read its answer: never the target's fault. */
  | { kind: "suite"; error: string }
  /** The embedded mock failed on the request (and serves again): a defect of the mock. */
  | { kind: "mock-crash"; error: string; crash: string };

/** True when the exchange got no whole answer within its deadline: no status line, or a body still unfinished. */
export function unanswered(outcome: Outcome): boolean {
  return outcome.kind === "no-answer" || (outcome.kind === "answered" && outcome.body.bodyError?.kind === "timeout");
}

/** The response as recorded, scrubbed of the keys; `limit` is the body limit, `elapsedMs` the exchange's time. */
export function recordedResponse(
  outcome: Outcome,
  limit: number,
  elapsedMs: number,
  scrubber: Scrubber,
): ReceivedResponse {
  if (outcome.kind !== "answered")
    return {
      status: 0,
      headers: {},
      contentType: null,
      bodyText: "",
      bodyBytes: 0,
      transportError: outcome.error,
      ...(outcome.kind === "suite" ? { suiteError: true } : {}),
      ...(outcome.kind === "mock-crash" ? { mockCrash: scrubber.text(outcome.crash) } : {}),
      elapsedMs,
    };
  const { res, read, body } = outcome;
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = scrubber.text(value);
  });
  return {
    status: res.status,
    headers,
    contentType: res.headers.get("content-type"),
    bodyText: body.text,
    json: body.json,
    bodyBytes: body.bodyError ? body.bodyError.bytesRead : read.total,
    ...(read.truncated ? { truncated: read.truncated, bodyLimit: limit } : {}),
    ...(body.depth > MAX_JSON_DEPTH ? { tooDeep: body.depth } : {}),
    ...(body.bodyError ? { bodyError: body.bodyError } : {}),
    elapsedMs,
  };
}
