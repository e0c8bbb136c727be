/**
 * Every error the client throws. Non-2xx responses go through one factory, {@link makeApiError}, that maps
 * statuses to one-line subclasses (openai-node style). No error ever holds the API key or a Request.
 */
import type { ApiErrorObject } from "./types.js";
import { redactHeaders } from "./redact.js";

/** Base class of every error thrown by this package. */
export class WebautoError extends Error {
  override name = "WebautoError";
  /** A plain, secret-free summary for `JSON.stringify` and structured logs. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/** Where a failed exchange went: request method, path and URL (no query secrets exist; no key). */
export interface RequestInfoSummary {
  method: string;
  /** The path part of the URL, e.g. `/v1/site/map`. */
  path: string;
  /** How many attempts were made, retries included. */
  attempts: number;
}

/** An invalid option or argument, named with the rule it broke (thrown before any request). */
export class ArgumentError extends WebautoError {
  override name = "ArgumentError";
  constructor(readonly argument: string, readonly rule: string) {
    super(`${argument}: ${rule}`);
  }
  override toJSON() {
    return { ...super.toJSON(), argument: this.argument, rule: this.rule };
  }
}

/** Input of {@link makeApiError}. */
export interface ApiErrorInit extends RequestInfoSummary {
  status: number;
  statusText: string;
  /** The raw response body text. */
  body: string;
  headers: Headers;
}

/** A non-2xx response from the service. */
export class ApiError extends WebautoError {
  override name = "ApiError";
  readonly status: number;
  /** The error object's `code`, when the body carried one. */
  readonly code: string | null;
  /** The parsed error object (`type`, `id`, `code`, `message`), when the body was one. */
  readonly error: ApiErrorObject | null;
  /** The raw response body. */
  readonly body: string;
  /** Response headers, secret values replaced by `***`. */
  readonly headers: Record<string, string>;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(init: ApiErrorInit, summary?: string) {
    const error = parseErrorObject(init.body);
    const detail = error?.message ?? (init.body.trim() ? describeBody(init) : "no body");
    super(`${summary ? summary + ": " : ""}${init.status} ${init.statusText || "error"} from ${init.method} ${init.path}: ${error?.code ? error.code + ": " : ""}${detail}`);
    this.status = init.status;
    this.error = error;
    this.code = error?.code ?? null;
    this.body = init.body;
    this.headers = redactHeaders(init.headers);
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
  }
  override toJSON() {
    return { ...super.toJSON(), status: this.status, code: this.code, method: this.method, path: this.path, attempts: this.attempts };
  }
}

/** A 3xx (or a browser's opaque redirect, status 0): not followed, so the key never goes to another address. */
export class RedirectNotFollowedError extends ApiError { override name = "RedirectNotFollowedError"; }
/** 400: the service rejected the request (e.g. invalid query parameters). */
export class BadRequestError extends ApiError { override name = "BadRequestError"; }
/** 401: missing or invalid API key. */
export class AuthenticationError extends ApiError { override name = "AuthenticationError"; }
/** 403: the key may not do this (the edge also answers some User-Agents with a bare 403). */
export class PermissionDeniedError extends ApiError { override name = "PermissionDeniedError"; }
/** 404: unknown identifier or path. */
export class NotFoundError extends ApiError { override name = "NotFoundError"; }
/** 408: the service gave up; on `POST /v1/site/map`, the sitemap read exceeded its 60 s limit. */
export class RequestTimeoutError extends ApiError { override name = "RequestTimeoutError"; }
/** 409: conflict. */
export class ConflictError extends ApiError { override name = "ConflictError"; }
/** 422: the request was well-formed but invalid (the Prism mock answers invalid input so). */
export class UnprocessableEntityError extends ApiError { override name = "UnprocessableEntityError"; }
/** 429: rate limited. */
export class RateLimitError extends ApiError { override name = "RateLimitError"; }
/** 5xx: the service failed. */
export class InternalServerError extends ApiError { override name = "InternalServerError"; }
/** 503 from `POST /v1/site/map`: the site whose sitemap was asked for is unavailable. */
export class SiteUnavailableError extends InternalServerError { override name = "SiteUnavailableError"; }

const SITEMAP_PATH = /\/v1\/site\/map$/;

/** The one factory mapping a non-2xx response to its error class. */
export function makeApiError(init: ApiErrorInit): ApiError {
  const sitemap = init.method === "POST" && SITEMAP_PATH.test(init.path);
  const s = init.status;
  if (sitemap && s === 408) return new RequestTimeoutError(init, "sitemap timed out after 60 s");
  if (sitemap && s === 503) return new SiteUnavailableError(init, "site unavailable");
  if (s === 0 || (s >= 300 && s < 400)) {
    const location = init.headers.get("location");
    return new RedirectNotFollowedError(init, `redirect${location ? ` to ${location}` : ""} not followed (the API key is never sent to another address; fix baseUrl instead)`);
  }
  if (s === 400) return new BadRequestError(init);
  if (s === 401) return new AuthenticationError(init);
  if (s === 403) return new PermissionDeniedError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 408) return new RequestTimeoutError(init);
  if (s === 409) return new ConflictError(init);
  if (s === 422) return new UnprocessableEntityError(init);
  if (s === 429) return new RateLimitError(init);
  if (s >= 500) return new InternalServerError(init);
  return new ApiError(init);
}

