/**
 * The command line's output reaches a slow reader whole. A CI runner, `| tee` or a test harness busy with another
 * run reads a pipe later than the suite writes it; `process.exit` dropped what the pipe could not yet take, and the
 * report's last lines (the verdict and the `N passed, N failed, N skipped` line among them) were lost while the
 * exit code said the run had ended well. Seen in CI on a 58 kB report; here a dry run writes some 190 kB into a
 * pipe nobody reads until the process has exited or has stopped writing for a while.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { cleanUp, tempDir } from "./support/spawn.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");
const OPERATIONS = 2000;

afterAll(() => cleanUp());

/** A document with `count` operations, each planned as several scenarios (a line each in a dry run). */
function manyOperations(count: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++)
    paths[`/items${i}`] = {
      get: { operationId: `listItems${i}`, responses: { "200": { description: "OK" } } },
    };
  const file = join(tempDir("contract-flush-"), "many.json");
  writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: "many", version: "1" }, paths }));
  return file;
}

it("a report larger than a pipe holds arrives whole when its reader is slow, ending with its last line", async () => {
  const child = spawn(process.execPath, [TSX, "contract-tests/cli/run.ts", "--dry-run"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, CONTRACT_SPEC: manyOperations(OPERATIONS) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.pause(); // nobody reads: the pipe fills, and the writer has to wait
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  let errors = "";
  child.stderr.on("data", (b: Buffer) => (errors += b.toString()));
  let exited = false;
  child.on("exit", () => (exited = true));
  // Read again once the process has exited (what process.exit did at once) or has been still for a second with
  // the pipe full (what a process waiting for its reader does).
  await new Promise<void>((resolve) => {
    let last = -1;
    let still = 0;
    const poll = setInterval(() => {
      const held = child.stdout.readableLength;
      still = held > 0 && held === last ? still + 1 : 0;
      last = held;
      if (exited || still >= 10) {
        clearInterval(poll);
        resolve();
      }
    }, 100);
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(errors).toBe("");
  expect(code).toBe(0);
  const lines = output.trimEnd().split("\n");
  expect(output.length).toBeGreaterThan(150_000);
  const planned = /^(\d+) scenarios planned:$/m.exec(output);
  expect(planned, output.slice(-500)).not.toBeNull();
  // Every planned scenario's line arrived, the last operation's last scenario the last line.
  expect(lines.filter((l) => l.startsWith("  ")).length).toBeGreaterThanOrEqual(Number(planned![1]));
  expect(lines.at(-1)).toMatch(new RegExp(`^ {2}listItems${OPERATIONS - 1}/`));
});
