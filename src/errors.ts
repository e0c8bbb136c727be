/**
 * Every error the client throws. Non-2xx responses become `ApiError` subclasses through one factory
 * (`makeApiError`, in error-factory.ts). No error ever holds the API key, a Request, or an unbounded body:
 * server text in messages is cut and its control characters escaped.
 */
import type { ApiErrorObject } from "./types.js";
import { causeText } from "../wire/connection.js";
import { boundedText } from "../wire/redact.js";
import { redactHeaders } from "./redact.js";

/** The most characters of a response body an error keeps in `body`. */
export const MAX_ERROR_BODY_CHARS = 64 * 1024;
/** The most characters of server text an error message carries. */
const MAX_MESSAGE_DETAIL_CHARS = 200;

/** Base class of every error thrown by this package. */
export class WebautoError extends Error {
  override name = "WebautoError";
  /** A plain, secret-free summary for `JSON.stringify` and structured logs. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/** Where a failed exchange went: request method, path, operation and attempts (never the key). */
export interface RequestInfoSummary {
  method: string;
  /** The path part of the URL, e.g. `/v1/site/map`. */
  path: string;
  /** How many attempts were made, retries included. */
  attempts: number;
  /** The document's operationId, when the request matched one. */
  operationId?: string;
}

/** An invalid option or argument, named with the rule it broke (thrown before any request). */
export class ArgumentError extends WebautoError {
  override name = "ArgumentError";
  constructor(
    readonly argument: string,
    readonly rule: string,
  ) {
    super(`${argument}: ${rule}`);
  }
  override toJSON() {
    return { ...super.toJSON(), argument: this.argument, rule: this.rule };
  }
}

/** Input of `makeApiError`: text and headers already scrubbed of the key. */
export interface ApiErrorInit extends RequestInfoSummary {
  status: number;
  statusText: string;
  /** The response body text. */
  body: string;
  headers: Headers;
  /** The server's requested delay (`Retry-After`), when it sent one. */
  retryAfterMs?: number;
}

/** A non-2xx response from the service. */
export class ApiError extends WebautoError {
  override name = "ApiError";
  readonly status: number;
  /** The error object's `code`, when the body carried one. */
  readonly code: string | null;
  /** The parsed error object (`type`, `id`, `code`, `message`), when the body was one. */
  readonly error: ApiErrorObject | null;
  /** The response body (at most 64 KiB of it; `bodyTruncated` says when it was cut). */
  readonly body: string;
  readonly bodyTruncated: boolean;
  /** Response headers, secret values replaced by `***`. */
  readonly headers: Record<string, string>;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly operationId: string | null;
  /** The delay the server asked for (`Retry-After`), in ms, or null. */
  readonly retryAfterMs: number | null;

  constructor(init: ApiErrorInit, summary?: string) {
    const error = parseErrorObject(init.body);
    const detail =
      error?.message != null
        ? boundedText(error.message, MAX_MESSAGE_DETAIL_CHARS)
        : init.body.trim()
          ? describeBody(init)
          : "no body";
    const code = error?.code ? `${boundedText(error.code, 60)}: ` : "";
    super(
      `${summary ? `${summary}: ` : ""}${init.status} ${boundedText(init.statusText, 60) || "error"} ` +
        `from ${init.method} ${init.path}: ${code}${detail}`,
    );
    this.status = init.status;
    this.error = error;
    this.code = error?.code ?? null;
    this.bodyTruncated = init.body.length > MAX_ERROR_BODY_CHARS;
    this.body = this.bodyTruncated ? init.body.slice(0, MAX_ERROR_BODY_CHARS) : init.body;
    this.headers = redactHeaders(init.headers);
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.operationId = init.operationId ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      status: this.status,
      code: this.code,
      method: this.method,
      path: this.path,
      attempts: this.attempts,
    };
  }
}

/** A 3xx (or a browser's opaque redirect, status 0): not followed, so the key never goes to another address. */
export class RedirectNotFollowedError extends ApiError {
  override name = "RedirectNotFollowedError";
}
/** 400: the service rejected the request (e.g. invalid query parameters). */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/** 401: missing or invalid API key. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
/** 403: the key may not do this (the edge also answers some User-Agents with a bare 403). */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
/** 404: unknown identifier or path. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 408: the service gave up; on `POST /v1/site/map`, the sitemap read exceeded its 60 s limit. */
export class RequestTimeoutError extends ApiError {
  override name = "RequestTimeoutError";
}
/** 409: conflict. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
/** 422: the request was well-formed but invalid (the Prism mock answers invalid input so). */
export class UnprocessableEntityError extends ApiError {
  override name = "UnprocessableEntityError";
}
/** 429: rate limited. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** 5xx: the service failed. */
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}
/** 503 from `POST /v1/site/map`: the site whose sitemap was asked for is unavailable. */
export class SiteUnavailableError extends InternalServerError {
  override name = "SiteUnavailableError";
}

/**
 * The request never got a response: DNS, refused or reset connection, TLS... (`cause` says which). A response
 * whose body then failed is a {@link ResponseBodyError}.
 */
export class ConnectionError extends WebautoError {
  override name = "ConnectionError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly attempts: number,
    options: { cause: unknown },
    message?: string,
  ) {
    super(message ?? `connection failed for ${method} ${path}: ${causeText(options.cause)}`, options);
  }
  override toJSON() {
    return { ...super.toJSON(), method: this.method, path: this.path, attempts: this.attempts };
  }
}

