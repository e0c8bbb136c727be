/** Every setting's rule: a clear message naming the variable, never a secret in it. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanUp, tempDir } from "./support/spawn.js";
import { DEFAULT_MAX_REQUESTS, MOCK_API_KEY, readSettings, SettingsError } from "../config/settings.js";

const live = { CONTRACT_BASE_URL: "https://staging.example.com/", CONTRACT_API_KEY: "sk_live_setting_test" };
const refused = (env: Record<string, string>) => {
  try {
    readSettings(env);
  } catch (err) {
    expect(err).toBeInstanceOf(SettingsError);
    return (err as Error).message;
  }
  throw new Error("expected a SettingsError");
};

afterAll(() => cleanUp());

/** A file in a temporary folder holding `text`; returns its path. */
const file = (name: string, text: string) => {
  const path = join(tempDir("contract-settings-"), name);
  writeFileSync(path, text);
  return path;
};

describe("CONTRACT_SPEC", () => {
  it.each([
    ["a YAML list", "- a\n", /not an OpenAPI document: expected a mapping/],
    ["broken YAML", "openapi: 3.1.0\ninfo: [\n", /cannot be read as YAML or JSON \(.*line \d+, column \d+\)$/],
    ["an AsyncAPI document", "asyncapi: 2.6.0\n", /"openapi" must be 3\.0\.x, 3\.1\.x or 3\.2\.x .*got null/],
    ["an unknown version", "openapi: 4.0.0\npaths: {}\n", /got "4\.0\.0"/],
    ["paths that are a list", "openapi: 3.1.0\npaths: [a]\n", /"paths" must be a mapping/],
    [
      "a dangling $ref",
      "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses: {'200': {$ref: '#/components/responses/Gone'}}\n",
      /the \$ref "#\/components\/responses\/Gone" at \/paths\/~1a\/get\/responses\/200 does not resolve/,
    ],
    [
      "a document without operations",
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n",
      /has no operations under "paths": there is nothing to check/,
    ],
    [
      "an operationId used twice",
      "openapi: 3.1.0\npaths:\n  /a: {get: {operationId: x, responses: " +
        "{}}}\n  /b: {get: {operationId: x, responses: {}}}\n",
      /the operationId "x" is used twice \(GET \/a and GET \/b\)/,
    ],
    [
      "a dangling $ref in a default response",
      "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses: {default: {description: d, " +
        "content: {application/json: {schema: {$ref: '#/components/schemas/Gone'}}}}}\n",
      new RegExp(
        String.raw`the \$ref "#/components/schemas/Gone" at ` +
          "/paths/~1a/get/responses/default/content/application~1json/schema does not resolve",
      ),
    ],
    [
      "a dangling $ref in a property named enum",
      "openapi: 3.1.0\npaths: {}\ncomponents: {schemas: {A: " +
        "{properties: {enum: {$ref: '#/components/schemas/Gone'}}}}}\n",
      /at \/components\/schemas\/A\/properties\/enum does not resolve/,
    ],
    [
      "a $ref to another file",
      "openapi: 3.1.0\npaths:\n  /a: {$ref: 'paths.yaml#/a'}\n",
      /the \$ref "paths\.yaml#\/a" at \/paths\/~1a points outside the document; bundle it/,
    ],
  ])("refuses %s, naming the file and the rule (exit 2, before any server starts)", (_what, text, message) => {
    const path = file("doc.yaml", text);
    const msg = refused({ CONTRACT_SPEC: path });
    expect(msg).toMatch(/^CONTRACT_SPEC: /);
    expect(msg).toContain(path);
    expect(msg).toMatch(message);
  });

  it("refuses a base URL ending in the segment every path starts with, and allows it when the paths do not", () => {
    expect(refused({ ...live, CONTRACT_BASE_URL: "https://x/v1" })).toMatch(
      /must not end in \/v1: every path of the document starts with \/v1/,
    );
    const path = file(
      "other.yaml",
      "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /things: " +
        "{get: {responses: {}}}\n  /v1/x: {get: {responses: {}}}\n",
    );
    expect(readSettings({ ...live, CONTRACT_BASE_URL: "https://x/v1", CONTRACT_SPEC: path }).baseUrl).toBe(
      "https://x/v1",
    );
  });
});

