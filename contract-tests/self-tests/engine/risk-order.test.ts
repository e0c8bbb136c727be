/**
 * A plan ordered by risk (issue 32, point 2): an operation that drops and re-creates the data runs first and alone
 * (a create beside it would fail for no fault of its own), and the requests that may take a server down (the far
 * edges, then hostile strings) go after every other phase, so a server that freezes for good on one has answered
 * everything else first; the report's order stays the plan's.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runContract } from "../../cli/contract-run.js";
import { readSettings } from "../../config/settings.js";
import { startAccountsServer } from "../../fault-server/accounts.js";
import { writeAccountsDocument } from "../../fault-server/accounts-document.js";
import { ACCOUNTS } from "../../fault-server/accounts-store.js";
import { CRUD_SERVER_KEY, startCrudServer } from "../../fault-server/crud.js";
import { crudDocument } from "../../fault-server/crud-document.js";
import { specModel } from "../../model/model.js";
import { resetsSharedState } from "../../model/risk.js";
import { signatureDiff, verdictSignature } from "../../report/signature.js";
import { errorsOf } from "../support/fault-runs.js";
import { cleanUp, tempDir } from "../support/spawn.js";

afterAll(cleanUp);

/** The CRUD document with, first, a GET that drops and re-creates the posts (as the books API's first operation). */
function resetDocument(): string {
  const doc = crudDocument(true) as { paths: Record<string, unknown> };
  doc.paths = {
    "/admin/reset": {
      get: {
        operationId: "resetDatabase",
        summary: "Reset",
        description: "Drops every table and re-creates the database with its sample data.",
        responses: {
          "200": {
            description: "The database is re-created.",
            content: {
              "application/json": {
                schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
              },
            },
          },
          "401": {
            description: "No API key, or a key that is not valid.",
            content: {
              "application/json": {
                schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
              },
            },
          },
        },
      },
    },
    ...doc.paths,
  };
  const path = join(tempDir("risk-doc-"), "crud-reset.openapi.json");
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

describe("an operation that rebuilds or wipes shared data", () => {
  it("is read from its summary, description, operationId or path; a password reset is not one", () => {
    const model = specModel(resetDocument());
    const reset = model.operation("resetDatabase");
    expect(resetsSharedState(model, reset)).toBe(true);
    expect(model.operations.filter((op) => resetsSharedState(model, op)).map((op) => op.operationId)).toEqual([
      "resetDatabase",
    ]);
    const at = (over: Partial<typeof reset>, description?: string) =>
      resetsSharedState({ at: () => (description ? { description } : {}) }, { ...reset, ...over });
    const plain = { operationId: "listThings", path: "/things", summary: "List things" };
    expect(at(plain)).toBe(false);
    expect(at({ ...plain, summary: "Seed the store with sample data" })).toBe(true);
    expect(at(plain, "Wipes all records, then re-creates the tables.")).toBe(true);
    expect(at({ ...plain, operationId: "seed", path: "/seed", method: "POST", safe: false })).toBe(true);
    expect(at({ operationId: "resetPassword", path: "/users/{id}/reset", summary: "Reset a password" })).toBe(false);
    expect(at({ ...plain, summary: "Reset the session token" })).toBe(false);
    expect(at({ ...plain, path: "/random/{seed}" })).toBe(false);
  });

  it("runs first and alone, so a create beside it no longer fails; one worker and 8 give the same report", async () => {
    const spec = resetDocument();
    const once = async (workers: number) => {
      const server = await startCrudServer();
      try {
        const settings = readSettings({
          CONTRACT_SPEC: spec,
          CONTRACT_BASE_URL: server.baseUrl(),
          CONTRACT_API_KEY: CRUD_SERVER_KEY,
          CONTRACT_EXAMPLES: "2",
          CONTRACT_WORKERS: String(workers),
          CONTRACT_PHASES: "examples,positive,lifecycle",
          CONTRACT_REPORTS_DIR: tempDir("risk-reset-"),
        });
        const { results } = await runContract(settings);
        return { results, log: server.requests() };
      } finally {
        await server.stop();
      }
    };
    const [one, eight] = await Promise.all([once(1), once(8)]);
    for (const { results, log } of [one, eight]) {
      expect(errorsOf(results)).toEqual([]);
      const resets = log.flatMap((r, i) => (r === "GET /admin/reset" ? [i] : []));
      // Every reset went before any other request, and the run reached the posts.
      expect(resets.length).toBeGreaterThan(1);
      expect(log.slice(0, resets.at(-1)! + 1).filter((r) => r !== "GET /admin/reset")).toEqual([]);
      expect(results.some((r) => r.phase === "lifecycle" && r.status === "passed")).toBe(true);
      // The report's order stays the plan's: the reset's scenarios first, as its operation is the document's first.
      expect(results[0]?.operation).toBe("resetDatabase");
    }
    expect(signatureDiff(verdictSignature(one.results), verdictSignature(eight.results))).toEqual([]);
  }, 30_000);
});

describe("a server that freezes for good on one long value", () => {
  it("has answered every other phase first; the report names the culprit", async () => {
    const server = await startAccountsServer({ freezeMs: 2500 });
    try {
      const dir = tempDir("risk-freeze-");
      const settings = readSettings({
        CONTRACT_SPEC: writeAccountsDocument(dir, { links: true, auth: "bearer-login" }),
        CONTRACT_BASE_URL: server.baseUrl("redos-email-forever"),
        CONTRACT_USERNAME: ACCOUNTS.first.username,
        CONTRACT_PASSWORD: ACCOUNTS.first.password,
        CONTRACT_SECOND_USERNAME: ACCOUNTS.second.username,
        CONTRACT_SECOND_PASSWORD: ACCOUNTS.second.password,
        CONTRACT_EXAMPLES: "2",
        CONTRACT_TIMEOUT_MS: "1000",
        CONTRACT_REPORTS_DIR: join(dir, "reports"),
      });
      const { results } = await runContract(settings);
      expect(errorsOf(results)).toContain("server_stopped_answering");
      // The culprit: an edges request with the long e-mail (a register's or an e-mail update's).
      const culprit = results.find((r) => r.findings.some((f) => f.check === "server_stopped_answering"));
      expect([culprit?.phase, ["registerUser", "updateEmail"].includes(culprit?.operation ?? "")]).toEqual([
        "edges",
        true,
      ]);
      // Cut short: only the far edges' scenarios after the culprit's, the hostile strings and the clean-up.
      const cut = results.filter((r) => r.notRun);
      expect(cut.length).toBeGreaterThan(0);
      expect([...new Set(cut.map((r) => r.phase))].filter((p) => !["edges", "hostile", "cleanup"].includes(p))).toEqual(
        [],
      );
      // Every other phase ran: some scenario of each passed or found something.
      for (const phase of ["examples", "positive", "negative", "auth", "links", "lifecycle", "authorization"])
        expect(
          results.some((r) => r.phase === phase && (r.status === "passed" || r.status === "failed")),
          phase,
        ).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
