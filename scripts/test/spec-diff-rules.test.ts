/**
 * The gate's rule table, one small pair of documents per rule and direction, in process: each row names the
 * rule it must fire and the level it must have, and the gate's level for the pair (its highest change).
 * Schema rows run on both sides, request and response, with each side's expected level written out. A last
 * test checks that every rule of the table is exercised by some row.
 */
import { describe, expect, it } from "vitest";
import { classifyChanges, type Change } from "../spec-diff/classify.js";
import { readFileSync } from "node:fs";
import { RULES, ruleTableMarkdown, type Level } from "../spec-diff/rules.js";

type Doc = Record<string, any>;
const fired = new Set<string>();

const doc = (paths: Doc, extra: Doc = {}): Doc => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1.0.0" },
  paths,
  ...extra,
});
const ok = { "200": { description: "ok" } };
/** GET /items with `op` merged in. */
const get = (op: Doc = {}, extra: Doc = {}): Doc => doc({ "/items": { get: { responses: ok, ...op } } }, extra);
const body = (schema: unknown): Doc =>
  doc({
    "/items": { post: { requestBody: { required: true, content: { "application/json": { schema } } }, responses: ok } },
  });
const reply = (schema: unknown): Doc =>
  doc({
    "/items": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } },
  });
const prop = (schema: unknown, required = false): Doc => ({
  type: "object",
  properties: { p: schema },
  ...(required ? { required: ["p"] } : {}),
});
const param = (p: Doc): Doc => get({ parameters: [{ name: "q", in: "query", schema: { type: "string" }, ...p }] });
const header = (h: Doc | undefined): Doc =>
  get({
    responses: {
      "200": { description: "ok", ...(h ? { headers: { "X-Rate": { schema: { type: "integer" }, ...h } } } : {}) },
    },
  });

const RANK: Record<Level, number> = { info: 0, warning: 1, breaking: 2 };
/** The gate's level for a set of changes: the highest. */
const gateLevel = (changes: Change[]): Level =>
  changes.reduce<Level>((top, c) => (RANK[c.level] > RANK[top] ? c.level : top), "info");

function check(base: Doc, head: Doc, rule: string, level: Level, gate: Level = level): void {
  const changes = classifyChanges(base, head);
  const hit = changes.find((c) => c.rule === rule);
  expect(hit, `${rule} among ${changes.map((c) => c.rule).join(", ") || "no changes"}`).toBeDefined();
  expect(hit!.level, rule).toBe(level);
  expect(hit!.reason.length).toBeGreaterThan(10);
  expect(gateLevel(changes), `gate level; changes: ${changes.map((c) => `${c.rule}=${c.level}`).join(", ")}`).toBe(
    gate,
  );
  fired.add(rule);
}

