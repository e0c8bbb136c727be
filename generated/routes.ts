/**
 * DO NOT EDIT. The client's run-time view of each operation, generated from openapi/openapi.yaml by `npm run generate`;
 * `npm run check-generated` fails when this file is stale.
 */

/** Each operation by operationId: method, path template, query parameter styles, the success response. */
export const ROUTES = {
  "createSitemapRequest": {
    "method": "POST",
    "path": "/v1/site/map",
    "pathParams": {},
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
    "pathParams": {
      "id": {
        "schema": {
          "type": "string",
          "minLength": 1
        }
      }
    },
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
    "pathParams": {},
    "query": {
      "ids": {
        "style": "form",
        "explode": false,
        "schema": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "pattern": "^brq_[A-Za-z0-9]+$"
          }
        }
      },
      "status": {
        "style": "form",
        "explode": false,
        "schema": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "enum": [
              "pending",
              "running",
              "completed",
              "failed"
            ]
          }
        }
      },
      "pageSize": {
        "style": "form",
        "explode": true,
        "schema": {
          "type": "integer",
          "minimum": 1
        }
      },
      "page": {
        "style": "form",
        "explode": true,
        "schema": {
          "type": "integer",
          "minimum": 1
        }
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

/** Every string or integer enum of the document's component schemas, by schema name. */
export const ENUMS = {"FieldTypeName":["array","boolean","datetime","decimal","double","integer","object","string"],"FieldTypeCode":[0,1,2,3,4,5,6,7],"BrowserRequestState":["pending","running","completed","failed"]} as const;

/** The header the document's API-key scheme sends. */
export const API_KEY_HEADER = "X-API-Key";

/** The version of the document (info.version). */
export const DOCUMENT_VERSION = "1.0.0";
