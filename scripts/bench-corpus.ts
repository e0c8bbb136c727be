/**
 * `npm run bench:corpus`: what a contract run costs against the number of operations. Cuts of GitHub's REST
 * description (the first N operations with the components they reach; scripts/bench/documents.ts) and the
 * whole of it are each run as users run them (`npm run contract` against the embedded Prism mock), with:
 * - wall time, CPU time and peak memory (RSS summed over the run's process tree: runner, worker, Prism),
 *   sampled from /proc every 200 ms;
 * - where the time goes, measured apart in this process: reading the document (settings and model), planning
 *   the scenarios, and Prism's start; the rest of the run is sending requests and checking the answers.
 * Figures, not assertions: a markdown table, printed and written to reports/bench-corpus.md.
 *
 * GitHub's description comes from the npm package @octokit/openapi (MIT), fetched with `npm pack` into
 * .bench/corpus/ on first use (BENCH_GITHUB_SPEC names a copy instead). Environment: BENCH_SIZES (default
 * "10,50,200,1000,all"), BENCH_MAX_REQUESTS (the run's CONTRACT_MAX_REQUESTS, default 1000000: a whole
 * verdict), BENCH_EXAMPLES (CONTRACT_EXAMPLES, default the mock's 10).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrism } from "../openapi/lib/prism.js";
import { ContractRun } from "../contract-tests/cli/contract-run.js";
import { readSettings } from "../contract-tests/config/settings.js";
import type { RunReport } from "../contract-tests/report/render.js";
import { countOperations, firstOperations } from "./bench/documents.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CACHE = join(ROOT, ".bench/corpus");
const OCTOKIT = "@octokit/openapi@23.0.2";
/** `npm run contract`'s command: the suite's entry through scripts/launch.mjs (bundled once, reused). */
const LAUNCH = [join(ROOT, "scripts/launch.mjs"), "contract-tests/cli/run.ts"];

/** GitHub's description: BENCH_GITHUB_SPEC, the cached copy, or fetched with npm pack. */
function githubDescription(): string {
  if (process.env.BENCH_GITHUB_SPEC) return process.env.BENCH_GITHUB_SPEC;
  const file = join(CACHE, "api.github.com.json");
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  console.error(`bench:corpus: fetching ${OCTOKIT} (npm pack) for GitHub's description...`);
  const tgz = execFileSync("npm", ["pack", OCTOKIT, "--silent", "--pack-destination", CACHE], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  execFileSync("tar", [
    "-xzf",
    join(CACHE, tgz),
    "-C",
    CACHE,
    "--strip-components=2",
    "package/generated/api.github.com.json",
  ]);
  return file;
}

/** Every process of the tree under `pid` (itself included), from /proc. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (const stack = [pid]; stack.length > 0; ) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

const TICKS = 100; // clock ticks per second (Linux USER_HZ)

/** RSS (bytes) and CPU time (s) of one process, or undefined when it is gone. */
function sample(pid: number): { rss: number; cpu: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8").slice(0).split(") ")[1]!.split(" ");
    const rssPages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return { rss: rssPages * 4096, cpu: (Number(stat[11]) + Number(stat[12])) / TICKS };
  } catch {
    return undefined;
  }
}

/** Requests and scenario seconds summed per phase, from the run's progress lines. */
type PhaseFigures = Map<string, { scenarios: number; requests: number; seconds: number }>;

/**
 * `[ 3/26] ✓ createSitemapRequest › negative (11 requests, 0 errors, 0 warnings, 0.3 s)`: phase, requests, seconds.
 */
const PROGRESS = /^\[\s*\d+\/\d+\] \S+ \S+ › ([^\s/(]+)\S* \((\d+) requests?, .*?([\d.]+) (m?s)\)/;

interface RunFigures {
  code: number | null;
  wallS: number;
  cpuS: number;
  /** CPU seconds by process: Prism's processes, the suite's. */
  cpuByProcess: { prism: number; suite: number };
  phases: PhaseFigures;
  peakRssMb: number;
  report: RunReport | undefined;
}

/** Runs `npm run contract` on `spec` and samples its process tree. */
function measureRun(spec: string, reportsDir: string): Promise<RunFigures> {
  const env = {
    ...process.env,
    CONTRACT_SPEC: spec,
    CONTRACT_REPORTS_DIR: reportsDir,
    CONTRACT_MAX_REQUESTS: process.env.BENCH_MAX_REQUESTS ?? "1000000",
    ...(process.env.BENCH_EXAMPLES ? { CONTRACT_EXAMPLES: process.env.BENCH_EXAMPLES } : {}),
  };
  const started = Date.now();
  const child = spawn(process.execPath, LAUNCH, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let peak = 0;
  const cpu = new Map<number, number>();
  const prismPids = new Set<number>();
  const timer = setInterval(() => {
    let rss = 0;
    for (const pid of tree(child.pid!)) {
      const s = sample(pid);
      if (!s) continue;
      rss += s.rss;
      cpu.set(pid, s.cpu);
      if (!prismPids.has(pid) && pid !== child.pid && isPrism(pid)) prismPids.add(pid);
    }
    peak = Math.max(peak, rss);
  }, 200);
  child.stderr.on("data", (b: Buffer) => process.stderr.write(b));
  const phases: PhaseFigures = new Map();
  let pending = "";
  child.stdout.on("data", (b: Buffer) => {
    pending += b.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const m = PROGRESS.exec(line);
      if (!m) continue;
      const f = phases.get(m[1]!) ?? { scenarios: 0, requests: 0, seconds: 0 };
      f.scenarios++;
      f.requests += Number(m[2]);
      f.seconds += Number(m[3]) / (m[4] === "ms" ? 1000 : 1);
      phases.set(m[1]!, f);
    }
  });
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearInterval(timer);
      let report: RunReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportsDir, "contract-report.json"), "utf8")) as RunReport;
      } catch {
        report = undefined;
      }
      resolve({
        code,
        wallS: (Date.now() - started) / 1000,
        cpuS: [...cpu.values()].reduce((a, b) => a + b, 0),
        cpuByProcess: {
          prism: [...cpu].filter(([pid]) => prismPids.has(pid)).reduce((a, [, c]) => a + c, 0),
          suite: [...cpu].filter(([pid]) => !prismPids.has(pid)).reduce((a, [, c]) => a + c, 0),
        },
        phases,
        peakRssMb: peak / 1e6,
        report,
      });
    }),
  );
}

