/**
 * DO NOT EDIT. TypeScript types made by openapi-typescript, generated from openapi/openapi.yaml by `npm run generate`;
 * `npm run check-generated` fails when this file is stale.
 */

export interface paths {
    "/v1/site/map": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read a site's sitemap
         * @description Processes the sitemap of the site at `url` and returns all URLs found in it, in one synchronous
         *     response. The service discovers the sitemap itself, follows sitemap indexes, removes duplicates
         *     and returns the links sorted alphabetically. A request costs 1 credit.
         *
         *     **Caching.** When a cached result for the same URL exists within `max_cache_age` seconds, it is
         *     returned and `from_cache` is true. `max_cache_age` 0 (the default) never uses the cache.
         *
         *     **Limits.** The request times out after 60 seconds (status 408). An unavailable site gives 503.
         *     Statuses for a missing or invalid key or an invalid body are not shown.
         */
        post: operations["createSitemapRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a data schema
         * @description Updates an existing data schema by its identifier and returns the updated schema, with its
         *     fields nested to any depth.
         *
         *     **Field types.** Send each field's `type` as a string name (`string`, `integer`, `decimal`,
         *     `double`, `boolean`, `datetime`, `array`, `object`). The response returns each `type` as an
         *     integer; the mapping from integers to names is not published.
         *
         *     **Not shown by the service:** whether properties omitted from the body are kept or cleared,
         *     which `id` wins when the body's differs from the path's, and this endpoint's error statuses
         *     (unknown identifier, invalid body, missing or invalid key).
         */
        put: operations["updateDataSchema"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/browser/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List browser requests
         * @description Retrieves browser requests in bulk, by identifier (`ids`) or by state (`status`), one page at a
         *     time. With neither filter, all browser requests of the caller's account are returned. Results are
         *     scoped to the caller's account.
         *
         *     Pages are 1-based; the default page is 1 and the default page size 30. The maximum page size is
         *     not shown. The response is wrapped as `{"data": ..., "error": null}`.
         *
         *     Query parameter names are camelCase (`pageSize`); the paging fields of the body are snake_case
         *     (`page_size`).
         */
        get: operations["listBrowserRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Format: date-time
         * @description An RFC 3339 date-time in UTC, with `Z` or an offset and 0 to 7 fraction digits (`2024-11-22T16:31:16.6080484+00:00`, `2025-08-22T11:05:43.328175Z`).
         * @example 2024-11-22T16:31:16.6080484+00:00
         */
        DateTime: string;
        /**
         * @description A duration in the .NET TimeSpan form `[d.]hh:mm:ss[.fffffff]` (`00:00:30`, `00:00:04.5297660`). The service calls this format `timespan`, which is not a standard OpenAPI format.
         * @example 00:00:04.5297660
         */
        Duration: string;
        /**
         * Format: uri
         * @description Location of a stored artifact, under the service's storage address.
         * @example https://storage.example.com/brq/dom/brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP/act_T3qL8vN1xK6mW9pR2cB4zH7yD5sJ0e_raw.txt
         */
        ArtifactUrl: string;
        /** @description The body of a sitemap request. */
        SitemapRequestInput: {
            /**
             * Format: uri
             * @description The URL of the site whose sitemap is read.
             * @example https://www.example.com
             */
            url: string;
            /**
             * Format: int32
             * @description Maximum cache age in seconds. When a cached result exists within this age, it is returned. 0, the default, means no cache. (One live page says milliseconds; the interface definition says seconds.)
             * @default 0
             * @example 3600
             */
            max_cache_age?: number | null;
        };
        /** @description The result of a sitemap request. */
        SitemapRequestResponse: {
            /** @description Identifier of the sitemap request (prefix `smr_` on the live service). */
            id: string | null;
            /** @description URL of the request. */
            url: string | null;
            /** @description Status of the request. The allowed values of the sitemap request state are not shown. */
            state: string | null;
            /**
             * Format: int32
             * @description Credits used by the request.
             */
            credit_usage: number | null;
            /** @description Name of the error type, when the request failed. */
            error: string | null;
            /** @description More detail about the error. */
            error_reason: string | null;
            /** @description True when the result was served from the cache. */
            from_cache: boolean | null;
            /** @description UTC time the request started. */
            started_at: components["schemas"]["DateTime"];
            /** @description UTC time the request finished. */
            completed_at: components["schemas"]["DateTime"];
            /** @description Running time of the request. */
            running_time: components["schemas"]["Duration"];
            /** @description URLs found in the sitemap, deduplicated and sorted alphabetically. */
            links: string[] | null;
            /**
             * Format: int32
             * @description Number of links found; equals the length of `links`.
             */
            link_count: number | null;
        };
        /** @description The error object of the sitemap's 408 and 503 responses. The set of `code` values is not shown. */
        ApiError: {
            /** @description The type of object the error concerns. */
            type: string | null;
            /** @description The identifier of the item concerned. */
            id: string | null;
            /** @description Error code. The set of values is not shown. */
            code: string | null;
            /** @description Error description. */
            message: string | null;
        };
        /**
         * @description A field type name, as sent in request bodies. Response bodies carry an integer instead (`FieldTypeCode`); the mapping between the two is not published.
         * @enum {string}
         */
        FieldTypeName: "array" | "boolean" | "datetime" | "decimal" | "double" | "integer" | "object" | "string";
        /**
         * Format: int32
         * @description A field type as returned in response bodies: an integer in 0-7. Requests send a name instead (`FieldTypeName`). Which integer stands for which name is not published; this document asserts no mapping.
         * @enum {integer}
         */
        FieldTypeCode: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
        /** @description A field of a data schema, as sent in request bodies: `type` is a string name. The same field comes back in responses as `SchemaField`, with an integer `type`. */
        SchemaFieldInput: {
            type: components["schemas"]["FieldTypeName"];
            /** @description Field name. */
            name: string;
            /** @description Field description. */
            description?: string | null;
            /** @description Child fields: the item type of an `array`, the members of an `object`. An empty array for leaf fields. */
            fields?: components["schemas"]["SchemaFieldInput"][];
        };
        /** @description A field of a data schema, as returned in response bodies: `type` is an integer whose mapping to the names sent in requests (`SchemaFieldInput`) is not published. */
        SchemaField: {
            type: components["schemas"]["FieldTypeCode"];
            /** @description Field name. */
            name: string;
            /** @description Field description. */
            description: string | null;
            /** @description Child fields: the item type of an `array`, the members of an `object`. An empty array for leaf fields. */
            fields: components["schemas"]["SchemaField"][];
        };
        /** @description The body of a data schema update. Whether properties omitted here are kept or cleared is not shown; which `id` wins when it differs from the path's is not shown either. */
        DataSchemaInput: {
            /** @description Unique identifier of the data schema. */
            id?: string | null;
            /** @description Name of the schema. */
            name?: string | null;
            /** @description Description of the schema. */
            description?: string | null;
            /** @description Top-level fields of the schema. */
            fields?: components["schemas"]["SchemaFieldInput"][];
        };
        /** @description A data schema as returned by the service, with integer field types. */
        DataSchema: {
            /** @description Unique identifier of the data schema. */
            id?: string | null;
            /** @description Name of the schema. */
            name?: string | null;
            /** @description Description of the schema. */
            description?: string | null;
            /** @description Top-level fields of the schema, nested to any depth. */
            fields: components["schemas"]["SchemaField"][];
        };
        /**
         * @description A browser request identifier, prefix `brq_`.
         * @example brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP
         */
        BrowserRequestId: string;
        /**
         * @description The state of a browser request. Transitions between states are not shown.
         * @enum {string}
         */
        BrowserRequestState: "pending" | "running" | "completed" | "failed";
        /** @description A page load that ran actions. A null `started_at` means the request did not start; such a request has null `http_status_code` and `actions`, and when it failed, `credit_usage` 0. The state rules (`allOf`) say which times a pending, running or completed request carries. */
        BrowserRequest: {
            id: components["schemas"]["BrowserRequestId"];
            /** @description The requested URL. */
            url: string;
            /** @description The proxy's location; null means no proxy. Its type and format are not shown, so any JSON value is accepted here; the live service sends a string (`us`, `ie`, `sg`, `fr`) or null. */
            proxy_location: unknown;
            state: components["schemas"]["BrowserRequestState"];
            /** @description Credits used (0 for a failed request that never started). */
            credit_usage: number;
            /** @description Error type name. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends a string or null. */
            error: unknown;
            /** @description Error detail. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends a string or null. */
            error_reason: unknown;
            /** @description The final URL, after redirects. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends a URL string or null. */
            actual_url: unknown;
            /** @description HTTP status of the loaded page; null when the request did not start. */
            http_status_code: number | null;
            /** @description True when served from the cache. */
            from_cache: boolean;
            /** @description When the request started; null when it did not start. */
            started_at: components["schemas"]["DateTime"] | null;
            /** @description When the request completed; null when it has not completed. */
            completed_at: components["schemas"]["DateTime"] | null;
            /** @description Running time; null while running, and sometimes even when completed. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends a duration in the TimeSpan form of `Duration` (`00:00:30.4939516`) or null. */
            running_time: unknown;
            /** @description Page load time. */
            page_load_time: components["schemas"]["Duration"] | null;
            /** @description Actions executed; null when the request did not start. */
            actions: components["schemas"]["Action"][] | null;
            /** @description Recording of the request; null when none. */
            video: components["schemas"]["ArtifactUrl"] | null;
        } & (unknown & unknown & unknown & unknown & unknown);
        /** @description An action a browser request ran. Undocumented members may appear (the live service adds a `query` string such as `wait?selector=.loading&timeout=20000`). */
        Action: {
            /** @description Action identifier, prefix `act_`. */
            id: string;
            /** @description Action type. Observed values include `wait`, `print` and `generate_markdown`; the complete list is not shown (the live service also documents click, scroll, select, type, capture_*, download_file, parse_json, parse_table, loop and others). */
            type: string;
            /** @description Caller-supplied label. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends a string or null. */
            custom_id: unknown;
            /** @description When the action ran. */
            timestamp: components["schemas"]["DateTime"];
            /** @description Location of the produced artifact (a pdf for `print`, a markdown file for `generate_markdown`); null for `wait`. With inline output options the live service returns the text itself or a JSON object here instead of a URL. */
            output: components["schemas"]["ArtifactUrl"] | null | string | {
                [key: string]: unknown;
            };
            /** @description Reference to another item. Its type and format are not shown, so any JSON value is accepted. */
            reference: unknown;
            /** @description Iteration data. Its type is not shown (only that it is nullable), so any JSON value is accepted; the live service sends an integer or null. */
            iterations: unknown;
            /** @description Nested actions (the live service nests them under loop actions). */
            actions: components["schemas"]["Action"][] | null;
            /** @description The action's error, when it failed. Its type and format are not shown, so any JSON value is accepted. */
            error: unknown;
        } & (unknown & unknown & unknown);
        /** @description One page of browser requests. */
        BrowserRequestPage: {
            /** @description Number of pages available. */
            total_pages: number;
            /** @description Total records across all pages. */
            total_records: number;
            /** @description The browser requests of this page. */
            results: components["schemas"]["BrowserRequest"][];
            /** @description The page returned, 1-based. */
            page: number;
            /** @description Records per page. */
            page_size: number;
        };
        /** @description The listing envelope. `error` is null on success. */
        BrowserRequestListResponse: {
            data: components["schemas"]["BrowserRequestPage"];
            /** @description Always null on success. */
            error: null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createSitemapRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SitemapRequestInput"];
            };
        };
        responses: {
            /** @description The sitemap was read; `links` holds every URL found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SitemapRequestResponse"];
                };
            };
            /** @description The sitemap request timed out after 60 seconds. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The requested site is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    updateDataSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the data schema to update. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DataSchemaInput"];
            };
        };
        responses: {
            /** @description The updated data schema. Field `type` values are integers in 0-7; which integer stands for which name is not published. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataSchema"];
                };
            };
        };
    };
    listBrowserRequests: {
        parameters: {
            query?: {
                /** @description Identifiers of the browser requests to retrieve, comma-separated (`brq_...,brq_...`). */
                ids?: components["schemas"]["BrowserRequestId"][];
                /** @description States to filter by, comma-separated (`completed,failed`). */
                status?: components["schemas"]["BrowserRequestState"][];
                /** @description Items per page. The maximum is not shown. */
                pageSize?: number;
                /** @description Page number, 1-based. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of browser requests, wrapped as `{"data": ..., "error": null}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrowserRequestListResponse"];
                };
            };
            /** @description Invalid query parameters (for example page 0 or an unknown state). The body is not shown. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
