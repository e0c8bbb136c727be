/**
 * Documents other than the project's: an OpenAPI 3.0 document (read with 3.0 semantics: `nullable`, boolean
 * exclusive bounds), bodies that are forms rather than JSON, a bearer scheme, a required cookie parameter,
 * a parameter described by `content`, an `Authorization` header parameter OpenAPI says to ignore, and a schema
 * shared by a request and its response with a `readOnly` id and a `writeOnly` password, run by the whole engine
 * against a small node:http API that keeps the document's promises, and against variants that break one each.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { buildOperationTable, type OperationEntry } from "../../openapi/lib/operations.js";
import { loadSpec, SpecValidator } from "../../openapi/lib/spec.js";
import { documentView } from "../../openapi/lib/views.js";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { encodeBody } from "../engine/requests.js";
import { linkOrder } from "../model/links.js";
import { readSettings } from "../config/settings.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const TOKEN = "documents-test-token-5d1f";

/** An OpenAPI 3.0 document: a form-encoded POST, a 3.0 exclusive bound on a path id, a nullable member. */
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Forms and nulls", version: "1.0.0" },
  security: [{ token: [] }],
  paths: {
    "/forms": {
      post: {
        operationId: "submitForm",
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { type: "string", minLength: 1, maxLength: 20 },
                  age: { type: "integer", minimum: 0, maximum: 150 },
                },
              },
            },
          },
        },
        responses: { "204": { description: "Accepted." }, "400": { description: "Invalid form." } },
      },
    },
    "/ping": {
      get: {
        operationId: "ping",
        security: [],
        responses: {
          "200": {
            description: "Alive.",
            headers: { "X-Uptime": { required: true, schema: { type: "integer", minimum: 0 } } },
            content: { "text/plain": { schema: { type: "string", const: "pong" }, example: "pong" } },
          },
        },
      },
    },
    "/status": {
      get: {
        operationId: "status",
        security: [{}, { token: [] }],
        responses: {
          "200": {
            description: "Status, more of it with a token.",
            content: {
              "application/json": {
                schema: { type: "object", required: ["up"], properties: { up: { type: "boolean" } } },
              },
            },
          },
        },
      },
    },
    "/items/{id}/notes": {
      get: {
        operationId: "getItemNotes",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }],
        responses: {
          "200": {
            description: "The item's notes.",
            content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
          },
          "404": { description: "No such item." },
        },
      },
    },
    "/search": {
      get: {
        operationId: "search",
        parameters: [
          // Boundaries that would break another keyword (a 3-letter string is no email, 7 no multiple of 5) are not
          // sent.
          { name: "email", in: "query", schema: { type: "string", format: "email", minLength: 3, maxLength: 40 } },
          { name: "step", in: "query", schema: { type: "integer", minimum: 0, maximum: 7, multipleOf: 5 } },
        ],
        responses: {
          "200": { description: "Found.", content: { "application/json": { schema: { type: "object" } } } },
          "400": { description: "Invalid query." },
        },
      },
    },
    "/upload": {
      post: {
        operationId: "upload",
        requestBody: {
          required: true,
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        },
        responses: { "204": { description: "Stored." } },
      },
    },
    "/accounts": {
      post: {
        operationId: "createAccount",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Account" } } },
        },
        responses: {
          "201": {
            description: "Created.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Account" } } },
          },
          "400": { description: "Invalid account (an id sent, a member missing)." },
        },
      },
    },
    "/items/{id}": {
      get: {
        operationId: "getItem",
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            schema: { type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 1000 },
          },
          { name: "session", in: "cookie", required: true, schema: { type: "string", minLength: 3, maxLength: 10 } },
          // Ignored, as OpenAPI says: the credential's own header is never overwritten by a parameter.
          { name: "Authorization", in: "header", required: true, schema: { type: "string", enum: ["never-sent"] } },
          {
            name: "filter",
            in: "query",
            content: { "application/json": { schema: { type: "object", properties: { tag: { type: "string" } } } } },
          },
        ],
        responses: {
          "200": {
            description: "The item.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["id", "note"],
                  properties: { id: { type: "integer" }, note: { type: "string", nullable: true } },
                },
              },
            },
            // A link fed by the request's own path parameter.
            links: { notes: { operationId: "getItemNotes", parameters: { id: "$request.path.id" } } },
          },
          "400": { description: "Invalid id." },
        },
      },
    },
  },
  components: {
    securitySchemes: { token: { type: "http", scheme: "bearer" } },
    schemas: {
      // One schema for both sides: the server assigns the id (readOnly), the password is never returned (writeOnly).
      Account: {
        type: "object",
        required: ["id", "name", "password"],
        properties: {
          id: { $ref: "#/components/schemas/AccountId" },
          name: { type: "string", minLength: 1, maxLength: 20 },
          password: { type: "string", minLength: 8, maxLength: 20, writeOnly: true },
        },
      },
      AccountId: { type: "integer", minimum: 1, readOnly: true },
    },
  },
};

