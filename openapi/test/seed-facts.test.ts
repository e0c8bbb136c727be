/**
 * Every definite statement of the seed (../shared/seed/service-interface.md) and the live facts the
 * issue adopts, asserted fact by fact against the YAML document. A forgotten prefix, default, format or
 * nullable turns one row red, named by the seed section it comes from.
 */
import { describe, expect, test } from "vitest";
import { SpecModel } from "../../contract-tests/model/model.js";
import { undocumentedMembers } from "../../contract-tests/model/undocumented.js";
import { derefSchema, loadSpec, SPEC_PATH, SpecValidator } from "../lib/spec.js";
import { resolvePointer } from "../lib/document-error.js";

const spec = loadSpec();
const validator = new SpecValidator(spec);
const SCHEMAS = "/components/schemas";

type Schema = Record<string, any>;

/** Follows `$ref` chains to the schema object they name. */
function deref(schema: Schema): Schema {
  return derefSchema(spec, schema).schema as Schema;
}

/** The JSON types a schema admits, merging `type` arrays and oneOf/anyOf branches; "any" when untyped. */
function typesOf(schema: Schema): string[] {
  const s = deref(schema);
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return [...new Set((branches as Schema[]).flatMap(typesOf))].sort();
  if (s.type === undefined) return ["any"];
  return [s.type].flat().sort();
}

/** The first non-null branch of a nullable schema (or the schema itself), dereferenced. */
function valueBranch(schema: Schema): Schema {
  const s = deref(schema);
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  return branches ? deref(branches.find((b) => deref(b).type !== "null")!) : s;
}

function property(component: string, name: string): Schema {
  const prop = resolvePointer(spec, `${SCHEMAS}/${component}/properties/${name}`) as Schema | undefined;
  if (!prop) throw new Error(`${component}.${name} is missing from the document`);
  return prop;
}

interface FieldFact {
  types: string[];
  format?: string;
  required?: boolean;
  default?: unknown;
  accepts?: unknown[];
  rejects?: unknown[];
}

