/**
 * Client options: their types, defaults, environment fallbacks and validation at construction. Every
 * error names the option and the rule it broke.
 */
import { API_KEY_HEADER } from "../generated/routes.js";
import { ArgumentError } from "./errors.js";
import { isLoopbackHost } from "./hosts.js";
import { headerValueProblem } from "../wire/headers.js";
import { MAX_RETRIES } from "./retry.js";
import type { FieldTypeCode, FieldTypeName } from "./types.js";
import type { Logger, RetryInfo } from "./transport-types.js";
import { VERSION } from "./version.js";

/** Default deadline of one attempt: room for the sitemap's documented 60 s plus network slack. */
export const DEFAULT_TIMEOUT_MS = 75_000;
/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default bound on a response body: larger bodies end the call with ResponseTooLargeError. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Options of `createClient`. */
export interface ClientOptions {
  /** Base address without `/v1`, e.g. `https://api.example.com`. Falls back to `WEBAUTO_BASE_URL`. */
  baseUrl?: string;
  /** The API key, sent as `X-API-Key`. Falls back to `WEBAUTO_API_KEY`. */
  apiKey?: string;
  /** A `fetch` implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Deadline of each attempt in ms, from when it starts; default 75 000. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 2, at most 10. */
  maxRetries?: number;
  /** The largest response body read, in bytes; default 32 MiB. A larger one throws ResponseTooLargeError. */
  maxResponseBytes?: number;
  /**
   * Send field type names the document does not list (`FieldTypeName`), for names the service adds later.
   * Default false: `updateSchema` refuses them before sending.
   */
  allowUnknownFieldTypes?: boolean;
  /** Headers sent with every request (`X-API-Key` is always the client's own). */
  headers?: Record<string, string>;
  /** `User-Agent` header; default `webauto-api/<version>` (some edges answer default agents with 403). */
  userAgent?: string;
  /** Validate 2xx bodies against the document (needs the optional `ajv` and `ajv-formats` packages). */
  validateResponses?: boolean;
  /** Unwrap `{"data": ...}` around sitemap and schema responses (the live service does it); default true. */
  unwrapDataEnvelope?: boolean;
  /** Allow plain `http:` to a non-loopback host, sending the key in clear text. Default false. */
  allowInsecureHttp?: boolean;
  /** Integer-to-name field type pairs already known (e.g. saved from `client.fieldTypeCodes`). */
  fieldTypeCodes?: Iterable<readonly [FieldTypeCode, FieldTypeName]> | Partial<Record<FieldTypeCode, FieldTypeName>>;
  /** Receives debug and warning lines, already redacted. */
  logger?: Logger;
  /** Called before each retry with the attempt number and the delay. */
  onRetry?: (info: RetryInfo) => void;
  /** Replaces the wait between attempts (tests use it to record delays instead of sleeping). */
  sleep?: (delayMs: number, signal?: AbortSignal) => Promise<void>;
}

/** Options after defaults, environment fallbacks and validation. */
export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxRetries: number;
  maxResponseBytes: number;
  headers: Record<string, string>;
  keyHeader: string;
  allowUnknownFieldTypes: boolean;
  validateResponses: boolean;
  unwrapDataEnvelope: boolean;
  allowInsecureHttp: boolean;
}

function env(name: string): string | undefined {
  // Web-standard core: process is optional (present in Node, Bun and Deno's Node compatibility).
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const v = proc?.env?.[name];
  return v === undefined || v === "" ? undefined : v;
}

function nonNegativeInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ArgumentError(name, `must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = nonNegativeInteger(name, value, fallback);
  if (n < 1) throw new ArgumentError(name, "must be at least 1");
  return n;
}

/** Checks a per-attempt deadline: a positive number of ms, at most 2^31-1 (the timer limit). */
export function checkTimeoutMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0 || value > 2_147_483_647) {
    throw new ArgumentError(
      name,
      `must be a number of milliseconds greater than 0 and at most 2147483647, got ${String(value)}`,
    );
  }
  return value;
}

/** Checks a retry count: an integer from 0 to 10 (more would only hammer a failing service). */
export function checkMaxRetries(name: string, value: unknown, fallback: number): number {
  const n = nonNegativeInteger(name, value, fallback);
  if (n > MAX_RETRIES) throw new ArgumentError(name, `must be at most ${MAX_RETRIES}, got ${n}`);
  return n;
}

/**
 * Checks the API key: a header value (no control characters, nothing outside Latin-1, no surrounding
 * spaces). The message names the position, never the key. Short keys are accepted and scrubbed too.
 */
function checkApiKey(value: unknown): string {
  if (value === undefined || value === "") throw new ArgumentError("apiKey", "is required (or set WEBAUTO_API_KEY)");
  if (typeof value !== "string") throw new ArgumentError("apiKey", `must be a string, got ${typeof value}`);
  const problem = headerValueProblem(value);
  if (problem) throw new ArgumentError("apiKey", problem);
  return value;
}

function checkBaseUrl(raw: string | undefined, allowInsecureHttp: boolean): string {
  if (raw === undefined)
    throw new ArgumentError("baseUrl", "is required (or set WEBAUTO_BASE_URL), e.g. https://api.example.com");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ArgumentError(
      "baseUrl",
      `must be an absolute http: or https: URL, got ${JSON.stringify(raw.slice(0, 100))}`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ArgumentError("baseUrl", `must use http: or https:, got ${url.protocol}`);
  if (url.username || url.password)
    throw new ArgumentError("baseUrl", "must not contain credentials; pass the key as apiKey");
  if (url.search || url.hash) throw new ArgumentError("baseUrl", "must not have a query or fragment");
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/v1$/.test(path))
    throw new ArgumentError("baseUrl", "must not end with /v1: the client adds the /v1 prefix itself");
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ArgumentError(
      "baseUrl",
      `plain http: to ${url.host} would send the API key in clear text; use https: or set allowInsecureHttp: true`,
    );
  }
  return url.origin + path;
}

/** Applies defaults and environment fallbacks, then validates; throws {@link ArgumentError}. */
export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== "object") throw new ArgumentError("options", "must be an object");
  const allowInsecureHttp = options.allowInsecureHttp === true;
  const baseUrl = checkBaseUrl(options.baseUrl ?? env("WEBAUTO_BASE_URL"), allowInsecureHttp);
  const apiKey = checkApiKey(options.apiKey ?? env("WEBAUTO_API_KEY"));
  const fetchImpl =
    options.fetch ?? (typeof globalThis.fetch === "function" ? globalThis.fetch.bind(globalThis) : undefined);
  if (typeof fetchImpl !== "function") throw new ArgumentError("fetch", "must be a function (no global fetch found)");
  const keyHeader = API_KEY_HEADER ?? "X-API-Key";
  const headers: Record<string, string> = { "User-Agent": options.userAgent ?? `webauto-api/${VERSION}` };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value !== "string") throw new ArgumentError(`headers.${name}`, "must be a string");
    if (name.toLowerCase() !== keyHeader.toLowerCase()) headers[name] = value;
  }
  headers[keyHeader] = apiKey;
  return {
    baseUrl,
    apiKey,
    fetch: fetchImpl,
    timeoutMs: checkTimeoutMs("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: checkMaxRetries("maxRetries", options.maxRetries, DEFAULT_MAX_RETRIES),
    maxResponseBytes: positiveInteger("maxResponseBytes", options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    headers,
    keyHeader,
    allowUnknownFieldTypes: options.allowUnknownFieldTypes === true,
    validateResponses: options.validateResponses === true,
    unwrapDataEnvelope: options.unwrapDataEnvelope !== false,
    allowInsecureHttp,
  };
}