type Variant = "conforming" | "form-as-json-only" | "note-not-null" | "accepts-age-text" | "accepts-any-session";

/** The API, per variant prefix (`/<variant>/...`); it takes only `Authorization: Bearer <TOKEN>`. */
function handler(
  req: { url?: string; method?: string; headers: Record<string, string | string[] | undefined>; body: string },
  res: Parameters<typeof sendJson>[0],
): unknown {
  const [, variant = "", ...rest] = (req.url ?? "").split("?")[0]!.split("/");
  const path = `/${rest.join("/")}`;
  const v = variant as Variant;
  // A public operation never needs the credential: this API refuses to see it there (the suite must not send it).
  if (path === "/ping") {
    if (req.headers.authorization !== undefined)
      return sendJson(res, 400, { message: "no credential on a public endpoint" });
    res.writeHead(200, { "content-type": "text/plain", "x-uptime": "42" }).end("pong");
    return;
  }
  if (
    path === "/status" &&
    (req.headers.authorization === undefined || req.headers.authorization === `Bearer ${TOKEN}`)
  )
    return sendJson(res, 200, { up: true });
  if (req.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(res, 401, { message: "token required" });
  if (req.method === "POST" && path === "/forms") {
    const type = String(req.headers["content-type"] ?? "");
    if (v === "form-as-json-only" || !type.startsWith("application/x-www-form-urlencoded"))
      return sendJson(res, 415, {});
    const form = new URLSearchParams(req.body);
    const name = form.get("name");
    const age = form.get("age");
    const ageOk = age === null || (/^\d+$/.test(age) && Number(age) <= 150) || (v === "accepts-age-text" && age !== "");
    if (name === null || name.length < 1 || name.length > 20 || !ageOk)
      return sendJson(res, 400, { message: "invalid form" });
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && path === "/search") {
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    const email = q.get("email");
    const step = q.get("step");
    const emailOk =
      email === null || (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) && email.length >= 3 && email.length <= 40);
    const stepOk = step === null || (/^\d+$/.test(step) && Number(step) % 5 === 0 && Number(step) <= 7);
    return emailOk && stepOk ? sendJson(res, 200, {}) : sendJson(res, 400, { message: "invalid query" });
  }
  if (req.method === "POST" && path === "/accounts") {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { message: "malformed JSON" });
    }
    const ok =
      body !== null &&
      typeof body === "object" &&
      !("id" in body) &&
      typeof body.name === "string" &&
      body.name.length >= 1 &&
      body.name.length <= 20 &&
      typeof body.password === "string" &&
      body.password.length >= 8 &&
      body.password.length <= 20;
    if (!ok || !String(req.headers["content-type"]).startsWith("application/json"))
      return sendJson(res, 400, { message: "invalid account: no id, a name and a password" });
    return sendJson(res, 201, { id: 7, name: body.name });
  }
  const notes = /^\/items\/([^/]+)\/notes$/.exec(path);
  if (req.method === "GET" && notes) return notes[1] === "7" ? sendJson(res, 200, ["first"]) : sendJson(res, 404, {});
  const item = /^\/items\/([^/]+)$/.exec(path);
  if (req.method === "GET" && item) {
    const session = /(?:^|;\s*)session=([^;]*)/.exec(String(req.headers.cookie ?? ""))?.[1];
    const sessionOk =
      session !== undefined && ((session.length >= 3 && session.length <= 10) || v === "accepts-any-session");
    if (!sessionOk) return sendJson(res, 400, { message: "session cookie required" });
    const filter = new URL(req.url ?? "/", "http://x").searchParams.get("filter");
    const filterOk =
      filter === null ||
      (() => {
        try {
          const f: unknown = JSON.parse(filter);
          return (
            f !== null &&
            typeof f === "object" &&
            !Array.isArray(f) &&
            (typeof (f as { tag?: unknown }).tag === "string" || !("tag" in f))
          );
        } catch {
          return false;
        }
      })();
    if (!filterOk) return sendJson(res, 400, { message: "filter must be a JSON object" });
    const id = Number(item[1]);
    if (!/^\d+$/.test(item[1]!) || id <= 0 || id > 1000) return sendJson(res, 400, { message: "invalid id" });
    return sendJson(res, 200, { id, note: v === "note-not-null" ? 5 : null });
  }
  sendJson(res, 404, {});
}