/** [seed section, component, property, expectation] */
const FIELD_FACTS: Array<[string, string, string, FieldFact]> = [
  ["2.1", "SitemapRequestInput", "url", { types: ["string"], required: true }],
  [
    "2.1",
    "SitemapRequestInput",
    "max_cache_age",
    { types: ["integer", "null"], format: "int32", default: 0, required: false },
  ],
  ["2.2", "SitemapRequestResponse", "id", { types: ["null", "string"] }],
  ["2.2", "SitemapRequestResponse", "url", { types: ["null", "string"] }],
  ["2.2", "SitemapRequestResponse", "state", { types: ["null", "string"] }],
  ["2.2", "SitemapRequestResponse", "credit_usage", { types: ["integer", "null"], format: "int32" }],
  ["2.2", "SitemapRequestResponse", "error", { types: ["null", "string"] }],
  ["2.2", "SitemapRequestResponse", "error_reason", { types: ["null", "string"] }],
  ["2.2", "SitemapRequestResponse", "from_cache", { types: ["boolean", "null"] }],
  ["2.2", "SitemapRequestResponse", "started_at", { types: ["string"], format: "date-time" }],
  ["2.2", "SitemapRequestResponse", "completed_at", { types: ["string"], format: "date-time" }],
  [
    "2.2",
    "SitemapRequestResponse",
    "running_time",
    {
      types: ["string"],
      accepts: ["00:00:30", "00:00:04.5297660", "1.02:03:04.5"],
      rejects: ["30s", "PT30S", "00:00:04.12345678", null],
    },
  ],
  ["2.2", "SitemapRequestResponse", "links", { types: ["array", "null"] }],
  ["2.2", "SitemapRequestResponse", "link_count", { types: ["integer", "null"], format: "int32" }],
  ["2.3", "ApiError", "type", { types: ["null", "string"] }],
  ["2.3", "ApiError", "id", { types: ["null", "string"] }],
  ["2.3", "ApiError", "code", { types: ["null", "string"] }],
  ["2.3", "ApiError", "message", { types: ["null", "string"] }],
  ["2.4", "DataSchema", "id", { types: ["null", "string"], required: false }],
  ["2.4", "DataSchema", "name", { types: ["null", "string"], required: false }],
  ["2.4", "DataSchema", "description", { types: ["null", "string"], required: false }],
  ["2.4", "DataSchema", "fields", { types: ["array"] }],
  ["2.4", "DataSchemaInput", "id", { types: ["null", "string"], required: false }],
  ["2.4", "DataSchemaInput", "name", { types: ["null", "string"], required: false }],
  ["2.4", "DataSchemaInput", "description", { types: ["null", "string"], required: false }],
  ["2.4", "SchemaField", "name", { types: ["string"] }],
  ["2.4", "SchemaField", "description", { types: ["null", "string"] }],
  ["2.4", "SchemaField", "fields", { types: ["array"] }],
  ["2.4", "SchemaFieldInput", "name", { types: ["string"], required: true }],
  ["2.4", "SchemaFieldInput", "description", { types: ["null", "string"] }],
  [
    "2.5",
    "BrowserRequest",
    "id",
    {
      types: ["string"],
      accepts: ["brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP", "brq_1234"],
      rejects: ["act_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP", "V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP", "brq_"],
    },
  ],
  ["2.5", "BrowserRequest", "url", { types: ["string"] }],
  [
    "2.5",
    "BrowserRequest",
    "state",
    {
      types: ["string"],
      accepts: ["pending", "running", "completed", "failed"],
      rejects: ["cancelled", "Completed", null],
    },
  ],
  ["2.5", "BrowserRequest", "credit_usage", { types: ["integer"], accepts: [0] }],
  ["2.5", "BrowserRequest", "http_status_code", { types: ["integer", "null"] }],
  ["2.5", "BrowserRequest", "from_cache", { types: ["boolean"] }],
  [
    "2.5",
    "BrowserRequest",
    "started_at",
    {
      types: ["null", "string"],
      accepts: [
        null,
        "2024-11-22T16:31:16.6080484+00:00",
        "2025-08-22T11:05:43.328175Z",
        "2025-08-22T11:05:43Z",
        "2025-08-22T11:05:43.328+00:00",
      ],
      rejects: ["2025-08-22T11:05:43", "2025-08-22 11:05:43Z", "2025-08-22T11:05:43.123456789Z"],
    },
  ],
  [
    "2.5",
    "BrowserRequest",
    "completed_at",
    { types: ["null", "string"], accepts: [null, "2024-11-22T16:31:47.1020000+00:00"], rejects: ["yesterday"] },
  ],
  [
    "2.5",
    "BrowserRequest",
    "page_load_time",
    { types: ["null", "string"], accepts: [null, "00:00:04.5297660"], rejects: ["4.53"] },
  ],
  ["2.5", "BrowserRequest", "running_time", { types: ["any"], accepts: [null, "00:00:30"] }],
  ["2.5", "BrowserRequest", "actions", { types: ["array", "null"] }],
  [
    "2.5",
    "BrowserRequest",
    "video",
    {
      types: ["null", "string"],
      accepts: [null, "https://storage.example.com/brq/video/brq_x.webm"],
      rejects: ["not a url"],
    },
  ],
  [
    "2.5",
    "Action",
    "id",
    {
      types: ["string"],
      accepts: ["act_R4nX8cK2vT6mQ1pL9wB3zH7yD5sJ0g"],
      rejects: ["brq_R4nX8cK2vT6mQ1pL9wB3zH7yD5sJ0g", "R4nX8c"],
    },
  ],
  [
    "2.5",
    "Action",
    "type",
    { types: ["string"], accepts: ["wait", "print", "generate_markdown", "capture_screenshot"] },
  ],
  ["2.5", "Action", "timestamp", { types: ["string"], format: "date-time", rejects: [null] }],
  [
    "2.5",
    "Action",
    "output",
    { types: ["null", "object", "string"], accepts: [null, "https://storage.example.com/brq/dom/brq_x/act_y_raw.txt"] },
  ],
  ["2.5", "Action", "actions", { types: ["array", "null"] }],
  ["4.3", "BrowserRequestPage", "total_pages", { types: ["integer"] }],
  ["4.3", "BrowserRequestPage", "total_records", { types: ["integer"] }],
  ["4.3", "BrowserRequestPage", "results", { types: ["array"] }],
  ["4.3", "BrowserRequestPage", "page", { types: ["integer"], accepts: [1], rejects: [0] }],
  ["4.3", "BrowserRequestPage", "page_size", { types: ["integer"] }],
  ["4.3", "BrowserRequestListResponse", "error", { types: ["null"], accepts: [null], rejects: ["oops", {}] }],
];

