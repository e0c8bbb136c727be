/**
 * webauto-api: a typed client for the Web Automation Service API v1 (openapi-fetch underneath).
 */
export { createClient, WebautoClient, type IterateOptions } from "./client.js";
export type { ClientOptions } from "./options.js";
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from "./options.js";
export type { RequestOptions, RetryInfo, Logger } from "./transport-types.js";
export type { RetryMode } from "./retry.js";
export { backoffDelayMs, MAX_RETRIES, retryDelayMs, shouldRetry } from "./retry.js";
export { parseRetryAfterMs, retryAfterMs } from "../wire/retry-after.js";
export { POLICY, type OperationPolicy } from "./policy.js";
export { makeApiError } from "./error-factory.js";
export { createScrubber, type Scrubber } from "../wire/redact.js";
export type { BrowserRequestFilters } from "./filters.js";
export { BrowserRequestPager, type PageStopReason } from "./pagination.js";
export {
  FIELD_TYPE_NAMES,
  MAX_FIELD_DEPTH,
  nameFieldTypes,
  type TypedDataSchema,
  type TypedSchemaField,
} from "./field-types.js";
export { parseDateTime, parseDuration, WireFormatError } from "./wire-formats.js";
export {
  ApiError,
  ArgumentError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectNotFollowedError,
  RequestAbortedError,
  RequestTimeoutError,
  ResponseBodyError,
  ResponseTooLargeError,
  ResponseValidationError,
  SiteUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  WebautoError,
  type Violation,
} from "./errors.js";
export type {
  Action,
  ApiErrorObject,
  BrowserRequest,
  BrowserRequestListResponse,
  BrowserRequestPage,
  BrowserRequestState,
  DataSchema,
  DataSchemaInput,
  FieldTypeCode,
  FieldTypeCodes,
  FieldTypeName,
  SchemaField,
  SchemaFieldInput,
  SitemapRequest,
  SitemapResponse,
  components,
  operations,
  paths,
} from "./types.js";
export { VERSION } from "./version.js";
