/**
 * A vitest reporter that prints the plain closing line `N passed, N failed, N skipped` that CI reads
 * (vitest's own summary is not one of the formats CI recognises).
 */
import type { Reporter, TestModule } from "vitest/node";

/** Counts test cases by final state across every module of the run. */
export function countResults(modules: ReadonlyArray<TestModule>): { passed: number; failed: number; skipped: number } {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const mod of modules) {
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") counts.passed++;
      else if (state === "failed") counts.failed++;
      else counts.skipped++;
    }
  }
  return counts;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const { passed, failed, skipped } = countResults(modules);
    // A module that failed to load, or whose hook failed, can fail with no failed test case: count it
    // once, as does each unhandled error, so the line never says "0 failed" for a red run.
    const brokenModules = modules.filter(
      (m) => m.state() === "failed" && ![...m.children.allTests()].some((t) => t.result().state === "failed"),
    ).length;
    const failures = failed + unhandledErrors.length + brokenModules;
    process.stdout.write(`\n${passed} passed, ${failures} failed, ${skipped} skipped\n`);
  }
}
