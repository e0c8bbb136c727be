/**
 * `npm run measure:findings`: how many error findings each planted fault of the fault servers is (issue 33: one
 * finding per cause). Runs the suite (in this process, the engine `npm run contract` uses) against every variant of
 * the three catalogues, each with the settings its self-test gives it (the phases that reach it): the default
 * server's FAULTS, the CRUD server's CRUD_FAULTS (on its document without and with links) and the accounts
 * server's ACCOUNTS_FAULTS. A variant's figure is the run's distinct error findings (the report's merge, with no
 * baseline). Prints a table (fault, error findings, their checks), the average and the largest, and the faults no
 * longer caught (no error). `MEASURE_VERBOSE=1` lists each finding of a variant with more than one. `MEASURE_ONLY`
 * (a comma-separated list of catalogue names: faults, crud, accounts) runs only those. The exit code is 1 when the
 * average is above 1.2, a fault is above 2 or a fault is not caught.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runContract } from "../contract-tests/cli/contract-run.js";
import { readSettings } from "../contract-tests/config/settings.js";
import { startAccountsServer } from "../contract-tests/fault-server/accounts.js";
import { writeAccountsDocument } from "../contract-tests/fault-server/accounts-document.js";
import {
  ACCOUNTS_FAULTS,
  ACCOUNTS_PHASES,
  type AccountsFault,
} from "../contract-tests/fault-server/accounts-faults.js";
import { ACCOUNTS } from "../contract-tests/fault-server/accounts-store.js";
import { CRUD_FAULTS, CRUD_SERVER_KEY, type CrudFault, startCrudServer } from "../contract-tests/fault-server/crud.js";
import { writeCrudDocument } from "../contract-tests/fault-server/crud-document.js";
import { FAULTS, type Fault } from "../contract-tests/fault-server/faults.js";
import { FAULT_SERVER_KEY, FAULT_SERVER_SECOND_KEY, startFaultServer } from "../contract-tests/fault-server/server.js";
import { documentWithAddedOperation } from "../contract-tests/fixtures/document-copy.js";
import type { ScenarioResult } from "../contract-tests/model/types.js";
import { buildReport, type ReportedFinding } from "../contract-tests/report/render.js";

const dir = mkdtempSync(join(tmpdir(), "findings-per-fault-"));
const VERBOSE = process.env.MEASURE_VERBOSE === "1";
const ONLY = process.env.MEASURE_ONLY?.split(",");

interface Row {
  catalogue: string;
  variant: string;
  errors: ReportedFinding[];
}

/** The distinct error findings of a run, as its report counts them (no baseline). */
function errorsOf(results: ScenarioResult[]): ReportedFinding[] {
  const all = results.map((r) => ({ ...r, findings: [...r.findings, ...r.accepted], accepted: [] }));
  return buildReport(
    { kind: "live", baseUrl: "", strict: false, spec: "" },
    [],
    all,
    { entries: [] },
    0,
  ).findings.filter((f) => f.severity === "error");
}

async function pool<T>(jobs: Array<() => Promise<T>>, width = 3): Promise<T[]> {
  const out: T[] = [];
  const queue = jobs.map((job, i) => [job, i] as const);
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) out[next[1]] = await next[0]();
    }),
  );
  return out;
}

const noBaseline = () => join(dir, "no-baseline.json");

async function defaultServer(): Promise<Row[]> {
  const server = await startFaultServer();
  const spec = documentWithAddedOperation(mkdtempSync(join(dir, "doc-")));
  try {
    return await pool(
      (Object.entries(FAULTS) as Array<[Fault, (typeof FAULTS)[Fault]]>).map(([fault, e]) => async () => {
        const settings = readSettings({
          CONTRACT_API_KEY: FAULT_SERVER_KEY,
          CONTRACT_SECOND_API_KEY: FAULT_SERVER_SECOND_KEY,
          CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" }),
          CONTRACT_SPEC: spec,
          CONTRACT_BASE_URL: server.baseUrl(fault),
          CONTRACT_PHASES: e.phases.join(","),
          CONTRACT_BASELINE: noBaseline(),
          CONTRACT_REPORTS_DIR: mkdtempSync(join(dir, "r-")),
          ...("strict" in e ? { CONTRACT_STRICT: "1" } : {}),
          ...("timeoutMs" in e ? { CONTRACT_TIMEOUT_MS: String(e.timeoutMs) } : {}),
        });
        const { results } = await runContract(settings);
        return { catalogue: "faults", variant: fault, errors: errorsOf(results) };
      }),
    );
  } finally {
    await server.stop();
  }
}

