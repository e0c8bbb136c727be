/**
 * The one factory mapping a non-2xx response to its error class (openai-node style), refined by the
 * operation's policy (e.g. the sitemap's 408 and 503).
 */
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectNotFollowedError,
  RequestTimeoutError,
  UnprocessableEntityError,
  type ApiErrorInit,
} from "./errors.js";
import { POLICY } from "./policy.js";
import { boundedText } from "../wire/redact.js";
import { operationFor } from "./routes.js";

const BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  408: RequestTimeoutError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** Builds the error for a non-2xx response; the operation is looked up by method and path when not given. */
export function makeApiError(init: ApiErrorInit): ApiError {
  const operationId = init.operationId ?? operationFor(init.method, init.path);
  const full = { ...init, ...(operationId ? { operationId } : {}) };
  const s = init.status;
  const refined = operationId ? POLICY[operationId]?.statuses?.[s] : undefined;
  if (refined) return new refined.error(full, refined.summary);
  if (s === 0 || (s >= 300 && s < 400)) {
    const location = init.headers.get("location");
    return new RedirectNotFollowedError(
      full,
      `redirect${location ? ` to ${boundedText(location, 200)}` : ""} not followed (the ` +
        `API key is never sent to another address; fix baseUrl instead)`,
    );
  }
  const cls = BY_STATUS[s] ?? (s >= 500 ? InternalServerError : ApiError);
  return new cls(full);
}
