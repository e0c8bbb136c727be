/**
 * DO NOT EDIT. The client's run-time view of each operation, generated from openapi/openapi.yaml by `npm run generate`;
 * `npm run check-generated` fails when this file is stale.
 */

/** Each operation by operationId: method, path template, query parameter styles, the success response. */
export const ROUTES = {
  "createSitemapRequest": {
    "method": "POST",
    "path": "/v1/site/map",
    "query": {},
    "success": {
      "status": "200",
      "schema": "SitemapRequestResponse",
      "required": [
        "id",
        "url",
        "state",
        "credit_usage",
        "error",
        "error_reason",
        "from_cache",
        "started_at",
        "completed_at",
        "running_time",
        "links",
        "link_count"
      ]
    }
  },
  "updateDataSchema": {
    "method": "PUT",
    "path": "/v1/schemas/{id}",
    "query": {},
    "success": {
      "status": "200",
      "schema": "DataSchema",
      "required": [
        "fields"
      ]
    }
  },
  "listBrowserRequests": {
    "method": "GET",
    "path": "/v1/browser/requests",
    "query": {
      "ids": {
        "style": "form",
        "explode": false
      },
      "status": {
        "style": "form",
        "explode": false
      },
      "pageSize": {
        "style": "form",
        "explode": true
      },
      "page": {
        "style": "form",
        "explode": true
      }
    },
    "success": {
      "status": "200",
      "schema": "BrowserRequestListResponse",
      "required": [
        "data",
        "error"
      ]
    }
  }
} as const;

/** The header the document's API-key scheme sends. */
export const API_KEY_HEADER = "X-API-Key";

/** The version of the document (info.version). */
export const DOCUMENT_VERSION = "1.0.0";
