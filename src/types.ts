/**
 * The public names of the document's shapes, re-exported from the generated types (type-only: nothing
 * from `generated/` exists at runtime).
 */
import type { components, operations, paths } from "../generated/schema.js";

type Schemas = components["schemas"];

/** The typed paths of the OpenAPI document, as used by `client.raw`. */
export type { paths, components, operations };

/** The body of `POST /v1/site/map`. `max_cache_age` is in seconds; 0 (the default) never uses the cache. */
export interface SitemapRequest {
  /** The URL of the site whose sitemap is read. */
  url: string;
  /** Maximum cache age in seconds; omitted or 0 means no cache. */
  max_cache_age?: number | null;
}
/** The result of a sitemap request. */
export type SitemapResponse = Schemas["SitemapRequestResponse"];
/** The error object some error responses carry (`type`, `id`, `code`, `message`). */
export type ApiErrorObject = Schemas["ApiError"];
/** A field type name, as sent in requests. */
export type FieldTypeName = Schemas["FieldTypeName"];
/** A field type as returned in responses: an integer whose meaning is not published. */
export type FieldTypeCode = Schemas["FieldTypeCode"];
/** A schema field as sent in requests (string `type`). */
export type SchemaFieldInput = Schemas["SchemaFieldInput"];
/** A schema field as returned by the service (integer `type`). */
export type SchemaField = Schemas["SchemaField"];
/** The body of a data schema update. */
export type DataSchemaInput = Schemas["DataSchemaInput"];
/** A data schema as returned by the service (integer field types). */
export type DataSchema = Schemas["DataSchema"];
/** A browser request record. */
export type BrowserRequest = Schemas["BrowserRequest"];
/** The state of a browser request. */
export type BrowserRequestState = Schemas["BrowserRequestState"];
/** An action a browser request ran. */
export type Action = Schemas["Action"];
/** One page of browser requests (the `data` member of the listing envelope). */
export type BrowserRequestPage = Schemas["BrowserRequestPage"];
/** The listing envelope `{ data, error: null }`. */
export type BrowserRequestListResponse = Schemas["BrowserRequestListResponse"];

/** The integer type codes a field name was paired with, learned from the service's own answers. */
export type FieldTypeCodes = ReadonlyMap<FieldTypeCode, FieldTypeName>;