/** [kind, base schema, revision schema, level as a request body, level as a response body]. */
const SCHEMA_ROWS: Array<[string, unknown, unknown, Level, Level]> = [
  ["type-narrowed", { type: ["string", "integer"] }, { type: "string" }, "breaking", "info"],
  ["type-widened", { type: "integer" }, { type: "number" }, "info", "breaking"],
  ["type-changed", { type: "string" }, { type: "boolean" }, "breaking", "breaking"],
  ["type-rewritten", { type: ["integer", "number"] }, { type: "number" }, "info", "info"],
  ["became-nullable", prop({ type: "string" }), prop({ type: ["string", "null"] }), "info", "breaking"],
  ["became-not-nullable", prop({ type: ["string", "null"] }), prop({ type: "string" }), "breaking", "info"],
  ["became-enum", prop({ type: "string" }), prop({ type: "string", enum: ["a", "b"] }), "breaking", "info"],
  ["enum-removed", prop({ type: "string", enum: ["a", "b"] }), prop({ type: "string" }), "info", "breaking"],
  [
    "enum-value-added",
    prop({ type: "string", enum: ["a"] }),
    prop({ type: "string", enum: ["a", "b"] }),
    "info",
    "breaking",
  ],
  [
    "enum-value-removed",
    prop({ type: "string", enum: ["a", "b"] }),
    prop({ type: "string", enum: ["a"] }),
    "breaking",
    "info",
  ],
  ["const-added", { type: "string" }, { type: "string", const: "a" }, "breaking", "info"],
  ["const-removed", { type: "string", const: "a" }, { type: "string" }, "info", "breaking"],
  ["const-changed", { type: "string", const: "a" }, { type: "string", const: "b" }, "breaking", "breaking"],
  [
    "extensible-enum-value-added",
    { type: "string", "x-extensible-enum": ["a"] },
    { type: "string", "x-extensible-enum": ["a", "b"] },
    "info",
    "info",
  ],
  [
    "extensible-enum-value-removed",
    { type: "string", "x-extensible-enum": ["a", "b"] },
    { type: "string", "x-extensible-enum": ["a"] },
    "warning",
    "info",
  ],
  ["minimum-increased", { type: "integer", minimum: 1 }, { type: "integer", minimum: 5 }, "breaking", "info"],
  ["minimum-decreased", { type: "integer", exclusiveMinimum: 5 }, { type: "integer", minimum: 5 }, "info", "breaking"],
  ["maximum-decreased", { type: "number" }, { type: "number", maximum: 10 }, "breaking", "info"],
  ["maximum-increased", { type: "number", exclusiveMaximum: 10 }, { type: "number", maximum: 10 }, "info", "breaking"],
  ["min-length-increased", { type: "string" }, { type: "string", minLength: 2 }, "breaking", "info"],
  ["min-length-decreased", { type: "string", minLength: 2 }, { type: "string", minLength: 1 }, "info", "breaking"],
  ["max-length-decreased", { type: "string", maxLength: 9 }, { type: "string", maxLength: 5 }, "breaking", "info"],
  ["max-length-increased", { type: "string", maxLength: 5 }, { type: "string" }, "info", "breaking"],
  ["min-items-increased", { type: "array", minItems: 1 }, { type: "array", minItems: 2 }, "breaking", "info"],
  ["min-items-decreased", { type: "array", minItems: 1 }, { type: "array" }, "info", "breaking"],
  ["max-items-decreased", { type: "array", maxItems: 5 }, { type: "array", maxItems: 4 }, "breaking", "info"],
  ["max-items-increased", { type: "array", maxItems: 5 }, { type: "array", maxItems: 6 }, "info", "breaking"],
  ["min-properties-increased", { type: "object" }, { type: "object", minProperties: 1 }, "breaking", "info"],
  [
    "min-properties-decreased",
    { type: "object", minProperties: 2 },
    { type: "object", minProperties: 1 },
    "info",
    "breaking",
  ],
  [
    "max-properties-decreased",
    { type: "object", maxProperties: 3 },
    { type: "object", maxProperties: 2 },
    "breaking",
    "info",
  ],
  ["max-properties-increased", { type: "object", maxProperties: 3 }, { type: "object" }, "info", "breaking"],
  ["multiple-of-narrowed", { type: "integer", multipleOf: 2 }, { type: "integer", multipleOf: 4 }, "breaking", "info"],
  ["multiple-of-widened", { type: "integer", multipleOf: 4 }, { type: "integer", multipleOf: 2 }, "info", "breaking"],
  [
    "multiple-of-changed",
    { type: "integer", multipleOf: 2 },
    { type: "integer", multipleOf: 3 },
    "breaking",
    "breaking",
  ],
  ["unique-items-added", { type: "array" }, { type: "array", uniqueItems: true }, "breaking", "info"],
  ["unique-items-removed", { type: "array", uniqueItems: true }, { type: "array" }, "info", "breaking"],
  ["pattern-added", { type: "string" }, { type: "string", pattern: "^[a-z]+$" }, "breaking", "info"],
  ["pattern-removed", { type: "string", pattern: "^[a-z]+$" }, { type: "string", pattern: ".*" }, "info", "breaking"],
  [
    "pattern-changed",
    { type: "string", pattern: "^[a-z]+$" },
    { type: "string", pattern: "^[0-9]+$" },
    "warning",
    "warning",
  ],
  ["format-added", { type: "string" }, { type: "string", format: "uuid" }, "warning", "info"],
  ["format-removed", { type: "string", format: "uuid" }, { type: "string" }, "info", "warning"],
  ["format-changed", { type: "string", format: "uuid" }, { type: "string", format: "email" }, "warning", "warning"],
  ["property-added-required", { type: "object" }, prop({ type: "string" }, true), "breaking", "info"],
  ["property-added-optional", { type: "object" }, prop({ type: "string" }), "info", "info"],
  ["property-became-required", prop({ type: "string" }), prop({ type: "string" }, true), "breaking", "info"],
  ["property-became-optional", prop({ type: "string" }, true), prop({ type: "string" }), "info", "breaking"],
  [
    "additional-properties-narrowed",
    { type: "object" },
    { type: "object", additionalProperties: false },
    "breaking",
    "info",
  ],
  [
    "additional-properties-widened",
    { type: "object", additionalProperties: { type: "string" } },
    { type: "object" },
    "info",
    "breaking",
  ],
  [
    "alternative-added",
    { oneOf: [{ type: "string" }, { type: "integer" }] },
    { oneOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] },
    "info",
    "breaking",
  ],
  [
    "alternative-removed",
    { anyOf: [{ type: "string" }, { type: "integer" }] },
    { anyOf: [{ type: "string" }] },
    "breaking",
    "info",
  ],
  [
    "all-of-added",
    { allOf: [{ $ref: "#/components/schemas/A" }] },
    { allOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/C" }] },
    "breaking",
    "info",
  ],
  [
    "all-of-removed",
    { allOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/C" }] },
    { allOf: [{ $ref: "#/components/schemas/A" }] },
    "warning",
    "breaking",
  ],
  ["subschema-added", { type: "array" }, { type: "array", items: { type: "string" } }, "breaking", "info"],
  ["subschema-removed", { type: "object", not: { required: ["a"] } }, { type: "object" }, "info", "breaking"],
  [
    "default-changed",
    prop({ type: "string", default: "a" }),
    prop({ type: "string", default: "b" }),
    "warning",
    "info",
  ],
  ["access-changed", prop({ type: "string" }), prop({ type: "string", writeOnly: true }), "info", "info"],
  ["property-deprecated", prop({ type: "string" }), prop({ type: "string", deprecated: true }), "info", "info"],
  [
    "discriminator-changed",
    { type: "object", discriminator: { propertyName: "kind" } },
    { type: "object", discriminator: { propertyName: "type" } },
    "info",
    "info",
  ],
  ["keyword-without-effect", { type: "string", maximum: 5 }, { type: "string", maximum: 3 }, "info", "info"],
  ["schema-changed", { type: "string" }, { type: "string", contentEncoding: "base64" }, "warning", "warning"],
];
const COMPONENTS = {
  components: {
    schemas: {
      A: prop({ type: "string" }),
      B: { type: "object", properties: { q: { type: "integer" } } },
      C: { type: "object", minProperties: 1 },
    },
  },
};
const withComponents = (d: Doc): Doc => ({ ...d, ...COMPONENTS });

describe("schema rules, on both sides", () => {
  it.each(SCHEMA_ROWS)("%s", (kind, before, after, requestLevel, responseLevel) => {
    check(withComponents(body(before)), withComponents(body(after)), `request-${kind}`, requestLevel);
    check(withComponents(reply(before)), withComponents(reply(after)), `response-${kind}`, responseLevel);
  });

  it(
    "a property removed: a warning in a request, breaking in a response when it was required, a warning when " +
      "optional",
    () => {
      check(body(prop({ type: "string" }, true)), body({ type: "object" }), "request-property-removed", "warning");
      check(
        reply(prop({ type: "string" }, true)),
        reply({ type: "object" }),
        "response-required-property-removed",
        "breaking",
      );
      check(
        reply(prop({ type: "string" })),
        reply({ type: "object" }),
        "response-optional-property-removed",
        "warning",
      );
    },
  );

  it("OpenAPI 3.0 nullable is read in its own direction on each side", () => {
    const v30 = (d: Doc): Doc => ({ ...d, openapi: "3.0.3" });
    const nullable = prop({ type: "string", nullable: true });
    const plain = prop({ type: "string" });
    check(v30(body(plain)), v30(body(nullable)), "request-became-nullable", "info");
    check(v30(body(nullable)), v30(body(plain)), "request-became-not-nullable", "breaking");
    check(v30(reply(plain)), v30(reply(nullable)), "response-became-nullable", "breaking");
    check(v30(reply(nullable)), v30(reply(plain)), "response-became-not-nullable", "info");
  });

  it("sets are compared as sets: reordered types, enum values and required names are no change", () => {
    const a = {
      type: "object",
      required: ["x", "y"],
      properties: { x: { type: ["string", "integer"] }, y: { enum: ["a", "b"] } },
    };
    const b = {
      type: "object",
      required: ["y", "x"],
      properties: { x: { type: ["integer", "string"] }, y: { enum: ["b", "a"] } },
    };
    expect(classifyChanges(body(a), body(b))).toEqual([]);
    expect(classifyChanges(reply(a), reply(b))).toEqual([]);
  });

  it(
    "a request property that became an enum is breaking; a readOnly one is not sent, so it is not judged as a " +
      "request",
    () => {
      check(
        body(prop({ type: "string" })),
        body(prop({ type: "string", enum: ["a"] })),
        "request-became-enum",
        "breaking",
      );
      const changes = classifyChanges(
        body(prop({ type: "string", readOnly: true })),
        body(prop({ type: "string", readOnly: true, enum: ["a"] })),
      );
      expect(changes).toEqual([]);
    },
  );
});

describe("operations, parameters, bodies, responses, security", () => {
  const itemOps = (ops: Doc): Doc => doc({ "/items": ops });
  const ROWS: Array<[string, Doc, Doc, string, Level, Level?]> = [
    [
      "an operation added",
      get(),
      itemOps({ get: { responses: ok }, post: { responses: ok } }),
      "operation-added",
      "info",
    ],
    [
      "an operation removed",
      itemOps({ get: { responses: ok }, post: { responses: ok } }),
      get(),
      "operation-removed",
      "breaking",
    ],
    [
      "a deprecated operation removed",
      itemOps({ get: { responses: ok }, post: { deprecated: true, responses: ok } }),
      get(),
      "deprecated-operation-removed",
      "breaking",
    ],
    ["an operation deprecated", get(), get({ deprecated: true }), "operation-deprecated", "info"],
    ["an operation no longer deprecated", get({ deprecated: true }), get(), "operation-reactivated", "info"],
    ["an operationId changed", get({ operationId: "a" }), get({ operationId: "b" }), "operation-id-changed", "warning"],
    [
      "servers changed",
      get({}, { servers: [{ url: "https://a" }] }),
      get({}, { servers: [{ url: "https://b" }] }),
      "servers-changed",
      "warning",
    ],
    [
      "a server's description changed",
      get({}, { servers: [{ url: "https://a", description: "x" }] }),
      get({}, { servers: [{ url: "https://a", description: "y" }] }),
      "annotation-changed",
      "info",
    ],
    ["an operationId given where there was none", get(), get({ operationId: "list" }), "annotation-changed", "info"],
    [
      "a callback changed",
      get({ callbacks: { c: { "{$request.body#/u}": { post: { responses: ok } } } } }),
      get({ callbacks: { c: { "{$request.body#/u}": { put: { responses: ok } } } } }),
      "webhook-changed",
      "warning",
    ],
    [
      "a webhook removed",
      get({}, { webhooks: { w: { post: { responses: ok } } } }),
      get(),
      "operation-removed",
      "breaking",
    ],
    [
      "a webhook changed",
      get({}, { webhooks: { w: { post: { responses: ok } } } }),
      get({}, { webhooks: { w: { post: { responses: { "204": { description: "" } } } } } }),
      "webhook-changed",
      "warning",
    ],
    ["the OpenAPI version changed", get(), { ...get(), openapi: "3.1.1" }, "openapi-version-changed", "info"],
    ["a required parameter added", get(), param({ required: true }), "request-parameter-added-required", "breaking"],
    ["an optional parameter added", get(), param({}), "request-parameter-added-optional", "info"],
    ["a parameter removed", param({ required: true }), get(), "request-parameter-removed", "warning"],
    [
      "a parameter became required",
      param({}),
      param({ required: true }),
      "request-parameter-became-required",
      "breaking",
    ],
    ["a parameter became optional", param({ required: true }), param({}), "request-parameter-became-optional", "info"],
    [
      "a parameter's style changed",
      param({}),
      param({ style: "spaceDelimited" }),
      "request-parameter-serialization-changed",
      "breaking",
    ],
    [
      "an optional parameter's default changed",
      param({ schema: { type: "string", default: "a" } }),
      param({ schema: { type: "string", default: "b" } }),
      "request-parameter-default-changed",
      "breaking",
    ],
    [
      "a required parameter's default changed",
      param({ required: true, schema: { type: "string", default: "a" } }),
      param({ required: true, schema: { type: "string", default: "b" } }),
      "request-required-parameter-default-changed",
      "info",
    ],
    ["a parameter deprecated", param({}), param({ deprecated: true }), "request-parameter-deprecated", "info"],
    [
      "a parameter no longer deprecated",
      param({ deprecated: true }),
      param({}),
      "request-parameter-reactivated",
      "info",
    ],
    [
      "a parameter refuses empty values",
      param({ allowEmptyValue: true }),
      param({}),
      "request-parameter-empty-value-refused",
      "breaking",
    ],
    [
      "a parameter allows empty values",
      param({}),
      param({ allowEmptyValue: true }),
      "request-parameter-empty-value-allowed",
      "info",
    ],
    [
      "a required body added",
      get(),
      get({ requestBody: { required: true, content: { "application/json": {} } } }),
      "request-body-added-required",
      "breaking",
    ],
    [
      "an optional body added",
      get(),
      get({ requestBody: { content: { "application/json": {} } } }),
      "request-body-added-optional",
      "info",
    ],
    [
      "a body removed",
      get({ requestBody: { content: { "application/json": {} } } }),
      get(),
      "request-body-removed",
      "breaking",
    ],
    [
      "a body became required",
      get({ requestBody: { content: { "application/json": {} } } }),
      get({ requestBody: { required: true, content: { "application/json": {} } } }),
      "request-body-became-required",
      "breaking",
    ],
    [
      "a body became optional",
      get({ requestBody: { required: true, content: { "application/json": {} } } }),
      get({ requestBody: { content: { "application/json": {} } } }),
      "request-body-became-optional",
      "info",
    ],
    [
      "a request media type added",
      get({ requestBody: { content: { "application/json": {} } } }),
      get({ requestBody: { content: { "application/json": {}, "text/plain": {} } } }),
      "request-media-type-added",
      "info",
    ],
    [
      "a request media type removed",
      get({ requestBody: { content: { "application/json": {}, "text/plain": {} } } }),
      get({ requestBody: { content: { "application/json": {} } } }),
      "request-media-type-removed",
      "breaking",
    ],
    [
      "a success status removed",
      get({ responses: { "200": { description: "" }, "201": { description: "" } } }),
      get(),
      "response-success-status-removed",
      "breaking",
    ],
    [
      "an error status removed",
      get({ responses: { ...ok, "400": { description: "bad" } } }),
      get(),
      "response-status-removed",
      "info",
    ],
    [
      "a status added",
      get(),
      get({ responses: { ...ok, "404": { description: "" } } }),
      "response-status-added",
      "info",
    ],
    [
      "a response media type added",
      reply({ type: "string" }),
      get({
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "string" } }, "text/csv": {} } },
        },
      }),
      "response-media-type-added",
      "info",
    ],
    ["a response media type removed", reply({ type: "string" }), get(), "response-media-type-removed", "breaking"],
    ["a response header added", header(undefined), header({ required: true }), "response-header-added", "info"],
    [
      "a required response header removed",
      header({ required: true }),
      header(undefined),
      "response-required-header-removed",
      "breaking",
    ],
    [
      "an optional response header removed",
      header({}),
      header(undefined),
      "response-optional-header-removed",
      "warning",
    ],
    [
      "a response header became optional",
      header({ required: true }),
      header({}),
      "response-header-became-optional",
      "breaking",
    ],
    [
      "a response header became required",
      header({}),
      header({ required: true }),
      "response-header-became-required",
      "info",
    ],
    ["a response header deprecated", header({}), header({ deprecated: true }), "response-header-deprecated", "info"],
    ["a description changed", get({ description: "a" }), get({ description: "b" }), "annotation-changed", "info"],
    ["the title changed", get(), { ...get(), info: { title: "u", version: "1.0.0" } }, "info-changed", "info"],
  ];
  it.each(ROWS)("%s", (_name, base, head, rule, level, gate) => check(base, head, rule, level, gate));

  const scheme = {
    components: {
      securitySchemes: {
        oauth: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "https://t", scopes: { read: "", write: "" } } },
        },
      },
    },
  };
  const secured = (security: unknown, global?: unknown): Doc =>
    get(security === undefined ? {} : { security }, {
      ...scheme,
      ...(global === undefined ? {} : { security: global }),
    });
  it.each([
    [
      "security added to an open operation",
      secured(undefined),
      secured([{ oauth: ["read"] }]),
      "security-narrowed",
      "breaking",
    ],
    [
      "global security added over open operations",
      secured(undefined),
      secured(undefined, [{ oauth: [] }]),
      "security-narrowed",
      "breaking",
    ],
    [
      "a scope added to a requirement",
      secured([{ oauth: ["read"] }]),
      secured([{ oauth: ["read", "write"] }]),
      "security-narrowed",
      "breaking",
    ],
    ["an operation's security removed", secured([{ oauth: ["read"] }]), secured(undefined), "security-widened", "info"],
    [
      "a scope removed from a requirement",
      secured([{ oauth: ["read", "write"] }]),
      secured([{ oauth: ["read"] }]),
      "security-widened",
      "info",
    ],
    [
      "an alternative requirement added",
      secured([{ oauth: ["read"] }]),
      secured([{ oauth: ["read"] }, {}]),
      "security-widened",
      "info",
    ],
    [
      "a used scheme redefined",
      secured([{ oauth: [] }]),
      { ...secured([{ oauth: [] }]), components: { securitySchemes: { oauth: { type: "http", scheme: "bearer" } } } },
      "security-scheme-changed",
      "warning",
    ],
  ] as Array<[string, Doc, Doc, string, Level]>)("%s", (_name, base, head, rule, level) =>
    check(base, head, rule, level),
  );

  it("security alternatives in another order are no change", () => {
    expect(
      classifyChanges(secured([{ oauth: ["read", "write"] }, {}]), secured([{}, { oauth: ["write", "read"] }])),
    ).toEqual([]);
  });
});

