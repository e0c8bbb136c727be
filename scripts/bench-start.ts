/**
 * `npm run bench:start`: how long the repository's command line takes to start, as a user starts it (issue 34).
 * In BENCH_ROUNDS (default 7) alternating rounds, each a fresh process, the wall time of:
 * - `npm run contract -- --help` (scripts/launch.mjs: the bundle built once and reused while the sources are
 *   unchanged; built before the rounds, so the rounds measure the reuse);
 * - `npm run` of a script that does nothing (`true`, in a package of its own): npm's own start, the floor;
 * - the entry under tsx's loader (what `npm run contract` ran before), and the shipped bundle (`dist/contract-cli.js`,
 *   when `npm run build` made it), for reference.
 * And once: the first start after a source edit (a cache of its own, empty: the whole build, then the run).
 * The target: the contract's median within 0.5 s of the no-op's. Figures, not assertions: a markdown table, printed
 * and written to reports/bench-start.md; the exit code is 0 when every start ran.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alternatingOrder, renderTable, round, type Row } from "./bench/helpers.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const noop = mkdtempSync(join(tmpdir(), "bench-start-"));
writeFileSync(join(noop, "package.json"), JSON.stringify({ name: "noop", private: true, scripts: { noop: "true" } }));

interface Start {
  name: string;
  command: string;
  argv: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** CPU seconds (user + system) of this process's waited-for children so far (Linux /proc; 0 elsewhere). */
function childrenCpu(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of each start (every process it ran: npm, the shell, node), by name. */
const cpuOf = new Map<string, number[]>();

/** Wall time of one start, in seconds; throws when it did not exit 0. */
function time({ argv, cwd, env, name }: Start): number {
  const cpu = childrenCpu();
  const started = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
  const s = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`${name} exited ${r.status ?? r.signal}: ${r.stderr.slice(0, 500)}`);
  cpuOf.set(name, [...(cpuOf.get(name) ?? []), childrenCpu() - cpu]);
  return s;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function main(): void {
  const tsx = join(ROOT, "node_modules/tsx/dist/cli.mjs");
  const contract: Start = {
    name: "contract",
    command: "npm run contract -- --help",
    argv: [NPM, "run", "-s", "contract", "--", "--help"],
    cwd: ROOT,
  };
  const none: Start = { name: "noop", command: "npm run noop (`true`)", argv: [NPM, "run", "-s", "noop"], cwd: noop };
  const starts: Start[] = [
    contract,
    none,
    {
      name: "tsx",
      command: "node tsx contract-tests/cli/run.ts --help (before)",
      argv: [process.execPath, tsx, "contract-tests/cli/run.ts", "--help"],
      cwd: ROOT,
    },
  ];
  if (existsSync(join(ROOT, "dist/contract-cli.js")))
    starts.push({
      name: "dist",
      command: "node dist/contract-cli.js --help (the shipped bundle)",
      argv: [process.execPath, "dist/contract-cli.js", "--help"],
      cwd: ROOT,
    });
  time(contract); // builds the bundle if the sources changed since the last start
  const seen = new Map<string, number[]>(starts.map((s) => [s.name, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const s of alternatingOrder(starts, r)) {
      const t = time(s);
      seen.get(s.name)!.push(t);
      console.error(`bench:start: round ${r + 1}, ${s.command}: ${round(t, 2)} s`);
    }
  const cache = join(noop, "cache");
  mkdirSync(cache);
  const cold = time({ ...contract, name: "cold", env: { WEBAUTO_LAUNCH_CACHE: cache } });
  const m = (name: string) => median(seen.get(name)!);
  const gap = m("contract") - m("noop");
  const rows: Row[] = [
    ...starts.map((s) => ({
      measure: s.command,
      value: `median ${round(m(s.name), 2)} s (${round(Math.min(...seen.get(s.name)!), 2)}–${round(
        Math.max(...seen.get(s.name)!),
        2,
      )}, ${ROUNDS} runs); CPU ${round(median(cpuOf.get(s.name)!.slice(1)), 2)} s`,
      target: s === contract ? "within 0.5 s of npm run noop" : "",
      ...(s === contract ? { ok: gap <= 0.5 } : {}),
    })),
    {
      measure: "npm run contract -- --help minus npm run noop (medians)",
      value: `${round(gap, 2)} s`,
      target: "≤ 0.5 s",
      ok: gap <= 0.5,
    },
    {
      measure: "npm run contract -- --help after a source edit (the build, then the run)",
      value: `${round(cold, 2)} s`,
      target: "",
    },
  ];
  const text = `# bench:start\n\n${renderTable(rows)}\n`;
  console.log(text);
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  writeFileSync(join(ROOT, "reports/bench-start.md"), text);
}

try {
  main();
} catch (err) {
  console.error(`bench:start: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  rmSync(noop, { recursive: true, force: true });
}