/** Input of {@link ResponseBodyError}: the answer that began, and why its body could not be read (already scrubbed). */
export interface ResponseBodyErrorInit extends RequestInfoSummary {
  status: number;
  statusText: string;
  headers: Headers;
  /** What went wrong, e.g. `the body does not decode as its Content-Encoding (gzip) says, after 0 decoded bytes: ...`. */
  detail: string;
  /** `encoding`: not in its Content-Encoding; `cut`: the connection ended before the body was complete. */
  kind: "encoding" | "cut";
  /** Bytes of the body that arrived first (decoded bytes when it has a Content-Encoding). */
  bytesRead: number;
}

/**
 * The service answered (a status line and headers arrived) but the body could not be read: it does not decode
 * as its Content-Encoding says, or the connection ended before it was complete. Not a connection failure: it is
 * retried only as its status would be (a 2xx never). `cause` is the decoder's or the socket's error.
 */
export class ResponseBodyError extends WebautoError {
  override name = "ResponseBodyError";
  readonly status: number;
  readonly statusText: string;
  /** Response headers, secret values replaced by `***`. */
  readonly headers: Record<string, string>;
  readonly kind: "encoding" | "cut";
  readonly bytesRead: number;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly operationId: string | null;

  constructor(init: ResponseBodyErrorInit, options: { cause: unknown }) {
    super(
      `the ${init.status} response to ${init.method} ${init.path} could not be read: ${boundedText(init.detail, 300)}`,
      options,
    );
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = redactHeaders(init.headers);
    this.kind = init.kind;
    this.bytesRead = init.bytesRead;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.operationId = init.operationId ?? null;
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      status: this.status,
      kind: this.kind,
      method: this.method,
      path: this.path,
      attempts: this.attempts,
    };
  }
}

/** An attempt exceeded `timeoutMs` (measured from the start of that attempt, headers and body included). */
export class TimeoutError extends ConnectionError {
  override name = "TimeoutError";
  constructor(
    method: string,
    path: string,
    attempts: number,
    readonly timeoutMs: number,
    options: { cause: unknown },
  ) {
    super(method, path, attempts, options, `${method} ${path} timed out after ${timeoutMs} ms (attempt ${attempts})`);
  }
}

/** The caller's `signal` aborted the request (never retried). `cause` is the signal's reason. */
export class RequestAbortedError extends WebautoError {
  override name = "RequestAbortedError";
  constructor(
    readonly method: string,
    readonly path: string,
    options: { cause: unknown },
  ) {
    super(`${method} ${path} was aborted by the caller's signal`, options);
  }
}

/** One rule a 2xx response broke, at a JSON pointer into the (unwrapped) body. */
export interface Violation {
  /** JSON pointer into the body, e.g. `/data/results/0/id` (`""` is the whole body). */
  pointer: string;
  /** The rule, e.g. `json`, `required`, `pattern at #/components/schemas/BrowserRequestId/pattern`. */
  rule: string;
  message: string;
}

/** A response body longer than `maxResponseBytes`: reading stopped there. */
export class ResponseTooLargeError extends WebautoError {
  override name = "ResponseTooLargeError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly limitBytes: number,
    readonly status: number,
  ) {
    super(
      `the ${status} response to ${method} ${path} is larger than maxResponseBytes ` +
        `(${limitBytes} bytes); reading stopped`,
    );
  }
  override toJSON() {
    return {
      ...super.toJSON(),
      method: this.method,
      path: this.path,
      limitBytes: this.limitBytes,
      status: this.status,
    };
  }
}

/** A 2xx response that is not JSON, does not have the documented shape, or does not pair with the request. */
export class ResponseValidationError extends WebautoError {
  override name = "ResponseValidationError";
  readonly pointer: string;
  readonly rule: string;
  readonly body: string | undefined;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly violations: Violation[],
    body?: string,
  ) {
    const first = violations[0] ?? { pointer: "", rule: "unknown", message: "invalid response" };
    const more = violations.length > 1 ? ` (+${violations.length - 1} more)` : "";
    super(
      `invalid response to ${method} ${path} at "${boundedText(first.pointer, 120)}": ${boundedText(first.message)} ` +
        `[rule: ${boundedText(first.rule, 120)}]${more}`,
    );
    this.pointer = first.pointer;
    this.rule = first.rule;
    this.body = body !== undefined && body.length > MAX_ERROR_BODY_CHARS ? body.slice(0, MAX_ERROR_BODY_CHARS) : body;
  }
  override toJSON() {
    return { ...super.toJSON(), method: this.method, path: this.path, violations: this.violations };
  }
}

function parseErrorObject(body: string): ApiErrorObject | null {
  if (body.length > MAX_ERROR_BODY_CHARS || !body.trimStart().startsWith("{")) return null;
  try {
    const v: unknown = JSON.parse(body);
    if (v && typeof v === "object" && !Array.isArray(v) && ("code" in v || "message" in v)) {
      const o = v as Record<string, unknown>;
      const str = (x: unknown) => (typeof x === "string" ? x : null);
      return { type: str(o.type), id: str(o.id), code: str(o.code), message: str(o.message) };
    }
  } catch {
    // not JSON: described by describeBody
  }
  return null;
}

function describeBody(init: ApiErrorInit): string {
  const type = boundedText(init.headers.get("content-type") ?? "no content type", 80);
  const snippet = init.body
    .slice(0, 2 * MAX_MESSAGE_DETAIL_CHARS)
    .replace(/\s+/g, " ")
    .trim();
  return `non-JSON body (${type}, ${init.body.length} chars): "${boundedText(snippet, 120)}"`;
}
