/**
 * `npm run test:corpus`: every public document of the corpus (manifest.json; provenance and licences in
 * README.md) run as users run it, `npm run contract` against the embedded Prism mock:
 * - each one runs to a verdict (exit 0, 1 or 4, the report's verdict saying the same, no internal error,
 *   every operation of the document reported) or is refused with exit 2 and a message naming the document
 *   and the place; never exit 3;
 * - the largest one, run in two shards and merged, gives the single run's verdict, findings and counts.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../report/render.js";
import { cleanUp, runSuite, tempDir, type SuiteRun } from "../self-tests/support/spawn.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");

/** One document of the corpus. */
interface Entry {
  file: string;
  /** `verdict`: it runs; `refused`: it is an invalid input (exit 2). */
  outcome: "verdict" | "refused";
  version: string;
  operations: number;
  /** The entry the shard test splits. */
  shards?: number;
}

const manifest = JSON.parse(readFileSync(join(HERE, "manifest.json"), "utf8")) as { documents: Entry[] };
const entries = manifest.documents;
/** Fewer generated requests than the mock's default: the corpus proves the runs end well, not the checks. */
const ENV = { CONTRACT_EXAMPLES: "2" };
const runs = new Map<string, SuiteRun>();
/** A run that takes longer is killed (and fails its test): minutes, for a busy 2-core machine. */
const RUN_DEADLINE_MS = 600_000;

/** Runs `tasks` two at a time (the machine has two cores). */
async function pool<T>(items: T[], work: (item: T) => Promise<void>, width = 2): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

beforeAll(async () => {
  await pool(entries, async (e) => {
    const run = await runSuite({ ...ENV, CONTRACT_SPEC: join(HERE, "documents", e.file) }, [], tempDir(), {
      timeoutMs: RUN_DEADLINE_MS,
    });
    runs.set(e.file, run);
    console.log(
      `corpus: ${e.file} (${e.version}, ${e.operations} operations): exit ` +
        `${run.code} in ${Math.round(run.ms / 1000)} ` +
        `s, ${run.report ? `${run.report.verdict}; ${run.report.summary.errors} error(s), ${run.report.summary.warnings} warning(s)${run.report.summary.failedChecks.length ? ` (${run.report.summary.failedChecks.join(", ")})` : ""}` : run.output.trim().split("\n").at(-1)}`,
    );
  });
});

afterAll(() => cleanUp());

describe("every public document of the corpus", () => {
  it.each(entries.map((e) => [e.file, e] as const))(
    "%s runs to a verdict or is refused naming the place, never an internal error",
    (_file, e) => {
      const run = runs.get(e.file)!;
      const tail = run.output.slice(-3000);
      expect(run.code, tail).not.toBe(3);
      // run.ts's own words for an internal error, and vitest's banner for an error outside any test.
      expect(/contract: internal error|Unhandled Error/.exec(run.output)?.[0], tail).toBeUndefined();
      if (e.outcome === "refused") {
        expect(run.code, tail).toBe(2);
        // The message names the document and the place: a pointer, a $ref, an operationId, or the "paths" it lacks.
        expect(run.output).toMatch(
          new RegExp(
            `contract: invalid setting: CONTRACT_SPEC: .*${e.file.replace(/\./g, "\\.")}.*(at ` +
              `"?#?/|\\$ref|operationId|under "paths")`,
          ),
        );
        return;
      }
      expect(run.code, tail).toBeOneOf([0, 1, 4]);
      const report = run.report!;
      expect(report.verdict).toBe(run.code === 0 ? "pass" : run.code === 4 ? "incomplete" : "fail");
      expect(report.internalErrors).toEqual([]);
      expect(report.operations).toHaveLength(e.operations);
      const s = report.summary.scenarios;
      expect(s.passed + s.failed + s.skipped).toBeGreaterThanOrEqual(e.operations);
      expect(run.output).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/m);
    },
  );
});

/** `npm run contract:merge` over `dirs`, into `out`. */
function merge(dirs: string[], out: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [TSX, "contract-tests/cli/merge.ts", ...dirs], {
    cwd: ROOT,
    env: { ...process.env, CONTRACT_REPORTS_DIR: out },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr.on("data", (b: Buffer) => (output += b.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

/** A report with each run's own mock address made one, and the requests (a count per process) left out. */
const comparable = (r: RunReport) =>
  JSON.parse(
    JSON.stringify({
      verdict: r.verdict,
      findings: r.findings,
      accepted: r.accepted,
      skipped: r.skipped,
      summary: { ...r.summary, requests: 0 },
      operations: r.operations,
    }).replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT"),
  ) as unknown;

describe("a sharded run of a large corpus document", () => {
  const e = entries.find((x) => x.shards)!;
  it(`${e?.file} in ${e?.shards} shards, merged, equals its single run`, async () => {
    const single = runs.get(e.file)!;
    expect(single.report, single.output.slice(-2000)).toBeDefined();
    const dirs = Array.from({ length: e.shards! }, () => tempDir("contract-shard-"));
    const shards: SuiteRun[] = [];
    await pool(
      dirs.map((dir, i) => ({ dir, i })),
      async ({ dir, i }) => {
        shards[i] = await runSuite(
          { ...ENV, CONTRACT_SPEC: join(HERE, "documents", e.file) },
          ["--shard", `${i + 1}/${e.shards}`],
          dir,
          { timeoutMs: RUN_DEADLINE_MS },
        );
      },
    );
    for (const s of shards) {
      expect(s.code, s.output.slice(-2000)).toBeOneOf([0, 1, 4]);
      expect(Object.keys(s.files())).toContain("contract-shard.json");
      expect(s.report!.operations.length).toBeLessThan(e.operations);
    }
    expect(shards.reduce((n, s) => n + s.report!.operations.length, 0)).toBe(e.operations);
    const out = tempDir("contract-merged-");
    const merged = await merge(dirs, out);
    expect(merged.code, merged.output.slice(-2000)).toBe(single.code);
    const report = JSON.parse(readFileSync(join(out, "contract-report.json"), "utf8")) as RunReport;
    expect(comparable(report)).toEqual(comparable(single.report!));
    expect(readFileSync(join(out, "contract-junit.xml"), "utf8").replace(/127\.0\.0\.1:\d+/g, "")).toBe(
      single.files()["contract-junit.xml"]!.replace(/127\.0\.0\.1:\d+/g, ""),
    );
  });
});