describe("the specification's merging, and the cases issue 16 lists", () => {
  const withPathParam = (opParam: Doc | undefined): Doc =>
    doc({
      "/items/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: { ...(opParam ? { parameters: [opParam] } : {}), responses: ok },
      },
    });
  const idParam = { name: "id", in: "path", required: true, schema: { type: "string" } };

  it("a path parameter declared at path level and repeated at operation level: no change against itself", () => {
    expect(classifyChanges(withPathParam(idParam), withPathParam(idParam))).toEqual([]);
  });

  it("moving a parameter from the path item to the operation is no change; an operation override is compared", () => {
    expect(classifyChanges(withPathParam(undefined), withPathParam(idParam))).toEqual([]);
    check(
      withPathParam(undefined),
      withPathParam({ ...idParam, schema: { type: "integer" } }),
      "request-type-narrowed",
      "breaking",
    );
  });

  it("a renamed path parameter is the same path", () => {
    const renamed = doc({ "/items/{key}": { get: { parameters: [{ ...idParam, name: "key" }], responses: ok } } });
    expect(
      classifyChanges(doc({ "/items/{id}": { get: { parameters: [idParam], responses: ok } } }), renamed).filter(
        (c) => c.cls !== "annotation",
      ),
    ).toEqual([]);
  });

  it("a request parameter type set [integer, string] → [number, string] is not breaking", () => {
    const changes = classifyChanges(
      param({ schema: { type: ["integer", "string"] } }),
      param({ schema: { type: ["number", "string"] } }),
    );
    expect(changes.map((c) => c.level)).not.toContain("breaking");
  });

  it(
    "a response header string → integer is narrowed on the wire " +
      "(info); a date-time → integer is changed (breaking)",
    () => {
      check(
        header({ schema: { type: "string" } }),
        header({ schema: { type: "integer" } }),
        "response-type-narrowed",
        "info",
      );
      check(
        header({ schema: { type: "string", format: "date-time" } }),
        header({ schema: { type: "integer" } }),
        "response-type-changed",
        "breaking",
      );
    },
  );

  it(
    "what the specification ignores is no change: a writeOnly property in a response, an Authorization header " +
      "parameter, 2xx against 2XX",
    () => {
      expect(classifyChanges(reply(prop({ type: "string", writeOnly: true })), reply({ type: "object" }))).toEqual([]);
      expect(classifyChanges(get(), param({ name: "Authorization", in: "header", required: true }))).toEqual([]);
      expect(
        classifyChanges(
          get({ responses: { "2xx": { description: "ok" } } }),
          get({ responses: { "2XX": { description: "ok" } } }),
        ),
      ).toEqual([]);
    },
  );

  it(
    "a media type with parameters added is the same media type " + "(RFC 9110 essence); its schema is still compared",
    () => {
      const typed = (media: string, t: string): Doc =>
        get({ responses: { "200": { description: "ok", content: { [media]: { schema: { type: t } } } } } });
      expect(
        classifyChanges(typed("application/json", "string"), typed("application/json; charset=utf-8", "string")),
      ).toEqual([]);
      check(
        typed("application/json", "string"),
        typed("Application/JSON; charset=utf-8", "integer"),
        "response-type-changed",
        "breaking",
      );
    },
  );

  it("form fields are text: integer → string in a urlencoded body is a widening", () => {
    const form = (t: string): Doc =>
      doc({
        "/items": {
          post: {
            requestBody: { content: { "application/x-www-form-urlencoded": { schema: prop({ type: t }) } } },
            responses: ok,
          },
        },
      });
    check(form("integer"), form("string"), "request-type-widened", "info");
    check(body(prop({ type: "integer" })), body(prop({ type: "string" })), "request-type-changed", "breaking");
  });

  it(
    "properties moved into a shared allOf member are no change; a member that adds a required property is judged " +
      "by it",
    () => {
      const base = (extra: Doc = {}): Doc => ({
        components: {
          schemas: { Base: { type: "object", required: ["id"], properties: { id: { type: "string" }, ...extra } } },
        },
      });
      const flat = {
        type: "object",
        required: ["id"],
        properties: { id: { type: "string" }, name: { type: "string" } },
      };
      const composed = {
        allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: { name: { type: "string" } } }],
      };
      for (const side of [body, reply]) {
        expect(classifyChanges({ ...side(flat), ...base() }, { ...side(composed), ...base() })).toEqual([]);
        expect(classifyChanges({ ...side(composed), ...base() }, { ...side(flat), ...base() })).toEqual([]);
      }
      const narrower = { allOf: [...composed.allOf, { properties: { id: { type: "string", maxLength: 5 } } }] };
      check({ ...body(composed), ...base() }, { ...body(narrower), ...base() }, "request-all-of-added", "breaking");
      const stricter = { allOf: [...composed.allOf, { required: ["name"] }] };
      check(
        { ...body(composed), ...base() },
        { ...body(stricter), ...base() },
        "request-property-became-required",
        "breaking",
      );
      check(
        { ...reply(stricter), ...base() },
        { ...reply(composed), ...base() },
        "response-property-became-optional",
        "breaking",
      );
    },
  );

  it("a component no operation uses is not a change to the API", () => {
    const used = (extra: Doc) => get({}, { components: { schemas: { Unused: extra } } });
    expect(classifyChanges(used({ type: "string" }), used({ type: "integer", enum: [1] }))).toEqual([]);
  });

  it("a change to a shared component is one change listing every operation it reaches", () => {
    const shared = (t: string) =>
      doc(
        {
          "/a": {
            post: {
              requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/S" } } } },
              responses: ok,
            },
          },
          "/b": {
            put: {
              requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/S" } } } },
              responses: ok,
            },
          },
        },
        { components: { schemas: { S: prop({ type: t }) } } },
      );
    const changes = classifyChanges(shared("number"), shared("integer"));
    expect(changes).toHaveLength(1);
    expect(changes[0]!).toMatchObject({
      rule: "request-type-narrowed",
      pointer: "/components/schemas/S/properties/p/type",
      operation: "POST /a; PUT /b",
    });
  });

  it("a recursive schema is compared without looping", () => {
    const tree = () => reply({ $ref: "#/components/schemas/Node" });
    const node = (t: string) => ({
      components: {
        schemas: {
          Node: {
            type: "object",
            properties: {
              name: { type: t },
              children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
            },
          },
        },
      },
    });
    check({ ...tree(), ...node("string") }, { ...tree(), ...node("integer") }, "response-type-changed", "breaking");
  });

  it("Swagger 2.0 and OpenAPI 3.0 documents are read with 3.1 semantics: a body parameter, a nullable $ref", () => {
    const swagger = (t: string): Doc => ({
      swagger: "2.0",
      info: { title: "t", version: "1" },
      paths: {
        "/items": {
          post: {
            consumes: ["application/json"],
            parameters: [{ name: "b", in: "body", required: true, schema: prop({ type: t }) }],
            responses: ok,
          },
        },
      },
    });
    check(swagger("number"), swagger("integer"), "request-type-narrowed", "breaking");
    const ref = (nullable: boolean): Doc => ({
      ...reply(prop({ $ref: "#/components/schemas/A", ...(nullable ? { nullable: true } : {}) })),
      openapi: "3.0.3",
      ...COMPONENTS,
    });
    check(ref(false), ref(true), "response-became-nullable", "breaking");
    check(ref(true), ref(false), "response-became-not-nullable", "info");
  });

  it("keywords beside a $ref (OpenAPI 3.1) are compared where they are written", () => {
    const beside = (extra: Doc): Doc => withComponents(body(prop({ $ref: "#/components/schemas/B", ...extra })));
    check(beside({}), beside({ maxProperties: 1 }), "request-max-properties-decreased", "breaking");
    check(beside({ description: "a" }), beside({ description: "b" }), "annotation-changed", "info");
  });

  it("boolean schemas: false allows nothing, true everything", () => {
    check(reply(prop(false)), reply(prop(true)), "response-subschema-removed", "breaking");
    check(body(prop(true)), body(prop(false)), "request-subschema-added", "breaking");
  });

  it("malformed parts of a document are compared as far as they go, without a crash", () => {
    const odd: Doc[] = [
      get({ parameters: "x", responses: [] }),
      get({ parameters: [null, 3, { in: "query" }], requestBody: "x", responses: { "200": null } }),
      reply({
        type: 7,
        properties: [],
        required: "x",
        enum: "y",
        items: [1],
        oneOf: {},
        allOf: [null],
        minimum: "5",
        multipleOf: 0,
      }),
      get({ security: [null, { s: "x" }] }),
    ];
    for (const d of odd) {
      expect(() => classifyChanges(get(), d)).not.toThrow();
      expect(() => classifyChanges(d, get())).not.toThrow();
    }
  });

  it("a schema nested beyond reason is refused with a message naming the place, not a stack overflow", () => {
    let deep: Doc = { type: "string" };
    for (let i = 0; i < 260; i++) deep = { type: "object", properties: { p: deep } };
    expect(() => classifyChanges(body(deep), body({ ...deep, description: "x" }))).toThrow(
      /request body \(application\/json\): the schema at .* is nested more than 200 levels/,
    );
  });

  it("a document that is not OpenAPI is refused with a message naming the side", () => {
    expect(() => classifyChanges(get(), { openapi: "9.9" } as Doc)).toThrow(/the revision.*"openapi" must be/);
    const dangling = reply({ $ref: "#/components/schemas/Gone" });
    expect(() =>
      classifyChanges(get(), dangling, {
        base: "main:openapi/openapi.yaml",
        head: "openapi/openapi.yaml (working tree)",
      }),
    ).toThrow(
      /^openapi\/openapi\.yaml \(working tree\): the \$ref "#\/components\/schemas\/Gone" at .* does not resolve/,
    );
  });
});

describe("the rule table", () => {
  it("every rule has a reason and is exercised by a row above", () => {
    for (const r of RULES.values()) expect(r.reason.length, r.id).toBeGreaterThan(10);
    const missing = [...RULES.keys()].filter((id) => !fired.has(id));
    expect(missing).toEqual([]);
  });

  it("docs/spec-diff.md shows the table as the code has it", () => {
    const docs = readFileSync(new URL("../../docs/spec-diff.md", import.meta.url), "utf8");
    expect(
      docs.includes(ruleTableMarkdown()),
      `docs/spec-diff.md must contain ruleTableMarkdown() verbatim:\n${ruleTableMarkdown()}`,
    ).toBe(true);
  });
});
