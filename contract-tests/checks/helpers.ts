/** Small helpers shared by the checks: building violations and reading response bodies. */
import { toCurl } from "../curl.js";
import type { Exchange, Violation } from "../types.js";

/** Builds a violation of `exchange`, filling in the operation and the curl command. */
export function violation(exchange: Exchange, v: Omit<Violation, "operation" | "curl">): Violation {
  return { ...v, operation: exchange.operation, curl: toCurl(exchange.request) };
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a 2xx status. */
export function isSuccess(exchange: Exchange): boolean {
  return exchange.response.status >= 200 && exchange.response.status < 300;
}

/** True when a sitemap or schema response is wrapped as `{"data": {...}}` (the live pages disagree on this). */
export function isEnveloped(exchange: Exchange): boolean {
  const json = exchange.response.json;
  if (exchange.operation === "listBrowserRequests" || !isObject(json)) return false;
  return isObject(json.data) && Object.keys(json).every((k) => k === "data" || k === "error");
}

/** The documented body of a response: the inner value of an envelope, else the body itself. */
export function payload(exchange: Exchange): unknown {
  const json = exchange.response.json;
  return isEnveloped(exchange) ? (json as Record<string, unknown>).data : json;
}

/** The instance-path prefix of the payload inside the body ("/data" for an envelope). */
export function payloadPrefix(exchange: Exchange): string {
  return isEnveloped(exchange) ? "/data" : "";
}

/** A compact, bounded JSON rendering of a value for reports. */
export function show(value: unknown, max = 200): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The listing page (`data`) of a successful listing response, or undefined. */
export function listingPage(exchange: Exchange): Record<string, any> | undefined {
  if (exchange.operation !== "listBrowserRequests" || !isSuccess(exchange)) return undefined;
  const json = exchange.response.json;
  return isObject(json) && isObject(json.data) ? (json.data as Record<string, any>) : undefined;
}

/** The results of a listing page that are objects with a string id. */
export function listingResults(page: Record<string, any>): Array<Record<string, any>> {
  return Array.isArray(page.results) ? page.results.filter(isObject) : [];
}
