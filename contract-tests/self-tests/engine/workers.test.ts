/**
 * The executor's promise (issue 27): the same seed gives the same report, scenario by scenario and finding by
 * finding, and the same number of requests, whatever the number of workers. Whole runs (in this process, the engine
 * npm run contract uses) with one worker and with 8 against the fault server (planted faults of two phases and a
 * lenient variant) and the CRUD server (lifecycle, links, hostile and owned members, a hostile fault), each
 * run against a fresh server, so that neither sees what the other left.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runContract } from "../../cli/contract-run.js";
import { readSettings } from "../../config/settings.js";
import { CRUD_SERVER_KEY, startCrudServer, type CrudFault } from "../../fault-server/crud.js";
import { writeCrudDocument } from "../../fault-server/crud-document.js";
import {
  FAULT_SERVER_KEY,
  FAULT_SERVER_SECOND_KEY,
  startFaultServer,
  type FaultServer,
} from "../../fault-server/server.js";
import { signatureDiff, verdictSignature } from "../../report/signature.js";
import { cleanUp, tempDir } from "../support/spawn.js";

afterAll(cleanUp);

/** One run with `workers` against a fresh server (`start`d, then stopped): its verdict's lines and requests sent. */
async function runOn<S extends { stop(): Promise<void> }>(
  start: () => Promise<S>,
  env: (server: S) => Record<string, string>,
  workers: number,
) {
  const server = await start();
  try {
    const settings = readSettings({
      ...env(server),
      CONTRACT_EXAMPLES: "2",
      CONTRACT_WORKERS: String(workers),
      CONTRACT_REPORTS_DIR: tempDir("workers-"),
    });
    const { run, results } = await runContract(settings);
    return { lines: verdictSignature(results), requests: run.target.requestsSent() };
  } finally {
    await server.stop();
  }
}

const faultRun = (variant: Parameters<FaultServer["baseUrl"]>[number] | "conforming", workers: number) =>
  runOn(
    startFaultServer,
    (server) => ({
      CONTRACT_BASE_URL: variant === "conforming" ? server.baseUrl() : server.baseUrl(variant),
      CONTRACT_API_KEY: FAULT_SERVER_KEY,
      CONTRACT_SECOND_API_KEY: FAULT_SERVER_SECOND_KEY,
      CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" }),
    }),
    workers,
  );

const crudDocument = writeCrudDocument(tempDir("workers-crud-"), true);
const crudRun = (variant: CrudFault | "conforming", workers: number) =>
  runOn(
    startCrudServer,
    (server) => ({
      CONTRACT_SPEC: crudDocument,
      CONTRACT_BASE_URL: variant === "conforming" ? server.baseUrl() : server.baseUrl(variant),
      CONTRACT_API_KEY: CRUD_SERVER_KEY,
    }),
    workers,
  );

describe("one worker and 8 give the same report", () => {
  it.each(["conforming", "lenient", "link-count-mismatch", "existing-ids-404"] as const)(
    "the fault server, %s",
    async (variant) => {
      const [one, eight] = await Promise.all([faultRun(variant, 1), faultRun(variant, 8)]);
      expect(signatureDiff(one.lines, eight.lines)).toEqual([]);
      expect(eight.requests).toBe(one.requests);
      // The report says something to agree on: scenarios that ran, and the planted fault's finding.
      expect(one.lines.filter((l) => l.endsWith(" passed")).length).toBeGreaterThan(5);
      if (variant !== "conforming" && variant !== "lenient")
        expect(one.lines.some((l) => l.startsWith("  error "))).toBe(true);
    },
  );

  it.each(["conforming", "html-escaped"] as const)("the CRUD server, %s", async (variant) => {
    const [one, eight] = await Promise.all([crudRun(variant, 1), crudRun(variant, 8)]);
    expect(signatureDiff(one.lines, eight.lines)).toEqual([]);
    expect(eight.requests).toBe(one.requests);
    expect(one.lines.some((l) => /^\w+\/lifecycle\S* (passed|failed)$/.test(l))).toBe(true);
  });
});

describe("the comparison", () => {
  it("names the first line in which two reports part, and nothing when they agree", () => {
    const a = ["op/examples passed", "op/positive failed", "  error some_check  a title x1"];
    expect(signatureDiff(a, [...a])).toEqual([]);
    expect(signatureDiff(a, [a[0]!, a[1]!, "  error some_check  a title x2"])).toEqual([
      "line 3:",
      "-   error some_check  a title x1",
      "+   error some_check  a title x2",
    ]);
    expect(signatureDiff(a, a.slice(0, 2))).toEqual(["line 3:", `- ${a[2]}`, "+ (none)"]);
  });
});