/**
 * [seed section, component, property]: the places where the seed gives no type (only "nullable") or says the
 * format is "not shown". The document must be no narrower than the seed there: any JSON value validates.
 */
const OPEN_PLACES: Array<[string, string, string]> = [
  ["2.5", "BrowserRequest", "proxy_location"],
  ["2.5", "BrowserRequest", "error"],
  ["2.5", "BrowserRequest", "error_reason"],
  ["2.5", "BrowserRequest", "actual_url"],
  ["2.5", "BrowserRequest", "running_time"],
  ["2.5", "Action", "custom_id"],
  ["2.5", "Action", "reference"],
  ["2.5", "Action", "iterations"],
  ["2.5", "Action", "error"],
];

describe("the document is no narrower than the seed where the seed shows no type", () => {
  const values: unknown[] = [42, true, { code: "E1", detail: ["x"] }, [1, "two"], "text", null];
  test.each(OPEN_PLACES)("§%s %s.%s accepts any JSON value, inside a whole record too", (_section, component, name) => {
    const pointer = `${SCHEMAS}/${component}/properties/${name}`;
    for (const value of values)
      expect(validator.validate(pointer, value), `accepts ${JSON.stringify(value)}`).toEqual([]);
    // The same value inside a complete record of the document's own listing example.
    const example = structuredClone(listing().responses["200"].content["application/json"].examples.firstPage.value);
    const record = example.data.results[0];
    const target = component === "Action" ? record.actions[0] : record;
    for (const value of values.slice(0, 4)) {
      target[name] = value;
      expect(
        validator.validate(
          "/paths/~1v1~1browser~1requests/get/responses/200/content/application~1json/schema",
          example,
        ),
        `${name}: ${JSON.stringify(value)} in a record`,
      ).toEqual([]);
    }
  });

  test("the check is live: a typed place (BrowserRequest.state) rejects a number", () => {
    expect(validator.validate(`${SCHEMAS}/BrowserRequest/properties/state`, 42)).not.toEqual([]);
  });
});

describe("seed section 2: every field with its type, format and nullability", () => {
  test.each(FIELD_FACTS)("§%s %s.%s", (_section, component, name, fact) => {
    const prop = property(component, name);
    expect(typesOf(prop), "JSON types").toEqual([...fact.types].sort());
    if (fact.format) expect(valueBranch(prop).format, "format").toBe(fact.format);
    if (fact.default !== undefined) expect(valueBranch(prop).default ?? prop.default, "default").toEqual(fact.default);
    const required: string[] = (resolvePointer(spec, `${SCHEMAS}/${component}/required`) as string[]) ?? [];
    if (fact.required !== undefined) expect(required.includes(name), "required").toBe(fact.required);
    const pointer = `${SCHEMAS}/${component}/properties/${name}`;
    for (const value of fact.accepts ?? [])
      expect(validator.validate(pointer, value), `accepts ${JSON.stringify(value)}`).toEqual([]);
    for (const value of fact.rejects ?? [])
      expect(validator.validate(pointer, value), `rejects ${JSON.stringify(value)}`).not.toEqual([]);
  });
});

const op = (path: string, method: string): Schema => spec.paths[path][method];
const sitemap = () => op("/v1/site/map", "post");
const update = () => op("/v1/schemas/{id}", "put");
const listing = () => op("/v1/browser/requests", "get");
const param = (name: string): Schema => listing().parameters.find((p: Schema) => p.name === name);
const mediaSchema = (response: Schema) => response.content?.["application/json"]?.schema;

