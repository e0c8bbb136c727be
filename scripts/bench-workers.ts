/**
 * `npm run bench:workers`: what `--workers` buys, measured as a user meets it, and whether the verdict stays the same:
 * - live: the fault server's conforming variant behind a proxy that holds each request BENCH_DELAY_MS (default 50)
 *   before passing it on, a staging server across a network; a fresh server for each run;
 * - mock: the embedded Prism mock of openapi/openapi.yaml.
 * Each run is the whole command, `npm run contract` spawned as a process (its start-up, reading the document,
 * Prism's start for the mock, the requests, the reports), timed from the spawn to its exit; its verdict is read from
 * the JSON report it writes. BENCH_ENGINE=1 measures instead the engine alone, in this process (runContract, one Prism
 * for every mock run): what the executor itself gains.
 * For each number of workers in BENCH_WORKERS (default 1,2,4,8,16, and the default of each kind), in BENCH_ROUNDS
 * (default 3) alternating rounds after one run to warm up: the median wall time, the requests sent, the speed-up over
 * one worker and whether the report (the verdict, every finding and skipped scenario, in order; in process: every
 * scenario's status and findings) is the one of one worker. The target of issues 27 and 34: the default at least 3x
 * faster than one worker against the delayed server, with the same verdict. Figures, not assertions: a markdown
 * table, printed and written to reports/bench-workers.md; the exit code is 0 when every run ran, whatever the figures.
 * BENCH_KINDS=live or mock measures one kind only.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrism } from "../openapi/lib/prism.js";
import { runContract } from "../contract-tests/cli/contract-run.js";
import { DEFAULT_WORKERS } from "../contract-tests/config/options.js";
import { readSettings, type Settings } from "../contract-tests/config/settings.js";
import { FAULT_SERVER_KEY, FAULT_SERVER_SECOND_KEY, startFaultServer } from "../contract-tests/fault-server/server.js";
import { alternatingOrder, renderTable, round, type Row } from "./bench/helpers.js";
import { reportSignature, signatureDiff, verdictSignature } from "../contract-tests/report/signature.js";
import type { RunReport } from "../contract-tests/report/render.js";
import { startDelayProxy } from "./bench/workers.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4,8,16").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENGINE = process.env.BENCH_ENGINE === "1";
const KINDS = (process.env.BENCH_KINDS ?? "live,mock").split(",");
const reports = mkdtempSync(join(tmpdir(), "bench-workers-"));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

interface Measured {
  workers: number;
  ms: number;
  requests: number;
  signature: string[];
}

/** Every count's runs of one kind, and the verdict they are held to (one worker's, warmed up). */
interface Measurement {
  reference: string[];
  runs: Measured[];
}

/** The engine alone, in this process. */
async function timedEngine(settings: Settings): Promise<Omit<Measured, "workers">> {
  const started = performance.now();
  const { run, results } = await runContract(settings);
  return { ms: performance.now() - started, requests: run.target.requestsSent(), signature: verdictSignature(results) };
}

let runs = 0;

/**
 * The whole command as a user runs it: `npm run contract` spawned with `env` (and a reports folder of its own),
 * timed from the spawn to its exit; the verdict read from its JSON report. Exit 0 or 1 (findings) is a run.
 */
