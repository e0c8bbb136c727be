/**
 * Whole runs of the suite (in this process, by the engine npm run contract uses) against the fault-injecting
 * server, for the self-tests that judge their results. The runs are split over several test files, so that
 * the test workers share them; each file starts its own server and runs its own plans.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { runContract } from "../../cli/contract-run.js";
import { readSettings } from "../../config/settings.js";
import {
  FAULT_SERVER_KEY,
  FAULT_SERVER_SECOND_KEY,
  startFaultServer,
  type FaultServer,
} from "../../fault-server/server.js";
import { documentWithAddedOperation } from "../../fixtures/document-copy.js";
import type { Finding, ScenarioResult } from "../../model/types.js";
import { buildReport } from "../../report/render.js";
import { cleanUp } from "./spawn.js";

/** One planned run: its name and the settings (on top of the defaults below) it runs with. */
export type Plan = [name: string, env: Record<string, string>];

/** What one run gave. */
export interface FaultRun {
  results: ScenarioResult[];
  requests: number;
  ms: number;
}

/** The runs' error check ids, distinct and sorted. */
export const errorsOf = (results: ScenarioResult[]) => checksOf(results, "error");
/** The runs' warning check ids, distinct and sorted. */
export const warningsOf = (results: ScenarioResult[]) => checksOf(results, "warning");

/**
 * The distinct error findings of a run, as its report counts them (one per cause: the report's merge across
 * scenarios and operations), for the findings-per-planted-fault figure (issue 33; `npm run measure:findings`).
 */
export const errorFindings = (results: ScenarioResult[]) =>
  buildReport({ kind: "live", baseUrl: "", strict: false, spec: "" }, [], results, { entries: [] }, 0).findings.filter(
    (f) => f.severity === "error",
  ).length + results.flatMap((r) => r.accepted).filter((f) => f.severity === "error").length;

/** Per planted fault its error findings (`errorFindings`): none above 2, on average at most 1.2. */
export function findingsPerFault(counts: Record<string, number>): { average: number; above: string[] } {
  const values = Object.values(counts);
  return {
    average: values.reduce((a, b) => a + b, 0) / Math.max(1, values.length),
    above: Object.entries(counts)
      .filter(([, n]) => n > 2)
      .map(([fault, n]) => `${fault}: ${n}`),
  };
}

/**
 * The document copy with the added operation, written once per worker process: the test files a worker runs one
 * after the other share it, and so the model loaded for it (compiled schemas included). It is under TMPDIR, which
 * npm test's global setup removes at the end of the run (a file's clean-up leaves it for the next file).
 */
let copy: string | undefined;
const documentCopy = () => {
  if (!copy || !existsSync(copy)) copy = documentWithAddedOperation(mkdtempSync(join(tmpdir(), "contract-doc-")));
  return copy;
};

/** Every error finding of `runs` that names no promise, as `check: title` (none may). */
export function errorsWithoutPromise(runs: Map<string, FaultRun>): { errors: number; unnamed: string[] } {
  const errors = [...runs.values()]
    .flatMap((r) => r.results.flatMap((x) => x.findings))
    .filter((f) => f.severity === "error");
  return { errors: errors.length, unnamed: errors.filter((f) => !f.promise).map((f) => `${f.check}: ${f.title}`) };
}

const checksOf = (results: ScenarioResult[], severity: Finding["severity"]) =>
  [...new Set(results.flatMap((r) => r.findings.filter((f) => f.severity === severity).map((f) => f.check)))].sort();

/**
 * Registers the test file's hooks: before its tests, starts the fault server, writes the document copy with the
 * added operation (each run's CONTRACT_SPEC unless its plan says otherwise) and runs every plan, four at a time;
 * after them, stops the server and removes the temporary folders. Returns the runs by name (filled before the tests).
 */
export function faultRuns(plans: (server: FaultServer) => Plan[]): Map<string, FaultRun> {
  const runs = new Map<string, FaultRun>();
  let server: FaultServer | undefined;
  beforeAll(async () => {
    server = await startFaultServer();
    const spec = documentCopy();
    const queue = [...plans(server)];
    const run = async ([name, env]: Plan) => {
      const started = performance.now();
      const settings = readSettings({
        CONTRACT_API_KEY: FAULT_SERVER_KEY,
        CONTRACT_SECOND_API_KEY: FAULT_SERVER_SECOND_KEY,
        CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" }),
        CONTRACT_SPEC: spec,
        ...env,
      });
      const { run: r, results } = await runContract(settings);
      runs.set(name, { results, requests: r.target.requestsSent(), ms: performance.now() - started });
    };
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let p = queue.shift(); p; p = queue.shift()) await run(p);
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    cleanUp();
  });
  return runs;
}