/** [statement, check] — one row per definite statement of seed sections 3-9 and the adopted live facts. */
const DOCUMENT_FACTS: Array<[string, () => void]> = [
  [
    "§9 the document is OpenAPI 3.1 and the interface is versioned 1.0.0",
    () => {
      expect(spec.openapi).toMatch(/^3\.1\./);
      expect(spec.info.version).toBe("1.0.0");
    },
  ],
  [
    "§9 every path carries the /v1 prefix, and exactly the three shown operations exist",
    () => {
      const ops = Object.entries(spec.paths as Record<string, Schema>).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((k) => k !== "parameters")
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(ops.sort()).toEqual(["GET /v1/browser/requests", "POST /v1/site/map", "PUT /v1/schemas/{id}"]);
      for (const path of Object.keys(spec.paths)) expect(path.startsWith("/v1/")).toBe(true);
    },
  ],
  [
    "§4 operationIds: createSitemapRequest (seed), updateDataSchema (live reference), listBrowserRequests",
    () => {
      expect([sitemap().operationId, update().operationId, listing().operationId]).toEqual([
        "createSitemapRequest",
        "updateDataSchema",
        "listBrowserRequests",
      ]);
    },
  ],
  [
    "§4 every operation has a tag, a summary and a description; every tag is declared",
    () => {
      const declared = (spec.tags as Schema[]).map((t) => t.name);
      for (const o of [sitemap(), update(), listing()]) {
        expect(o.summary && o.description && o.tags?.length).toBeTruthy();
        for (const t of o.tags) expect(declared).toContain(t);
      }
    },
  ],
  [
    "base address: a server entry with a base_url variable",
    () => {
      expect(spec.servers[0].url).toBe("{base_url}");
      expect(spec.servers[0].variables.base_url.default).toMatch(/^https?:\/\//);
    },
  ],
  [
    "§5 X-API-Key is the one, global security scheme",
    () => {
      expect(spec.components.securitySchemes).toEqual({
        ApiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
      });
      expect(spec.security).toEqual([{ ApiKeyAuth: [] }]);
      for (const o of [sitemap(), update(), listing()]) expect(o.security, "no operation overrides it").toBeUndefined();
    },
  ],
  [
    "§4.1 the sitemap body is required JSON of shape 2.1; 200, 408 and 503 are documented",
    () => {
      expect(sitemap().requestBody.required).toBe(true);
      expect(sitemap().requestBody.content["application/json"].schema.$ref).toBe(
        "#/components/schemas/SitemapRequestInput",
      );
      expect(Object.keys(sitemap().responses).sort()).toEqual(["200", "408", "503"]);
      expect(mediaSchema(sitemap().responses["200"]).$ref).toBe("#/components/schemas/SitemapRequestResponse");
    },
  ],
  [
    "§4.1/§7 408 (60 s timeout) and 503 (site unavailable) carry the error object type, id, code, message",
    () => {
      for (const code of ["408", "503"])
        expect(mediaSchema(sitemap().responses[code]).$ref).toBe("#/components/schemas/ApiError");
      expect(sitemap().responses["408"].description).toMatch(/60 seconds/);
      expect(sitemap().responses["503"].description).toMatch(/unavailable/);
      expect(Object.keys(spec.components.schemas.ApiError.properties).sort()).toEqual([
        "code",
        "id",
        "message",
        "type",
      ]);
    },
  ],
  [
    "§4.2 PUT takes a required string path id and JSON of shape 2.4, and returns the schema",
    () => {
      const id = update().parameters.find((p: Schema) => p.name === "id");
      expect(id).toMatchObject({ in: "path", required: true, schema: { type: "string" } });
      expect(update().requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/DataSchemaInput");
      expect(mediaSchema(update().responses["200"]).$ref).toBe("#/components/schemas/DataSchema");
    },
  ],
  [
    "§4.2 what the seed leaves open about PUT is said to be not shown, and no error status is invented",
    () => {
      expect(update().description).toMatch(/omitted from the body are kept or cleared/);
      expect(update().description).toMatch(/not shown/i);
      expect(Object.keys(update().responses)).toEqual(["200"]);
    },
  ],
  [
    "§2.4 field types: requests send one of the eight names as a string",
    () => {
      expect(deref(spec.components.schemas.SchemaFieldInput.properties.type)).toMatchObject({ type: "string" });
      expect([...deref(spec.components.schemas.SchemaFieldInput.properties.type).enum].sort()).toEqual([
        "array",
        "boolean",
        "datetime",
        "decimal",
        "double",
        "integer",
        "object",
        "string",
      ]);
    },
  ],
  [
    "§2.4 field types: responses return an int32 integer from the documented enum 0-7",
    () => {
      expect(deref(spec.components.schemas.SchemaField.properties.type)).toMatchObject({
        type: "integer",
        format: "int32",
        enum: [0, 1, 2, 3, 4, 5, 6, 7],
      });
    },
  ],
  [
    "§2.4 the discrepancy is explicit on both schemas, they point at each other, and no mapping is asserted",
    () => {
      for (const name of ["SchemaFieldInput", "SchemaField"]) {
        expect(spec.components.schemas[name]["x-field-type-discrepancy"]).toEqual({
          request: "#/components/schemas/SchemaFieldInput",
          response: "#/components/schemas/SchemaField",
          mapping: "not published",
        });
      }
      expect(spec.components.schemas.FieldTypeName["x-response-counterpart"]).toBe(
        "#/components/schemas/FieldTypeCode",
      );
      expect(spec.components.schemas.FieldTypeCode["x-request-counterpart"]).toBe("#/components/schemas/FieldTypeName");
      expect(JSON.stringify(spec)).not.toMatch(/"x-[a-z-]*mapping"\s*:\s*\{/);
    },
  ],
  [
    "§2.4 fields nest recursively: children have the same shape as their parent",
    () => {
      expect(spec.components.schemas.SchemaField.properties.fields.items.$ref).toBe("#/components/schemas/SchemaField");
      expect(spec.components.schemas.SchemaFieldInput.properties.fields.items.$ref).toBe(
        "#/components/schemas/SchemaFieldInput",
      );
      expect(spec.components.schemas.Action.properties.actions.items.$ref).toBe("#/components/schemas/Action");
    },
  ],
  [
    "§4.3 live query names ids, status, pageSize, page; all optional",
    () => {
      expect(listing().parameters.map((p: Schema) => `${p.in}:${p.name}:${p.required}`)).toEqual([
        "query:ids:false",
        "query:status:false",
        "query:pageSize:false",
        "query:page:false",
      ]);
    },
  ],
  [
    "§4.3 ids and status are comma-separated lists of brq_ ids and of the four states",
    () => {
      for (const name of ["ids", "status"])
        expect(param(name)).toMatchObject({ style: "form", explode: false, schema: { type: "array" } });
      expect(deref(param("ids").schema.items).pattern).toBe("^brq_[A-Za-z0-9]+$");
      expect(deref(param("status").schema.items).enum).toEqual(["pending", "running", "completed", "failed"]);
    },
  ],
  [
    "§4.3/§8 paging defaults: page 1 (1-based), page size 30; the maximum page size is not shown",
    () => {
      expect(param("page").schema).toMatchObject({ type: "integer", default: 1, minimum: 1 });
      expect(param("pageSize").schema).toMatchObject({ type: "integer", default: 30 });
      expect(param("pageSize").schema.maximum).toBeUndefined();
      expect(param("pageSize").description).toMatch(/maximum is not shown/);
    },
  ],
  [
    "§4.3 the 200 envelope is {data, error} with error null, data holding the paging members",
    () => {
      expect(mediaSchema(listing().responses["200"]).$ref).toBe("#/components/schemas/BrowserRequestListResponse");
      expect(spec.components.schemas.BrowserRequestListResponse.required).toEqual(["data", "error"]);
      expect([...spec.components.schemas.BrowserRequestPage.required].sort()).toEqual([
        "page",
        "page_size",
        "results",
        "total_pages",
        "total_records",
      ]);
    },
  ],
  [
    "§4.3/live the invalid-query-parameters response is 400, with no body promised",
    () => {
      expect(listing().responses["400"]).toBeDefined();
      expect(listing().responses["400"].content).toBeUndefined();
    },
  ],
  [
    "§8 max_cache_age defaults to 0 (no cache); the sitemap times out after 60 s",
    () => {
      expect(spec.components.schemas.SitemapRequestInput.properties.max_cache_age.default).toBe(0);
      expect(sitemap().description).toMatch(/60 seconds/);
    },
  ],
  [
    "§3 a failed request that never started validates with credit_usage 0 and null timings",
    () => {
      const failed = {
        id: "brq_K8mT3q",
        url: "https://x.example",
        proxy_location: null,
        state: "failed",
        credit_usage: 0,
        error: "E",
        error_reason: "R",
        actual_url: null,
        http_status_code: null,
        from_cache: false,
        started_at: null,
        completed_at: null,
        running_time: null,
        page_load_time: null,
        actions: null,
        video: null,
      };
      expect(validator.validate(`${SCHEMAS}/BrowserRequest`, failed)).toEqual([]);
    },
  ],
  [
    "additive response fields are allowed (the live action's `query`), nothing forbids them",
    () => {
      expect(JSON.stringify(spec.components.schemas)).not.toMatch(
        /"(additionalProperties|unevaluatedProperties)":false/,
      );
      const action = {
        id: "act_a1",
        type: "wait",
        custom_id: null,
        timestamp: "2024-11-22T16:31:21Z",
        output: null,
        reference: null,
        iterations: null,
        actions: null,
        error: null,
        query: "wait?selector=.x&timeout=20000",
      };
      expect(validator.validate(`${SCHEMAS}/Action`, action)).toEqual([]);
    },
  ],
];

describe("seed sections 3-9: operations, auth, paging, envelope, discrepancy", () => {
  test.each(DOCUMENT_FACTS)("%s", (_statement, check) => check());
});

const BROWSER_REQUEST = `${SCHEMAS}/BrowserRequest`;
const ACTION = `${SCHEMAS}/Action`;
/**
 * The listing example's records: [0] completed (wait, print, generate_markdown actions), [1] failed and never
 * started, [2] running.
 */
const records = (): Schema[] =>
  structuredClone(listing().responses["200"].content["application/json"].examples.firstPage.value.data.results);
const pending = (): Schema => ({ ...records()[1]!, state: "pending", error: null, error_reason: null });
const failedStarted = (): Schema => ({
  ...records()[0]!,
  state: "failed",
  error: "TimeoutError",
  error_reason: "Timed out.",
});
const action = (type: string, output: unknown): Schema => ({ ...records()[0]!.actions[0], type, output });
/**
 * The index of the state rule (the `allOf` member of BrowserRequest or Action) whose `x-interface-statement` names
 * `statement`.
 */
const ruleIndex = (component: string, statement: RegExp): number =>
  (spec.components.schemas[component].allOf as Schema[]).findIndex((r) => statement.test(r["x-interface-statement"]));

/**
 * [rule as docs/document.md states it, component, the seed's words its `x-interface-statement` quotes, records
 * that keep the rule, records that break it]. Each broken record is refused by that rule (its `allOf` member),
 * each kept one validates: the generic schema check holds a server to the rule with no code of its own.
 */
const STATE_RULES: Array<[string, "BrowserRequest" | "Action", RegExp, () => Schema[], () => Schema[]]> = [
  [
    "pending ⇒ started_at and completed_at null",
    "BrowserRequest",
    /state "pending"/,
    () => [pending()],
    () => [
      { ...pending(), started_at: "2025-08-22T11:05:43Z" },
      { ...pending(), completed_at: "2025-08-22T11:05:47Z" },
    ],
  ],
  [
    "running ⇒ started_at a date-time, completed_at null",
    "BrowserRequest",
    /state "running"/,
    () => [records()[2]!, { ...records()[2]!, http_status_code: null, actions: null }],
    () => [
      { ...records()[2]!, completed_at: "2025-08-22T11:05:47Z" },
      { ...records()[2]!, started_at: null, http_status_code: null, actions: null },
    ],
  ],
  [
    "completed ⇒ started_at and completed_at date-times",
    "BrowserRequest",
    /state "completed"/,
    () => [records()[0]!, { ...records()[0]!, http_status_code: null, running_time: null }],
    () => [
      { ...records()[0]!, completed_at: null },
      { ...records()[0]!, started_at: null, http_status_code: null, actions: null },
    ],
  ],
  [
    "not started (started_at null) ⇒ http_status_code and actions null",
    "BrowserRequest",
    /http_status_code "null when the request did not start"/,
    () => [records()[1]!, pending()],
    () => [
      { ...records()[1]!, http_status_code: 502 },
      { ...records()[1]!, actions: [] },
      { ...pending(), actions: [] },
    ],
  ],
  [
    "failed and never started ⇒ credit_usage 0",
    "BrowserRequest",
    /credit_usage "0 for a failed request that never started"/,
    () => [records()[1]!, failedStarted(), { ...failedStarted(), completed_at: null }],
    () => [{ ...records()[1]!, credit_usage: 1 }],
  ],
  [
    "wait ⇒ output null",
    "Action",
    /output "null for wait"/,
    () => [action("wait", null)],
    () => [action("wait", "https://storage.example.com/x.pdf"), action("wait", ""), action("wait", { a: 1 })],
  ],
  [
    "print ⇒ output a URL (the pdf) or null",
    "Action",
    /a pdf for print/,
    () => [action("print", "https://storage.example.com/brq/pdf/a.pdf"), action("print", null)],
    () => [action("print", "%PDF-1.7 inline"), action("print", { pdf: "x" })],
  ],
  [
    "generate_markdown ⇒ output a string (URL or inline markdown) or null",
    "Action",
    /a markdown file for generate_markdown/,
    () => [
      action("generate_markdown", "https://storage.example.com/a_raw.txt"),
      action("generate_markdown", "# Title"),
      action("generate_markdown", null),
    ],
    () => [action("generate_markdown", { markdown: "# Title" })],
  ],
];

describe("seed section 2.5: the state rules between the fields of one record", () => {
  test.each(STATE_RULES)("%s", (_rule, component, statement, keeps, breaks) => {
    const index = ruleIndex(component, statement);
    expect(index, "the rule names its interface statement").toBeGreaterThanOrEqual(0);
    const pointer = `${SCHEMAS}/${component}`;
    for (const record of keeps())
      expect(validator.validate(pointer, record), `keeps ${JSON.stringify(record).slice(0, 120)}`).toEqual([]);
    for (const record of breaks()) {
      const places = validator.validate(pointer, record).map((e) => e.schemaPath);
      // ajv names the place relative to the schema it compiled (#/allOf/i/... when the component is the root).
      expect(
        places.some((p) => new RegExp(`^#(/components/schemas/${component})?/allOf/${index}/`).test(p)),
        `breaks ${JSON.stringify(record).slice(0, 160)}: ${places.join(", ")}`,
      ).toBe(true);
    }
  });

  test("every state rule quotes its interface statement and says what it holds", () => {
    for (const component of ["BrowserRequest", "Action"])
      for (const rule of spec.components.schemas[component].allOf as Schema[]) {
        expect(rule["x-interface-statement"]).toMatch(/^seed 2\.5: /);
        expect(rule.description).toBeTruthy();
        expect(rule.if && rule.then).toBeTruthy();
      }
  });

  test(
    "what the interface leaves open stays open: action types beyond the three, a failed request's completed_at, a " +
      "started request's http_status_code",
    () => {
      expect(validator.validate(ACTION, action("parse_json", { price: 3 }))).toEqual([]);
      expect(validator.validate(ACTION, action("capture_screenshot", null))).toEqual([]);
      expect(validator.validate(BROWSER_REQUEST, { ...records()[1]!, completed_at: "2025-08-22T11:05:47Z" })).toEqual(
        [],
      );
      expect(validator.validate(BROWSER_REQUEST, { ...failedStarted(), http_status_code: null, actions: [] })).toEqual(
        [],
      );
    },
  );

  test(
    "no response example carries a member its schema does not list (the strictness redocly.yaml leaves to this " +
      "test)",
    () => {
      const model = new SpecModel(SPEC_PATH);
      for (const op of model.operations)
        for (const r of op.responses)
          for (const m of r.content.filter((x) => x.schemaPointer))
            for (const e of m.examples)
              expect(
                undocumentedMembers(model, { $ref: `#${m.schemaPointer}` }, m.schemaPointer!, e.value),
                `${op.operationId} ${r.status} ${e.name}`,
              ).toEqual([]);
      const broken = structuredClone(listing().responses["200"].content["application/json"].examples.firstPage.value);
      broken.data.results[0].stat = "completed";
      const pointer = "/paths/~1v1~1browser~1requests/get/responses/200/content/application~1json/schema";
      expect(undocumentedMembers(model, { $ref: `#${pointer}` }, pointer, broken).map((p) => p.instancePath)).toEqual([
        "/data/results/0/stat",
      ]);
    },
  );
});