describe("readSettings", () => {
  it("defaults to the mock, with a placeholder key and a generous budget", () => {
    expect(readSettings({})).toMatchObject({
      kind: "mock",
      baseUrl: "",
      apiKey: MOCK_API_KEY,
      maxRequests: DEFAULT_MAX_REQUESTS.mock,
      examples: 2,
      strict: false,
      timeoutExplicit: false,
    });
  });

  it("reads a live target: trailing slash dropped, safe defaults for a billed service", () => {
    expect(readSettings(live)).toMatchObject({
      kind: "live",
      baseUrl: "https://staging.example.com",
      maxRequests: DEFAULT_MAX_REQUESTS.live,
      examples: 4,
      workers: 8,
    });
    expect(readSettings({ ...live, CONTRACT_WORKERS: "64" }).workers).toBe(64);
  });

  it.each([
    [{ ...live, CONTRACT_API_KEY: "" }, /CONTRACT_API_KEY is required/],
    [{ ...live, CONTRACT_BASE_URL: "ftp://x" }, /CONTRACT_BASE_URL must use http or https/],
    [{ ...live, CONTRACT_BASE_URL: "https://x/?a=1" }, /query string or fragment/],
    [{ ...live, CONTRACT_STRICT: "yes" }, /CONTRACT_STRICT must be 1 or 0/],
    [{ ...live, CONTRACT_MAX_REQUESTS: "0" }, /CONTRACT_MAX_REQUESTS must be an integer of at least 1/],
    [{ ...live, CONTRACT_WORKERS: "0" }, /CONTRACT_WORKERS must be an integer from 1 to 64, got "0"/],
    [{ ...live, CONTRACT_WORKERS: "65" }, /CONTRACT_WORKERS must be an integer from 1 to 64, got "65"/],
    [{ ...live, CONTRACT_PARAMS: "{not json" }, /CONTRACT_PARAMS must be a JSON object/],
    [{ ...live, CONTRACT_PARAMS: "[1]" }, /CONTRACT_PARAMS must be a JSON object/],
    [{ ...live, CONTRACT_PARAMS: '{"updateDataSchema.id": ".."}' }, /must not be "\.\."/],
    [{ ...live, CONTRACT_SCHEMA_ID: "." }, /must not be "\."/],
    [{ ...live, CONTRACT_SPEC: "/no/such/file.yaml" }, /CONTRACT_SPEC names a file that does not exist/],
  ])("refuses %j", (env, message) => {
    expect(refused(env as Record<string, string>)).toMatch(message);
  });

  it("refuses credentials in the base URL without printing them", () => {
    const message = refused({ ...live, CONTRACT_BASE_URL: "https://user:hunter2secret@staging.example.com" });
    expect(message).toContain("must not contain credentials");
    expect(message).not.toContain("hunter2secret");
  });

  it.each([
    ["a control character", "sk\u0001live"],
    ["a DEL", "sk\u007flive"],
    ["a non-Latin-1 character", "sk_ключ"],
    ["surrounding spaces", " sk "],
  ])("refuses a key with %s, never printing it", (_what, key) => {
    const message = refused({ ...live, CONTRACT_API_KEY: key });
    expect(message).toMatch(/CONTRACT_API_KEY must/);
    expect(message).not.toContain(key.trim());
  });

  it("reads CONTRACT_PARAMS by operation and name, and the older CONTRACT_SCHEMA_ID as the schema's id", () => {
    const s = readSettings({ ...live, CONTRACT_PARAMS: '{"updateDataSchema.id": "dsc_a", "url": "https://x"}' });
    expect(s.params).toEqual({ "updateDataSchema.id": "dsc_a", url: "https://x" });
    expect(readSettings({ ...live, CONTRACT_SCHEMA_ID: "dsc_b" }).params).toEqual({ "updateDataSchema.id": "dsc_b" });
  });

  it("makes an explicit CONTRACT_TIMEOUT_MS apply to every operation", () => {
    expect(readSettings({ ...live, CONTRACT_TIMEOUT_MS: "500" })).toMatchObject({
      timeoutMs: 500,
      timeoutExplicit: true,
    });
  });
});