/** A Prism process of the run (its command line names @stoplight/prism-cli). */
function isPrism(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("prism");
  } catch {
    return false;
  }
}

/** Reading the document and planning, in this process, as the runner does them. */
function measurePlan(spec: string): { loadS: number; planS: number; scenarios: number } {
  const t0 = performance.now();
  const settings = { ...readSettings({ CONTRACT_SPEC: spec }), baseUrl: "http://127.0.0.1:9" };
  const t1 = performance.now();
  const scenarios = new ContractRun(settings).scenarios().length;
  const t2 = performance.now();
  return { loadS: (t1 - t0) / 1000, planS: (t2 - t1) / 1000, scenarios };
}

async function measurePrism(spec: string): Promise<number> {
  const started = performance.now();
  const prism = await startPrism({ spec, startTimeoutMs: 900_000 });
  const s = (performance.now() - started) / 1000;
  await prism.stop();
  return s;
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);

async function main(): Promise<void> {
  const source = githubDescription();
  const doc = JSON.parse(readFileSync(source, "utf8")) as Record<string, unknown>;
  const total = countOperations(doc);
  const sizes = (process.env.BENCH_SIZES ?? "10,50,200,1000,all")
    .split(",")
    .map((s) => (s.trim() === "all" ? total : Number(s)));
  mkdirSync(CACHE, { recursive: true });
  const rows: string[] = [];
  const phaseRows: string[] = [];
  for (const n of sizes) {
    const spec = n >= total ? source : join(CACHE, `github-${n}.json`);
    if (n < total) writeFileSync(spec, JSON.stringify(firstOperations(doc, n)));
    const mb = statSync(spec).size / 1e6;
    console.error(`bench:corpus: ${n} operations (${fixed(mb)} MB)...`);
    const plan = measurePlan(spec);
    const prismS = await measurePrism(spec);
    const run = await measureRun(spec, join(CACHE, `reports-${n}`));
    const s = run.report?.summary;
    const rest = run.wallS - plan.loadS - plan.planS - prismS;
    rows.push(
      `| ${n} | ${fixed(mb)} | ${fixed(plan.loadS, 2)} | ${fixed(plan.planS, 2)} | ${fixed(prismS)} | ${fixed(rest)} ` +
        `| **${fixed(run.wallS)}** | ${fixed(run.cpuS)} | ${fixed(run.cpuS / n, 2)} ` +
        `| **${Math.round(run.peakRssMb)}** ` +
        `| ${plan.scenarios} | ${s?.requests ?? "-"} | ${run.report?.verdict ?? "none"} (exit ${run.code}) |`,
    );
    console.error(rows.at(-1));
    phaseRows.push(
      `| ${n} | CPU (s): Prism ${fixed(run.cpuByProcess.prism)}, the suite ${fixed(run.cpuByProcess.suite)} | | | |`,
      ...[...run.phases]
        .sort((a, b) => b[1].requests - a[1].requests)
        .map(([phase, f]) => `| ${n} | ${phase} | ${f.scenarios} | ${f.requests} | ${fixed(f.seconds)} |`),
    );
  }
  const table = [
    `Corpus benchmark: cuts of GitHub's REST description (${OCTOKIT}, ${total} operations), each run with \`npm ` +
      `run contract\` against the Prism mock on ${process.env.BENCH_HOST ?? "this machine"} (load average at ` +
      `the end ${fixed(Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]))}).`,
    "",
    "| operations | MB | read document (s) | plan (s) | Prism start (s) | the rest: processes starting, " +
      "requests, checks, reports (s) | wall (s) | CPU (s, all processes) | CPU per operation (s) | peak RSS (MB, " +
      "all processes) | scenarios | requests | verdict |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "By phase (from the run's progress lines; seconds are the scenarios' own, overlapping with several workers) " +
      "and CPU by process:",
    "",
    "| operations | phase | scenarios | requests | scenario seconds |",
    "|---|---|---|---|---|",
    ...phaseRows,
  ].join("\n");
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  writeFileSync(join(ROOT, "reports/bench-corpus.md"), `${table}\n`);
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(`bench:corpus: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
