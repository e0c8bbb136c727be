/**
 * webauto-api: a typed client for the Web Automation Service API v1 (openapi-fetch underneath).
 */
export { createClient, WebautoClient } from "./client.js";
export type { ClientOptions } from "./options.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from "./options.js";
export type { RequestOptions, RetryInfo, Logger } from "./transport.js";
export type { RetryMode } from "./retry.js";
export { backoffDelayMs, retryAfterMs, retryDelayMs, shouldRetry } from "./retry.js";
export type { BrowserRequestFilters } from "./filters.js";
export { BrowserRequestPager, type PageStopReason } from "./pagination.js";
export { nameFieldTypes, type TypedDataSchema, type TypedSchemaField } from "./field-types.js";
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
  ResponseValidationError,
  SiteUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  WebautoError,
  makeApiError,
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