let server: TestServer;
let docPath: string;
const runs = new Map<Variant, ScenarioResult[]>();
const errorsOf = (results: ScenarioResult[]) =>
  [...new Set(results.flatMap((r) => r.findings.filter((f) => f.severity === "error").map((f) => f.check)))].sort();

beforeAll(async () => {
  server = await startServer((req, res) => handler(req, res));
  docPath = join(tempDir("contract-doc-"), "openapi.yaml");
  writeFileSync(docPath, stringify(DOCUMENT));
  for (const v of [
    "conforming",
    "form-as-json-only",
    "note-not-null",
    "accepts-age-text",
    "accepts-any-session",
  ] as Variant[]) {
    const { results } = await runContract(
      readSettings({
        CONTRACT_SPEC: docPath,
        CONTRACT_BASE_URL: `${server.url}/${v}`,
        CONTRACT_API_KEY: TOKEN,
        CONTRACT_PARAMS: JSON.stringify({ "getItem.id": 7 }),
      }),
    );
    runs.set(v, results);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  cleanUp();
});

describe("an OpenAPI 3.0 document", () => {
  it("is read with 3.0 semantics: nullable admits null, a boolean exclusiveMinimum excludes its minimum", () => {
    const validator = new SpecValidator(loadSpec(docPath));
    const note = "/paths/~1items~1{id}/get/responses/200/content/application~1json/schema";
    expect(validator.validate(note, { id: 1, note: null })).toEqual([]);
    expect(validator.validate(note, { id: 1, note: 5 })).not.toEqual([]);
    const id = "/paths/~1items~1{id}/get/parameters/0/schema";
    expect(validator.validate(id, 0)).not.toEqual([]);
    expect(validator.validate(id, 1)).toEqual([]);
  });
});

describe("nullable without a type (OpenAPI 3.0's nullable $ref and allOf)", () => {
  it("admits null next to the referenced schema, and still refuses anything else", () => {
    const path = join(tempDir("contract-doc-"), "nullable.yaml");
    const owner = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
    writeFileSync(
      path,
      stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {},
        components: {
          schemas: {
            Owner: owner,
            A: { nullable: true, allOf: [{ $ref: "#/components/schemas/Owner" }] },
            B: { nullable: true, $ref: "#/components/schemas/Owner" },
          },
        },
      }),
    );
    const validator = new SpecValidator(loadSpec(path));
    for (const name of ["A", "B"]) {
      expect(validator.validate(`/components/schemas/${name}`, null), name).toEqual([]);
      expect(validator.validate(`/components/schemas/${name}`, { name: "x" }), name).toEqual([]);
      expect(validator.validate(`/components/schemas/${name}`, "x"), name).not.toEqual([]);
    }
  });
});

