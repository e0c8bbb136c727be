/**
 * The coverage classes taken from Schemathesis (engine/coverage.ts) and the edges phase, run by the whole
 * engine against a small node:http API whose document has a required header, a unique-items filter, a closed
 * body (additionalProperties: false) and a documented 400: the API that refuses them passes; one that
 * accepts anything is caught for each class, naming it; one that crashes on a long name fails the edges phase.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { readSettings } from "../config/settings.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Coverage classes", version: "1.0.0" },
  paths: {
    "/things": {
      post: {
        operationId: "createThing",
        parameters: [
          {
            name: "X-Request-Id",
            in: "header",
            required: true,
            schema: { type: "string", minLength: 1 },
            example: "req-1",
          },
          {
            name: "tags",
            in: "query",
            required: false,
            style: "form",
            explode: false,
            schema: { type: "array", uniqueItems: true, items: { type: "string", enum: ["a", "b", "c"] } },
          },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                additionalProperties: false,
                properties: { name: { type: "string" } },
              },
              example: { name: "lamp" },
            },
          },
        },
        responses: {
          "201": { description: "Created.", content: { "application/json": { schema: { type: "object" } } } },
          "400": { description: "Invalid input." },
        },
      },
    },
  },
};

type Variant = "refuses" | "accepts-anything" | "crashes-on-long-name";

/** Validates like the document says, unless the variant says otherwise. */
function handle(
  variant: Variant,
  req: { method?: string; url?: string; headers: Record<string, unknown>; body: string },
): [number, unknown] {
  let body: any;
  try {
    body = JSON.parse(req.body);
  } catch {
    body = undefined;
  }
  if (variant === "crashes-on-long-name" && typeof body?.name === "string" && body.name.length > 1000)
    return [500, { message: "value too long for column" }];
  if (variant === "accepts-anything") return [201, {}];
  const tags = new URL(req.url ?? "/", "http://x").searchParams.get("tags");
  const list = tags === null ? [] : tags.split(",");
  const ok =
    typeof req.headers["x-request-id"] === "string" &&
    (req.headers["x-request-id"] as string).length > 0 &&
    list.every((t) => ["a", "b", "c"].includes(t)) &&
    new Set(list).size === list.length &&
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    typeof body.name === "string" &&
    Object.keys(body).every((k) => k === "name") &&
    /json/.test(String(req.headers["content-type"] ?? ""));
  return ok ? [201, {}] : [400, { message: "invalid" }];
}

let server: TestServer;
let spec: string;
const runs = new Map<Variant, ScenarioResult[]>();
const errors = (v: Variant) => runs.get(v)!.flatMap((r) => r.findings.filter((f) => f.severity === "error"));

beforeAll(async () => {
  server = await startServer((req, res) => {
    const variant = /^\/(\w[\w-]*)/.exec(req.url ?? "")![1] as Variant;
    const [status, body] = handle(variant, {
      ...req,
      url: (req.url ?? "").replace(`/${variant}`, ""),
      headers: req.headers as Record<string, unknown>,
    });
    sendJson(res, status, body);
  });
  spec = join(tempDir("coverage-doc-"), "openapi.json");
  writeFileSync(spec, JSON.stringify(DOCUMENT));
  for (const variant of ["refuses", "accepts-anything", "crashes-on-long-name"] as Variant[]) {
    const { results } = await runContract(
      readSettings({
        CONTRACT_SPEC: spec,
        CONTRACT_BASE_URL: `${server.url}/${variant}`,
        CONTRACT_API_KEY: "unused-key",
        CONTRACT_EXAMPLES: "2",
      }),
    );
    runs.set(variant, results);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  cleanUp();
});

describe("coverage classes and edges on another document", () => {
  it("the API that refuses what the document rules out passes every scenario", () => {
    expect(
      runs
        .get("refuses")!
        .filter((r) => r.status === "failed")
        .map((r) => `${r.id}: ${JSON.stringify(r.findings.filter((f) => f.severity === "error").map((f) => f.title))}`),
    ).toEqual([]);
    expect(
      runs.get("refuses")!.find((r) => r.phase === "edges")?.exchanges,
      "a long tags list, a long name and a name outside ASCII (the header gets no text class)",
    ).toBe(3);
  });

  it(
    "an API that accepts anything is caught for each class: a required " +
      "header left out, duplicate unique items, a forbidden member",
    () => {
      // One finding per answer (issue 33): each class is among the inputs of the finding the accepted answers make.
      const titles = errors("accepts-anything")
        .filter((f) => f.check === "negative_data_rejection")
        .flatMap((f) => (f.inputs ?? []).map((i) => `Invalid input accepted (${i})`));
      expect(titles).toEqual(
        expect.arrayContaining([
          "Invalid input accepted (required header parameter X-Request-Id left out)",
          expect.stringMatching(
            /^Invalid input accepted \(query parameter tags: an array with a duplicate item where items must be unique/,
          ),
          "Invalid input accepted (a body that is a member the schema " +
            "does not allow (contract_suite_unexpected_member))",
        ]),
      );
      expect(
        errors("accepts-anything").every((f) => f.promise === "#/paths/~1things/post/responses/400"),
        "each error names the documented refusal",
      ).toBe(true);
    },
  );

  it("a 500 on a valid long name (the document sets no maxLength) fails the edges phase, and only it", () => {
    const failed = runs
      .get("crashes-on-long-name")!
      .filter((r) => r.status === "failed")
      .map((r) => r.phase);
    expect(failed).toEqual(["edges"]);
    // One response, one finding: the 500's undocumented status is noted under the server error.
    const crashes = errors("crashes-on-long-name");
    expect([...new Set(crashes.map((f) => f.check))]).toEqual(["not_a_server_error"]);
    expect(crashes[0]!.also).toEqual([expect.stringMatching(/^status_code_conformance: /)]);
  });
});
