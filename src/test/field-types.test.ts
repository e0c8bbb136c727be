import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  nameFieldTypes,
  ResponseValidationError,
  type DataSchemaInput,
  type SchemaFieldInput,
} from "../index.js";
import { API_KEY, expectNoSecretRecorded, recordingLogger, rejection } from "./support/secrets.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that answers a schema update with `respond(sentBody)`. */
async function schemaServer(respond: (sent: DataSchemaInput) => unknown) {
  const server = await startServer((req, res) => sendJson(res, 200, respond(JSON.parse(req.body) as DataSchemaInput)));
  servers.push(server);
  const logger = recordingLogger();
  return { server, logger, client: createClient({ baseUrl: server.url, apiKey: API_KEY, logger }) };
}

/** A service with a fixed secret mapping (the client must learn it, not know it). */
const SECRET_MAPPING: Record<string, number> = {
  object: 0,
  array: 1,
  string: 2,
  integer: 3,
  decimal: 4,
  double: 5,
  boolean: 6,
  datetime: 7,
};
const toResponse = (fields: SchemaFieldInput[] | undefined): unknown[] =>
  (fields ?? []).map((f) => ({
    name: f.name,
    type: SECRET_MAPPING[f.type],
    description: f.description ?? null,
    fields: toResponse(f.fields),
  }));

const product: DataSchemaInput = {
  id: "dsc_1",
  name: "Product",
  description: null,
  fields: [
    { name: "title", type: "string", fields: [] },
    {
      name: "variants",
      type: "array",
      fields: [{ name: "variant", type: "object", fields: [{ name: "weight", type: "double" }] }],
    },
  ],
};