describe("a Swagger 2.0 document", () => {
  it("is read as OpenAPI 3.1: body parameters become request bodies, definitions component schemas", () => {
    const path = join(tempDir("contract-doc-"), "swagger.json");
    const swagger = {
      swagger: "2.0",
      info: { title: "Old", version: "1" },
      paths: {
        "/pets": {
          post: {
            operationId: "addPet",
            consumes: ["application/json"],
            produces: ["application/json"],
            parameters: [{ name: "body", in: "body", required: true, schema: { $ref: "#/definitions/Pet" } }],
            responses: { "201": { description: "made", schema: { $ref: "#/definitions/Pet" } } },
          },
        },
      },
      definitions: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
    };
    writeFileSync(path, JSON.stringify(swagger));
    const doc = loadSpec(path);
    expect(String(doc.openapi)).toMatch(/^3\.1\./);
    const op = buildOperationTable(doc).find((o) => o.operationId === "addPet")!;
    expect(op.requestBody).toMatchObject({ required: true, content: [{ mediaType: "application/json" }] });
    expect(new SpecValidator(doc).validate("/components/schemas/Pet", {})).not.toEqual([]);
  });
});

describe("documentView", () => {
  const doc = {
    openapi: "3.1.0",
    components: {
      schemas: {
        A: {
          type: "object",
          required: ["id", "pw", "n"],
          properties: {
            id: { $ref: "#/components/schemas/Id" },
            pw: { type: "string", writeOnly: true },
            n: { type: "string" },
          },
          example: { required: ["id"], properties: { id: { readOnly: true } } },
        },
        Id: { type: "integer", readOnly: true },
      },
    },
  };
  it(
    "drops readOnly members from requests (a $ref to a readOnly schema " +
      "too) and writeOnly ones from response requirements",
    () => {
      const request = documentView(doc, "request").components.schemas.A;
      expect(request.required).toEqual(["pw", "n"]);
      expect(Object.keys(request.properties)).toEqual(["pw", "n"]);
      const response = documentView(doc, "response").components.schemas.A;
      expect(response.required).toEqual(["id", "n"]);
      expect(Object.keys(response.properties)).toEqual(["id", "pw", "n"]);
    },
  );

  it("leaves data (examples) and the original alone, and returns a document without the keywords as it is", () => {
    documentView(doc, "request");
    expect(doc.components.schemas.A.required).toEqual(["id", "pw", "n"]);
    expect(documentView(doc, "request").components.schemas.A.example).toEqual(doc.components.schemas.A.example);
    const plain = { openapi: "3.1.0", paths: {} };
    expect(documentView(plain, "request")).toBe(plain);
  });
});

describe("a path item given by $ref (OpenAPI 3.1 components/pathItems)", () => {
  it("contributes its operations, read where the reference points", () => {
    const path = join(tempDir("contract-doc-"), "path-items.yaml");
    writeFileSync(
      path,
      stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: { "/a": { $ref: "#/components/pathItems/A" } },
        components: {
          pathItems: {
            A: {
              get: {
                operationId: "getA",
                parameters: [{ name: "q", in: "query", schema: { type: "integer" } }],
                responses: { "200": { description: "ok" } },
              },
            },
          },
        },
      }),
    );
    const [op] = buildOperationTable(loadSpec(path));
    expect(op).toMatchObject({
      operationId: "getA",
      method: "GET",
      path: "/a",
      pointer: "/components/pathItems/A/get",
    });
    expect(op!.parameters[0]!.schemaPointer).toBe("/components/pathItems/A/get/parameters/0/schema");
  });
});

