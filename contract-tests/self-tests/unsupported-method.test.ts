/**
 * Schemathesis's unsupported_method, adopted as warnings: the check on its own, and which method the phase sends
 * where.
 */
import { describe, expect, it } from "vitest";
import { ALL_CHECKS } from "../modules/index.js";

const { run: runChecks } = ALL_CHECKS;
import { unsupportedMethodFor } from "../engine/phases/unsupported-method.js";
import { exchange, model } from "../fixtures/exchanges.js";
import type { Exchange, Intent } from "../model/types.js";

const GET_SITEMAP = (status: number, headers: Record<string, string> = {}): Exchange => {
  const ex = exchange("createSitemapRequest", { status, body: { message: "x" } });
  return { ...ex, request: { ...ex.request, method: "GET" }, response: { ...ex.response, headers } };
};
const judge = (ex: Exchange, intent: Intent = "unsupported-method") =>
  runChecks(["unsupported_method"], ex, { intent, strict: false, live: true, model });

describe("unsupported_method", () => {
  it("passes a 405 that carries Allow", () => {
    expect(judge(GET_SITEMAP(405, { allow: "POST" }))).toEqual([]);
  });

  it.each([
    [405, {}, "405 for GET without an Allow header"],
    [404, {}, "The undocumented method GET was not answered with 405"],
    [200, {}, "The API answered the undocumented method GET with a success (an operation the document does not show)"],
    [500, {}, "A server error for the undocumented method GET"],
  ] as Array<[number, Record<string, string>, string]>)(
    "status %s: a warning naming RFC 9110, never an error",
    (status, headers, title) => {
      const findings = judge(GET_SITEMAP(status, headers));
      expect(findings.map((f) => [f.severity, f.title])).toEqual([["warning", title]]);
      expect(findings[0]!.documented).toMatch(/RFC 9110/);
    },
  );

  it("judges nothing but requests sent with an undocumented method", () => {
    expect(judge(GET_SITEMAP(200), "acceptance")).toEqual([]);
  });

  it(
    "sends GET to each path that lacks it, on a live target only (a safe " +
      "method; the mock's answer says nothing of the service)",
    () => {
      const sent = (kind: "live" | "mock") =>
        Object.fromEntries(model.operations.map((op) => [op.path, unsupportedMethodFor(model, { kind }, op)]));
      expect(sent("live")).toEqual({
        "/v1/site/map": "GET",
        "/v1/schemas/{id}": "GET",
        "/v1/browser/requests": undefined,
      });
      expect(Object.values(sent("mock")).filter(Boolean)).toEqual([]);
    },
  );
});
