import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  makeApiError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  SiteUnavailableError,
  UnprocessableEntityError,
} from "../index.js";
import { expectNoSecretRecorded, record } from "./support/secrets.js";

const init = (
  status: number,
  method = "GET",
  path = "/v1/browser/requests",
  body = '{"type":null,"id":null,"code":"c","message":"m"}',
) => ({
  status,
  statusText: "",
  body,
  headers: new Headers({ "content-type": "application/json", "set-cookie": "s=1" }),
  method,
  path,
  attempts: 1,
});

describe("makeApiError", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [408, RequestTimeoutError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
    [418, ApiError],
  ] as const)("maps %d to %s", (status, cls) => {
    const err = makeApiError(init(status));
    record(err);
    expect(err).toBeInstanceOf(cls);
    expect(err.constructor).toBe(cls);
    expect(err.name).toBe(cls.name);
    expect(err.status).toBe(status);
    expect(err.code).toBe("c");
    expect(err.message).toBe(`${status} error from GET /v1/browser/requests: c: m`);
  });

  it("recognises the sitemap's 408 and 503", () => {
    const timeout = makeApiError(init(408, "POST", "/v1/site/map"));
    expect(timeout).toBeInstanceOf(RequestTimeoutError);
    expect(timeout.message).toBe("sitemap timed out after 60 s: 408 error from POST /v1/site/map: c: m");
    const down = makeApiError(init(503, "POST", "/v1/site/map"));
    expect(down.constructor).toBe(SiteUnavailableError);
    expect(down.message).toMatch(/^site unavailable: 503/);
    expect(makeApiError(init(503, "GET", "/v1/browser/requests")).constructor).toBe(InternalServerError);
  });

  it("keeps the raw body and redacts secret response headers", () => {
    const err = makeApiError(init(500, "GET", "/v1/browser/requests", "oops"));
    expect(err.body).toBe("oops");
    expect(err.error).toBeNull();
    expect(err.headers["set-cookie"]).toBe("***");
    expect(err.message).toContain('non-JSON body (application/json, 4 chars): "oops"');
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "InternalServerError",
      message: err.message,
      status: 500,
      code: null,
      method: "GET",
      path: "/v1/browser/requests",
      attempts: 1,
    });
  });

  it("says so when there is no body at all", () => {
    expect(makeApiError(init(401, "GET", "/v1/browser/requests", "")).message).toBe(
      "401 error from GET /v1/browser/requests: no body",
    );
  });
});

it("never shows the API key in any error of this file", () => {
  expectNoSecretRecorded(10);
});
