/** Spawns `npm run contract`'s entry point (contract-tests/run.ts) as users run it, and collects what it produced. */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunReport } from "../../report/render.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");
const made: string[] = [];

/** What one run produced. */
export interface SuiteRun {
  code: number;
  output: string;
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

/** Runs the suite with `env` on top of a clean CONTRACT_* environment; `args` go to run.ts. */
export function runSuite(env: Record<string, string>, args: string[] = [], reportsDir = tempDir()): Promise<SuiteRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CONTRACT_") && !k.startsWith("VITEST")));
  const started = Date.now();
  const child = spawn(process.execPath, [TSX, "contract-tests/run.ts", ...args], { cwd: ROOT, env: { ...clean, CONTRACT_REPORTS_DIR: reportsDir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr.on("data", (b: Buffer) => (output += b.toString()));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      let report: RunReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportsDir, "contract-report.json"), "utf8")) as RunReport;
      } catch {
        report = undefined;
      }
      const files = () => Object.fromEntries(readdirSync(reportsDir).map((f) => [f, readFileSync(join(reportsDir, f), "utf8")]));
      resolve({ code: code ?? 1, output, ms: Date.now() - started, reportsDir, report, files });
    }),
  );
}

/** Removes every temporary folder made by this module. */
export function cleanUp(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
