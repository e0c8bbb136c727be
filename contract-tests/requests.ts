/** Request builders for the three operations, and the document's own PUT example. */
import type { RequestSpec } from "./target.js";
import { requestExample } from "./spec-model.js";

/** POST /v1/site/map with a JSON body (or a raw one). */
export function sitemapRequest(json: unknown, extra: Partial<RequestSpec> = {}): RequestSpec {
  return { operation: "createSitemapRequest", method: "POST", path: "/v1/site/map", json, ...extra };
}

/** PUT /v1/schemas/{id}. */
export function schemaRequest(id: string, json: unknown, extra: Partial<RequestSpec> = {}): RequestSpec {
  return { operation: "updateDataSchema", method: "PUT", path: `/v1/schemas/${encodeURIComponent(id)}`, json, ...extra };
}

/** GET /v1/browser/requests with query parameters. */
export function listingRequest(query: Record<string, string> = {}, extra: Partial<RequestSpec> = {}): RequestSpec {
  return { operation: "listBrowserRequests", method: "GET", path: "/v1/browser/requests", query, ...extra };
}

/** The document's PUT request example: every type name, nested through array and object. */
export function schemaExample(): { id: string; body: Record<string, unknown> } {
  const body = structuredClone(requestExample("updateDataSchema")) as Record<string, unknown>;
  return { id: String(body.id), body };
}