/** The request never got a response: DNS, refused or reset connection, TLS... (`cause` says which). */
export class ConnectionError extends WebautoError {
  override name = "ConnectionError";
  constructor(readonly method: string, readonly path: string, readonly attempts: number, options: { cause: unknown }, message?: string) {
    super(message ?? `connection failed for ${method} ${path}: ${causeText(options.cause)}`, options);
  }
  override toJSON() {
    return { ...super.toJSON(), method: this.method, path: this.path, attempts: this.attempts };
  }
}

/** An attempt exceeded `timeoutMs` (measured from the start of that attempt, headers and body included). */
export class TimeoutError extends ConnectionError {
  override name = "TimeoutError";
  constructor(method: string, path: string, attempts: number, readonly timeoutMs: number, options: { cause: unknown }) {
    super(method, path, attempts, options, `${method} ${path} timed out after ${timeoutMs} ms (attempt ${attempts})`);
  }
}

/** The caller's `signal` aborted the request (never retried). `cause` is the signal's reason. */
export class RequestAbortedError extends WebautoError {
  override name = "RequestAbortedError";
  constructor(readonly method: string, readonly path: string, options: { cause: unknown }) {
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

/** A 2xx response that is not JSON, does not have the documented shape, or does not pair with the request. */
export class ResponseValidationError extends WebautoError {
  override name = "ResponseValidationError";
  readonly pointer: string;
  readonly rule: string;
  constructor(readonly method: string, readonly path: string, readonly violations: Violation[], readonly body?: string) {
    const first = violations[0] ?? { pointer: "", rule: "unknown", message: "invalid response" };
    const more = violations.length > 1 ? ` (+${violations.length - 1} more)` : "";
    super(`invalid response to ${method} ${path} at ${JSON.stringify(first.pointer)}: ${first.message} [rule: ${first.rule}]${more}`);
    this.pointer = first.pointer;
    this.rule = first.rule;
  }
  override toJSON() {
    return { ...super.toJSON(), method: this.method, path: this.path, violations: this.violations };
  }
}

function parseErrorObject(body: string): ApiErrorObject | null {
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
  const type = init.headers.get("content-type") ?? "no content type";
  const snippet = init.body.replace(/\s+/g, " ").trim().slice(0, 120);
  return `non-JSON body (${type}, ${init.body.length} chars): ${JSON.stringify(snippet)}`;
}

function causeText(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    const code = inner && typeof inner === "object" && "code" in inner ? ` (${String((inner as { code: unknown }).code)})` : "";
    return `${cause.message}${code}`;
  }
  return String(cause);
}