async function crudServer(): Promise<Row[]> {
  const server = await startCrudServer();
  try {
    const jobs = [false, true].flatMap((links) => {
      const spec = writeCrudDocument(mkdtempSync(join(dir, "crud-")), links);
      return (Object.keys(CRUD_FAULTS) as CrudFault[]).map((fault) => async () => {
        const hostile = (CRUD_FAULTS[fault].phases as readonly string[]).includes("hostile");
        const settings = readSettings({
          CONTRACT_SPEC: spec,
          CONTRACT_BASE_URL: server.baseUrl(fault),
          CONTRACT_API_KEY: CRUD_SERVER_KEY,
          CONTRACT_EXAMPLES: "2",
          // The hostile faults' self-test runs every phase (hostile-runs.test.ts); the others only theirs.
          ...(hostile ? {} : { CONTRACT_PHASES: CRUD_FAULTS[fault].phases.join(",") }),
          CONTRACT_BASELINE: noBaseline(),
          CONTRACT_REPORTS_DIR: mkdtempSync(join(dir, "r-")),
        });
        const { results } = await runContract(settings);
        return { catalogue: `crud ${links ? "with" : "without"} links`, variant: fault, errors: errorsOf(results) };
      });
    });
    return await pool(jobs);
  } finally {
    await server.stop();
  }
}

async function accountsServer(): Promise<Row[]> {
  const server = await startAccountsServer({ freezeMs: 2500, tokenUses: 12 });
  try {
    return await pool(
      (Object.keys(ACCOUNTS_FAULTS) as AccountsFault[]).map((fault) => async () => {
        const spec = writeAccountsDocument(mkdtempSync(join(dir, "accounts-")), { links: true });
        const settings = readSettings({
          CONTRACT_SPEC: spec,
          CONTRACT_BASE_URL: server.baseUrl(fault),
          CONTRACT_USERNAME: ACCOUNTS.first.username,
          CONTRACT_PASSWORD: ACCOUNTS.first.password,
          CONTRACT_SECOND_USERNAME: ACCOUNTS.second.username,
          CONTRACT_SECOND_PASSWORD: ACCOUNTS.second.password,
          CONTRACT_PHASES: ACCOUNTS_PHASES[fault],
          CONTRACT_BASELINE: noBaseline(),
          CONTRACT_REPORTS_DIR: mkdtempSync(join(dir, "r-")),
          ...(fault.startsWith("redos-email") ? { CONTRACT_TIMEOUT_MS: "1000" } : {}),
          ...("strict" in ACCOUNTS_FAULTS[fault] ? { CONTRACT_STRICT: "1" } : {}),
        });
        const { results } = await runContract(settings);
        return { catalogue: "accounts", variant: fault, errors: errorsOf(results) };
      }),
    );
  } finally {
    await server.stop();
  }
}

const CATALOGUES: Record<string, () => Promise<Row[]>> = {
  faults: defaultServer,
  crud: crudServer,
  accounts: accountsServer,
};

async function main(): Promise<number> {
  const rows: Row[] = [];
  for (const [name, run] of Object.entries(CATALOGUES)) if (!ONLY || ONLY.includes(name)) rows.push(...(await run()));
  const lines = ["| catalogue | planted fault | error findings | checks |", "|---|---|---|---|"];
  for (const r of rows) {
    const checks = [...new Set(r.errors.map((f) => f.check))].sort().join(", ");
    lines.push(`| ${r.catalogue} | ${r.variant} | ${r.errors.length} | ${checks} |`);
    if (VERBOSE && r.errors.length > 1)
      for (const f of r.errors)
        lines.push(
          `|  |  |  | ${f.operation} ${f.check} ${f.rule ?? ""}: ${f.title} [${f.signature ?? ""}] x${f.count ?? 1} |`,
        );
  }
  const counts = rows.map((r) => r.errors.length);
  const average = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
  const above = rows.filter((r) => r.errors.length > 2).map((r) => `${r.catalogue}: ${r.variant}`);
  // A fault caught only under strict is run strict: each must give at least one error.
  const missed = rows.filter((r) => r.errors.length === 0).map((r) => `${r.catalogue}: ${r.variant}`);
  lines.push(
    "",
    `${rows.length} planted faults (variants), ${counts.reduce((a, b) => a + b, 0)} error findings: ` +
      `${average.toFixed(2)} per fault on average, at most ${Math.max(0, ...counts)}`,
    `above 2: ${above.join("; ") || "none"}`,
    `not caught (no error): ${missed.join("; ") || "none"}`,
  );
  console.log(lines.join("\n"));
  return average > 1.2 || above.length > 0 || missed.length > 0 ? 1 : 0;
}

main()
  .then((code) => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(2);
  });
