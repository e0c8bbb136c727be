import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrism, type PrismServer } from "../../openapi/lib/prism.js";
import { loadSpec } from "../../openapi/lib/spec.js";
import {
  ArgumentError,
  AuthenticationError,
  createClient,
  UnprocessableEntityError,
  type DataSchemaInput,
  type WebautoClient,
} from "../index.js";
import { API_KEY, expectNoSecretRecorded, rejection } from "./support/secrets.js";

let prism: PrismServer;
let client: WebautoClient;
const spec = loadSpec();
const example = (op: any, name: string) => op.examples[name].value;
const sitemapOp = spec.paths["/v1/site/map"].post;
const schemaOp = spec.paths["/v1/schemas/{id}"].put;
const listOp = spec.paths["/v1/browser/requests"].get;

beforeAll(async () => {
  prism = await startPrism();
  client = createClient({ baseUrl: prism.url, apiKey: API_KEY, validateResponses: true });
});
afterAll(async () => {
  await prism?.stop();
});

describe("against the Prism mock", () => {
  it("mapSite returns the documented example", async () => {
    const result = await client.mapSite(example(sitemapOp.requestBody.content["application/json"], "readSitemap"));
    expect(result).toEqual(example(sitemapOp.responses["200"].content["application/json"], "completed"));
    expect(result.links).toHaveLength(result.link_count ?? -1);
  });

  it("updateSchema returns the example with each field's type name paired and learned", async () => {
    const sent = example(schemaOp.requestBody.content["application/json"], "productSchema") as DataSchemaInput;
    const returned = example(schemaOp.responses["200"].content["application/json"], "productSchema");
    const result = await client.updateSchema(sent.id!, sent);
    expect(result.name).toBe(returned.name);
    expect(result.fields.map((f) => [f.name, f.type, f.typeName])).toEqual(
      returned.fields.map((f: { name: string; type: number }, i: number) => [f.name, f.type, sent.fields![i]!.type]),
    );
    expect(result.fields[6]!.fields[0]!.fields[1]!.fields[0]).toMatchObject({ name: "weight", typeName: "double" });
    expect(client.fieldTypeCodes.size).toBe(8);
  });

  it("listBrowserRequests returns the example page, and iteration yields its records", async () => {
    const page = await client.listBrowserRequests({
      ids: ["brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP"],
      states: ["completed", "failed"],
      pageSize: 30,
    });
    expect(page).toEqual(
      example(
        listOp.responses["200"].content["application/json"],
        Object.keys(listOp.responses["200"].content["application/json"].examples)[0]!,
      ).data,
    );
    const ids: string[] = [];
    for await (const r of client.iterateBrowserRequests({ states: ["completed"] })) ids.push(r.id);
    expect(ids).toEqual(page.results.map((r) => r.id));
  });

  it("client.raw is typed and reaches the mock with the key", async () => {
    const { data, response } = await client.raw.GET("/v1/browser/requests", { params: { query: { pageSize: 3 } } });
    expect(response.status).toBe(200);
    expect(data?.data.page).toBe(1);
  });

  it("gets 401 without a key, thrown as AuthenticationError", async () => {
    const keyless = createClient({
      baseUrl: prism.url,
      apiKey: API_KEY,
      maxRetries: 0,
      fetch: (input, init) => {
        const req = new Request(input, init);
        const headers = new Headers(req.headers);
        headers.delete("x-api-key");
        return fetch(new Request(req, { headers }));
      },
    });
    const err = (await rejection(keyless.listBrowserRequests())) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.status).toBe(401);
  });

  it("gets 422 for a body the document forbids, thrown as UnprocessableEntityError", async () => {
    // A numeric description passes the client's own checks (names and types) and reaches Prism's validator.
    const err = await rejection(
      client.updateSchema("dsc_1", { fields: [{ name: "x", type: "string", description: 42 as unknown as string }] }),
    );
    expect(err).toBeInstanceOf(UnprocessableEntityError);
  });

  it("refuses a type name the document does not list before sending anything", async () => {
    const err = (await rejection(
      client.updateSchema("dsc_1", { fields: [{ name: "x", type: "text" as "string" }] }),
    )) as ArgumentError;
    expect(err).toBeInstanceOf(ArgumentError);
    expect(err.argument).toBe("schema.fields[0].type");
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(2);
});
