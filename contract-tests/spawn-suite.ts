/** Spawns the whole contract suite (contract-tests/run.ts) with given settings and collects its outcome. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonReport } from "./report.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSX = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");

/** What one run of the suite produced. */
export interface SuiteRun {
  code: number;
  output: string;
  report: JsonReport | undefined;
  reportsDir: string;
  /** Every file written to the reports dir, concatenated (to look for leaked secrets). */
  reportFiles(): string;
}

/** Runs `npm run contract`'s entry point with `env` on top of a clean CONTRACT_* environment. */
export function runSuite(env: Record<string, string>): Promise<SuiteRun> {
  const reportsDir = mkdtempSync(join(tmpdir(), "contract-run-"));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CONTRACT_") && !k.startsWith("VITEST")));
  const child = spawn(process.execPath, [TSX, "contract-tests/run.ts"], { cwd: ROOT, env: { ...clean, CONTRACT_REPORTS_DIR: reportsDir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr.on("data", (b: Buffer) => (output += b.toString()));
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      let report: JsonReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportsDir, "contract-report.json"), "utf8")) as JsonReport;
      } catch {
        report = undefined;
      }
      const reportFiles = () => readdirSync(reportsDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => readFileSync(join(d.parentPath, d.name), "utf8")).join("\n");
      resolve({ code: code ?? 1, output, report, reportsDir, reportFiles });
    }),
  );
}

/** Runs `tasks` with at most `limit` in flight. */
export async function limited<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
