import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs");
const FIXTURES = join(ROOT, "scripts/test/fixtures/summary");

function runFixture(file: string): { status: number | null; lastLine: string } {
  const res = spawnSync(process.execPath, [VITEST, "run", "--config", join(FIXTURES, "vitest.config.ts"), file], {
    cwd: FIXTURES,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, CI: "" },
  });
  const lines = res.stdout.trim().split("\n");
  return { status: res.status, lastLine: lines[lines.length - 1] ?? "" };
}

test("the reporter closes a run with the plain `N passed, N failed, N skipped` line CI reads", () => {
  const { status, lastLine } = runFixture("mixed.fixture.ts");
  expect(status).toBe(1);
  expect(lastLine).toBe("1 passed, 1 failed, 1 skipped");
});

test("a module that fails to load counts as a failure, not as nothing", () => {
  const { status, lastLine } = runFixture("broken.fixture.ts");
  expect(status).toBe(1);
  expect(lastLine).toBe("0 passed, 1 failed, 0 skipped");
});

test("a failing beforeAll counts as a failure even though its tests are only skipped", () => {
  const { status, lastLine } = runFixture("hook.fixture.ts");
  expect(status).toBe(1);
  expect(lastLine).toBe("0 passed, 1 failed, 1 skipped");
});
