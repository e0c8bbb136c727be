/**
 * The examples phase sends a body schema's own example when the body has no media example, else composes one from
 * its members' examples (a login with `username: name1` and `password: pass1`), and a parameter's example from its
 * schema's; a refusal the operation
 * documents as a condition of its own (a 401 for credentials it does not know) is a warning, not valid input
 * rejected.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startServer, type TestServer } from "../../../../src/test/support/server.js";
import { runContract } from "../../../cli/contract-run.js";
import { readSettings } from "../../../config/settings.js";
import { cleanUp, tempDir } from "../../support/spawn.js";

const dir = tempDir("contract-examples-");
const SPEC = join(dir, "login.json");
writeFileSync(
  SPEC,
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Login", version: "1" },
    paths: {
      "/login": {
        post: {
          operationId: "login",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["username", "password"],
                  properties: {
                    username: { type: "string", example: "name1" },
                    password: { type: "string", example: "pass1" },
                  },
                },
              },
            },
          },
          responses: {
            "200": { description: "A token.", content: { "application/json": { schema: { type: "object" } } } },
            "401": { description: "Unknown user name or wrong password." },
          },
        },
      },
      "/books": {
        get: {
          operationId: "listBooks",
          parameters: [{ name: "sort", in: "query", schema: { type: "string", enum: ["title", "author"] } }],
          responses: {
            "200": { description: "Books.", content: { "application/json": { schema: { type: "array" } } } },
          },
        },
      },
    },
  }),
);

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.url?.startsWith("/books")) return sendJson(res, 200, []);
    const body = JSON.parse(req.body || "{}") as { username?: string; password?: string };
    return body.username === "alice" ? sendJson(res, 200, { token: "t" }) : void res.writeHead(401).end();
  });
});
afterAll(async () => {
  await server.close();
  cleanUp();
});

describe("the examples phase", () => {
  it("sends a body composed from its members' examples, and a documented 401 for it is a warning", async () => {
    const { results } = await runContract(
      readSettings({
        CONTRACT_SPEC: SPEC,
        CONTRACT_BASE_URL: server.url,
        CONTRACT_API_KEY: "k",
        CONTRACT_PHASES: "examples",
        CONTRACT_REPORTS_DIR: join(dir, "reports"),
      }),
    );
    const logins = server.requests.filter((r) => r.url === "/login").map((r) => JSON.parse(r.body));
    expect(logins).toContainEqual({ username: "name1", password: "pass1" });
    const findings = results.flatMap((r) => r.findings);
    expect(findings.filter((f) => f.severity === "error").map((f) => f.title)).toEqual([]);
    expect(findings.find((f) => f.check === "positive_data_acceptance")).toMatchObject({
      severity: "warning",
      documented: expect.stringContaining("documents 401 as a condition of its own"),
    });
    // A parameter without an example of its own is sent with its schema's first enum value.
    expect(server.requests.map((r) => r.url)).toContain("/books?sort=title");
  }, 30_000);

  it("sends a body schema's own example as it is, rather than one composed from its members'", async () => {
    // The same login, its body schema with an example of its own (no media example): that is the body sent.
    const doc = JSON.parse(readFileSync(SPEC, "utf8"));
    doc.paths["/login"].post.requestBody.content["application/json"].schema.example = {
      username: "alice",
      password: "wonderland",
    };
    const spec = join(dir, "login-with-schema-example.json");
    writeFileSync(spec, JSON.stringify(doc));
    const before = server.requests.length;
    const { results } = await runContract(
      readSettings({
        CONTRACT_SPEC: spec,
        CONTRACT_BASE_URL: server.url,
        CONTRACT_API_KEY: "k",
        CONTRACT_PHASES: "examples",
        CONTRACT_OPERATIONS: "login",
        CONTRACT_REPORTS_DIR: join(dir, "reports-schema-example"),
      }),
    );
    const logins = server.requests
      .slice(before)
      .filter((r) => r.url === "/login")
      .map((r) => JSON.parse(r.body));
    expect(logins).toEqual([{ username: "alice", password: "wonderland" }]);
    expect(results.flatMap((r) => r.findings).filter((f) => f.check === "positive_data_acceptance")).toEqual([]);
  }, 30_000);
});