async function timedProcess(env: Record<string, string>): Promise<Omit<Measured, "workers">> {
  const dir = join(reports, `run-${++runs}`);
  const started = performance.now();
  const child = spawn(NPM, ["run", "-s", "contract"], {
    cwd: ROOT,
    env: { ...process.env, ...env, CONTRACT_REPORTS_DIR: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  const ms = performance.now() - started;
  if (code !== 0 && code !== 1) throw new Error(`npm run contract exited ${code}: ${stderr}`);
  const report = JSON.parse(readFileSync(join(dir, "contract-report.json"), "utf8")) as RunReport;
  rmSync(dir, { recursive: true, force: true });
  return { ms, requests: report.summary.requests, signature: reportSignature(report) };
}

/** One live run: a fresh fault server (its state is the run's own) behind the delay proxy. */
async function live(workers: number): Promise<Measured> {
  const server = await startFaultServer();
  const upstream = new URL(server.baseUrl());
  const proxy = await startDelayProxy(upstream.origin, DELAY_MS);
  try {
    const env = {
      CONTRACT_BASE_URL: proxy.url + upstream.pathname,
      CONTRACT_API_KEY: FAULT_SERVER_KEY,
      CONTRACT_SECOND_API_KEY: FAULT_SERVER_SECOND_KEY,
      CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" }),
      CONTRACT_WORKERS: String(workers),
      CONTRACT_REPORTS_DIR: reports,
    };
    return { workers, ...(ENGINE ? await timedEngine(readSettings(env)) : await timedProcess(env)) };
  } finally {
    await proxy.close();
    await server.stop();
  }
}

/** Every count of workers to measure: BENCH_WORKERS and the default, each once, in order. */
const counts = (fallback: number) => [...new Set([...WORKERS, fallback])].sort((a, b) => a - b);

function rows(kind: string, { reference, runs }: Measurement, fallback: number): Row[] {
  const one = runs[0]!;
  return runs.map((m) => {
    const differs = signatureDiff(reference, m.signature);
    const speedup = one.ms / m.ms;
    const isDefault = m.workers === fallback;
    return {
      measure: `${kind}: --workers ${m.workers}${isDefault ? " (the default)" : ""}`,
      value:
        `${round(m.ms / 1000, 2)} s, ${m.requests} requests, ${round(speedup, 2)}x one worker, ` +
        (differs.length ? `another verdict (${differs.join(" ")})` : "the same verdict"),
      target: isDefault && kind.startsWith("live") ? ">= 3x one worker, the same verdict" : "the same verdict",
      ok: differs.length === 0 && (!isDefault || !kind.startsWith("live") || speedup >= 3),
    };
  });
}

/**
 * Runs `run` once with the fewest workers to warm up (its verdict the reference), then every count in ROUNDS
 * alternating rounds (forward, then backward, so no count always runs first); keeps each count's median time, and
 * the first verdict of its runs that is not the reference's (else the reference).
 */
async function measure(
  kind: string,
  fallback: number,
  run: (workers: number) => Promise<Measured>,
): Promise<Measurement> {
  const all = counts(fallback);
  const reference = (await run(all[0]!)).signature;
  const seen = new Map<number, Measured[]>(all.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const n of alternatingOrder(all, r)) {
      const m = await run(n);
      seen.get(n)!.push(m);
      console.error(`bench:workers: ${kind}, round ${r + 1}, ${n} worker(s): ${round(m.ms / 1000, 2)} s`);
    }
  const runs = all.map((n) => {
    const ms = seen
      .get(n)!
      .map((m) => m.ms)
      .sort((a, b) => a - b);
    // Every run against the warm-up's (one worker's) verdict: a count shows the first one that differs.
    const other = seen.get(n)!.find((m) => signatureDiff(reference, m.signature).length > 0);
    return { ...seen.get(n)![0]!, ms: ms[ms.length >> 1]!, signature: other?.signature ?? reference };
  });
  return { reference, runs };
}

/** The mock runs: as a process, each its own Prism (as `npm run contract` starts it); in process, one Prism for all. */
async function mock(mockDefault: number): Promise<Measurement> {
  if (!ENGINE)
    return measure("mock", mockDefault, async (n) => ({
      workers: n,
      ...(await timedProcess({ CONTRACT_WORKERS: String(n) })),
    }));
  const prism = await startPrism({});
  try {
    return await measure("mock", mockDefault, async (n) => {
      const settings = {
        ...readSettings({ CONTRACT_WORKERS: String(n), CONTRACT_REPORTS_DIR: reports }),
        baseUrl: prism.url,
      };
      return { workers: n, ...(await timedEngine(settings)) };
    });
  } finally {
    await prism.stop();
  }
}

async function main(): Promise<void> {
  const { live: liveDefault, mock: mockDefault } = DEFAULT_WORKERS;
  const how = ENGINE ? "the engine in process" : "npm run contract as a process";
  const table: Row[] = [];
  if (KINDS.includes("live"))
    table.push(
      ...rows(`live (${DELAY_MS} ms a request), ${how}`, await measure("live", liveDefault, live), liveDefault),
    );
  if (KINDS.includes("mock")) table.push(...rows(`mock (Prism), ${how}`, await mock(mockDefault), mockDefault));
  const text = `# bench:workers\n\n${renderTable(table)}\n`;
  console.log(text);
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  writeFileSync(join(ROOT, "reports/bench-workers.md"), text);
}

main()
  .catch((err: unknown) => {
    console.error(`bench:workers: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(reports, { recursive: true, force: true }));
