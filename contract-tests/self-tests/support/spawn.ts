/**
 * Spawns the contract suite's command line (contract-tests/cli/run.ts, what `npm run contract` and `webauto-contract`
 * run) as users run it, and collects what it produced.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RunReport } from "../../report/render.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
/**
 * tsx's loader, as `npm run mock` runs its script: the same run.ts under the same loader as `npm run contract` (the
 * tsx command), without the tsx command's own process in between (0.15 s of CPU a run, some 40 runs a test pass).
 */
const TSX_LOADER = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/loader.mjs");
const CLI = join(ROOT, "contract-tests/cli/run.ts");
/**
 * The command line bundled as the package ships it, when npm test's global setup built it
 * (scripts/test/cli-bundle.setup.ts): the same source, started in a sixth of the CPU. Otherwise run.ts under tsx.
 */
export const CLI_BUNDLE_VARIABLE = "WEBAUTO_TEST_CONTRACT_CLI";
const made: string[] = [];

/** What one run produced. */
export interface SuiteRun {
  code: number;
  output: string;
  /** Each line of output with the milliseconds after the start at which it arrived. */
  lines: Array<{ ms: number; text: string }>;
  ms: number;
  reportsDir: string;
  report: RunReport | undefined;
  /** Every file written to the reports dir, by name. */
  files(): Record<string, string>;
}

/** A temporary folder removed by {@link cleanUp}. */
export function tempDir(prefix = "contract-run-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the command line with `env` on top of a clean CONTRACT_* environment; `args` go to run.ts. `pty`: under
 * a pseudo-terminal (util-linux `script`), as in an interactive terminal; `cwd`: the working directory (where
 * the config file and the default baseline are looked for; default the project).
 */
export function runSuite(
  env: Record<string, string>,
  args: string[] = [],
  reportsDir = tempDir(),
  options: { cwd?: string; pty?: boolean; timeoutMs?: number } = {},
): Promise<SuiteRun> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("CONTRACT_") && !k.startsWith("VITEST")),
  );
  const started = Date.now();
  const bundle = process.env[CLI_BUNDLE_VARIABLE];
  const argv = bundle ? [bundle, ...args] : ["--import", pathToFileURL(TSX_LOADER).href, CLI, ...args];
  const [command, commandArgs] = options.pty
    ? ["script", ["-qfec", [process.execPath, ...argv].map(shellQuote).join(" "), "/dev/null"]]
    : [process.execPath, argv];
  const child = spawn(command as string, commandArgs as string[], {
    cwd: options.cwd ?? ROOT,
    env: { ...clean, CONTRACT_REPORTS_DIR: reportsDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A run that hangs is killed, and then fails the test that reads it (code null).
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  let output = "";
  const lines: SuiteRun["lines"] = [];
  let partial = "";
  const collect = (b: Buffer) => {
    output += b.toString();
    const parts = (partial + b.toString()).split(/\r?\n/);
    partial = parts.pop() ?? "";
    for (const text of parts) lines.push({ ms: Date.now() - started, text });
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      if (partial) lines.push({ ms: Date.now() - started, text: partial });
      let report: RunReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportsDir, "contract-report.json"), "utf8")) as RunReport;
      } catch {
        report = undefined;
      }
      const files = () =>
        Object.fromEntries(readdirSync(reportsDir).map((f) => [f, readFileSync(join(reportsDir, f), "utf8")]));
      resolve({ code: code ?? -1, output, lines, ms: Date.now() - started, reportsDir, report, files });
    }),
  );
}

/** Removes every temporary folder made by this module. */
export function cleanUp(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