describe("encodeBody", () => {
  it("writes forms URL-encoded (arrays repeated, non-strings as JSON) and multipart with its boundary", () => {
    expect(encodeBody("application/x-www-form-urlencoded", { a: "x y", n: 5, t: ["1", "2"] })).toEqual({
      rawBody: "a=x+y&n=5&t=1&t=2",
      contentType: "application/x-www-form-urlencoded",
    });
    const multipart = encodeBody("multipart/form-data", { a: "1" });
    const boundary = /boundary=(.+)$/.exec(multipart.contentType)![1]!;
    expect(multipart.rawBody).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${boundary}--\r\n`,
    );
    expect(encodeBody("application/merge-patch+json", { a: 1 })).toEqual({
      rawBody: '{"a":1}',
      contentType: "application/merge-patch+json",
    });
  });
});

describe("the engine on that document", () => {
  it("passes the API that keeps its promises: forms sent as forms, the token as bearer, every phase run", () => {
    const results = runs.get("conforming")!;
    // Nothing to refuse, or a body the suite does not write: see the next tests.
    const open = new Set([
      "ping/auth",
      "status/auth",
      "ping/negative",
      "status/negative",
      "upload/examples",
      "upload/positive",
      "upload/negative",
      "upload/auth",
      "getItem/isolation",
    ]);
    expect(
      results
        .filter((r) => r.status !== "passed" && !open.has(r.id))
        .map((r) => `${r.id}: ${r.skipReason ?? r.error ?? JSON.stringify(r.findings.map((f) => f.title))}`),
    ).toEqual([]);
    for (const phase of ["positive", "negative", "auth"])
      expect(
        results.filter((r) => r.phase === phase && !open.has(r.id)).every((r) => r.exchanges > 0),
        phase,
      ).toBe(true);
  });

  it(
    "sends no credential to a public operation, and says why its " +
      "auth phase (and that of optional auth) is skipped",
    () => {
      const results = runs.get("conforming")!;
      const skipOf = (id: string) => results.find((r) => r.id === id)?.skipReason;
      expect(skipOf("ping/auth")).toBe("skipped: the operation requires no authentication");
      expect(skipOf("status/auth")).toMatch(/lets the operation be called without a credential/);
      expect(results.find((r) => r.id === "ping/positive")!.exchanges).toBeGreaterThan(0);
    },
  );

  it(
    "skips, saying why, an operation whose required body is a media " +
      "type it does not write, rather than sending none",
    () => {
      // The unsupported-method phase sends no body, so it runs.
      const upload = runs
        .get("conforming")!
        .filter((r) => r.operation === "upload" && r.phase !== "unsupported-method");
      expect(upload.map((r) => r.status)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
      expect(upload[0]!.skipReason).toBe(
        "skipped: the request body is application/octet-stream, which the suite does not " +
          "write (it writes JSON, URL-encoded and multipart forms, and text)",
      );
    },
  );

  it.each([
    ["form-as-json-only", "positive_data_acceptance"],
    ["note-not-null", "response_schema_conformance"],
    ["accepts-age-text", "negative_data_rejection"],
    ["accepts-any-session", "negative_data_rejection"],
  ] as Array<[Variant, string]>)("catches %s with %s", (variant, check) => {
    expect(errorsOf(runs.get(variant)!)).toContain(check);
  });
});

describe("linkOrder", () => {
  const op = (id: string, links: string[] = []) =>
    ({
      operationId: id,
      responses: [
        {
          status: "200",
          description: "",
          content: [],
          headers: [],
          links: links.map((to) => ({ name: to, operationId: to, parameters: {} })),
        },
      ],
    }) as unknown as OperationEntry;
  it(
    "puts each link's source before its target, else keeps document order; " +
      "operations in a cycle come after the rest, in document order",
    () => {
      expect(linkOrder([op("c"), op("b", ["c"]), op("a", ["b"])]).map((o) => o.operationId)).toEqual(["a", "b", "c"]);
      expect(linkOrder([op("x"), op("y")]).map((o) => o.operationId)).toEqual(["x", "y"]);
      expect(linkOrder([op("p", ["q"]), op("q", ["p"]), op("r")]).map((o) => o.operationId)).toEqual(["r", "p", "q"]);
    },
  );
});