describe("updateSchema field types", () => {
  it("pairs nested fields, returning typeName next to the integer and learning the pairs", async () => {
    const { client, server } = await schemaServer((s) => ({ ...s, fields: toResponse(s.fields) }));
    const result = await client.updateSchema("dsc_1", product);
    expect(server.requests[0]!.url).toBe("/v1/schemas/dsc_1");
    expect(server.requests[0]!.method).toBe("PUT");
    expect(result.fields[0]).toMatchObject({ name: "title", type: 2, typeName: "string" });
    const variant = result.fields[1]!.fields[0]!;
    expect(variant).toMatchObject({ name: "variant", type: 0, typeName: "object" });
    expect(variant.fields[0]).toMatchObject({ name: "weight", type: 5, typeName: "double" });
    expect([...client.fieldTypeCodes]).toEqual(
      expect.arrayContaining([
        [2, "string"],
        [1, "array"],
        [0, "object"],
        [5, "double"],
      ]),
    );
    expect(client.fieldTypeCodes.size).toBe(4);
  });

  it("accumulates pairs across calls, and nameFieldTypes reads other responses with them", async () => {
    const { client } = await schemaServer((s) => ({ ...s, fields: toResponse(s.fields) }));
    await client.updateSchema("dsc_1", product);
    await client.updateSchema("dsc_2", { fields: [{ name: "ok", type: "boolean" }] });
    expect(client.fieldTypeCodes.get(6)).toBe("boolean");
    const named = nameFieldTypes(
      {
        fields: [
          { name: "x", type: 6, description: null, fields: [] },
          { name: "y", type: 7, description: null, fields: [] },
        ],
      },
      client.fieldTypeCodes,
    );
    expect(named.fields.map((f) => f.typeName)).toEqual(["boolean", null]);
  });

  it("refuses a response whose field names differ, naming the pointer, and learns nothing", async () => {
    const { client } = await schemaServer((s) => {
      const fields = toResponse(s.fields) as Array<Record<string, unknown>>;
      fields[1]!.name = "renamed";
      return { ...s, fields };
    });
    const err = (await rejection(client.updateSchema("dsc_1", product))) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.pointer).toBe("/fields/1/name");
    expect(err.rule).toBe("field-pairing");
    expect(client.fieldTypeCodes.size).toBe(0);
  });

  it("refuses a response with a different number of fields or different nesting", async () => {
    const { client } = await schemaServer((s) => ({ ...s, fields: toResponse(s.fields).slice(0, 1) }));
    expect(((await rejection(client.updateSchema("dsc_1", product))) as ResponseValidationError).pointer).toBe(
      "/fields",
    );
    const flat = await schemaServer((s) => ({
      ...s,
      fields: toResponse(s.fields).map((f) => ({ ...(f as object), fields: [] })),
    }));
    const err = (await rejection(flat.client.updateSchema("dsc_1", product))) as ResponseValidationError;
    expect(err.pointer).toBe("/fields/1/fields");
    expect(err.message).toContain("sent 1 field(s), received 0");
  });

  it("refuses one integer for two names within a response", async () => {
    const { client } = await schemaServer((s) => ({
      ...s,
      fields: (s.fields ?? []).map((f) => ({ name: f.name, type: 3, description: null, fields: [] })),
    }));
    const err = (await rejection(
      client.updateSchema("dsc_1", {
        fields: [
          { name: "a", type: "integer" },
          { name: "b", type: "decimal" },
        ],
      }),
    )) as ResponseValidationError;
    expect(err.pointer).toBe("/fields/1/type");
    expect(err.rule).toBe("field-type-unique");
  });

  it("refuses a later response contradicting a pair learned earlier", async () => {
    let call = 0;
    const { client } = await schemaServer((s) => ({
      ...s,
      fields: (s.fields ?? []).map((f) => ({
        name: f.name,
        type: call++ === 0 ? 3 : 4,
        description: null,
        fields: [],
      })),
    }));
    await client.updateSchema("dsc_1", { fields: [{ name: "a", type: "integer" }] });
    const err = (await rejection(
      client.updateSchema("dsc_1", { fields: [{ name: "a", type: "integer" }] }),
    )) as ResponseValidationError;
    expect(err.message).toContain('"integer" was paired with integer 3 and now with 4');
    expect(client.fieldTypeCodes.get(3)).toBe("integer");
  });

  it("unwraps a {data: ...} schema response and reports pointers inside the wrapper", async () => {
    const ok = await schemaServer((s) => ({ data: { ...s, fields: toResponse(s.fields) } }));
    expect((await ok.client.updateSchema("dsc_1", product)).fields[0]?.typeName).toBe("string");
    const bad = await schemaServer((s) => ({ data: { ...s, fields: [] } }));
    expect(((await rejection(bad.client.updateSchema("dsc_1", product))) as ResponseValidationError).pointer).toBe(
      "/data/fields",
    );
  });

  it("names returned fields from learned pairs when no fields were sent", async () => {
    const { client } = await schemaServer(() => ({
      id: "dsc_1",
      fields: [
        { name: "kept", type: 2, description: null, fields: [] },
        { name: "other", type: 7, description: null, fields: [] },
      ],
    }));
    const seeded = createClient({ baseUrl: client.baseUrl, apiKey: API_KEY, fieldTypeCodes: { 2: "string" } });
    const result = await seeded.updateSchema("dsc_1", { name: "Renamed" });
    expect(result.fields.map((f) => f.typeName)).toEqual(["string", null]);
  });

  it("encodes the id in the path", async () => {
    const { client, server } = await schemaServer((s) => ({ ...s, fields: [] }));
    await client.updateSchema("dsc a/b", { fields: [] });
    expect(server.requests[0]!.url).toBe("/v1/schemas/dsc%20a%2Fb");
  });

  it("refuses a seed that pairs one integer with two names", () => {
    expect(() =>
      createClient({
        baseUrl: "http://127.0.0.1:1",
        apiKey: API_KEY,
        fieldTypeCodes: [
          [1, "string"],
          [1, "integer"],
        ],
      }),
    ).toThrow(/pairs integer 1/);
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(5);
});
