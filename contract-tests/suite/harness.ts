/** What every contract test file shares: settings, the target, and the verdict that runs checks and records findings. */
import { basename } from "node:path";
import type { TestContext } from "vitest";
import { readSettings } from "../config.js";
import { createTarget } from "../target.js";
import { RESPONSE_CHECKS, runChecks, type CheckId } from "../checks/index.js";
import { appendRecords, formatViolation, type RecordLine } from "../report.js";
import { redact } from "../redact.js";
import { schemaExample } from "../requests.js";
import type { CheckContext, Exchange, OperationId, Violation } from "../types.js";

/** The validated settings of this run (the mock uses the document example's schema id). */
export const settings = readSettings(process.env, schemaExample().id);

/** The server under test. */
export const target = createTarget(settings);

/** True against the Prism mock, whose answers do not depend on state or input. */
export const isMock = settings.kind === "mock";

/** The reason printed for checks that only a real server's state can answer. */
export const NEEDS_LIVE = "skipped: needs a live target";

/** At most this many distinct warnings are attached to one test as annotations. */
const MAX_WARNING_ANNOTATIONS = 20;

/** Checks that gate themselves on the intent of the request, so they run on every exchange. */
const INTENT_CHECKS: CheckId[] = ["positive_data_acceptance", "negative_data_rejection", "ignored_auth"];

function recordFile(t: TestContext): string {
  return `${basename(t.task.file.name).replace(/\W+/g, "-")}-${process.pid}`;
}

/** Collects the violations of one test; `finish()` records them and fails the test on any error. */
export class Verdict {
  readonly violations: Violation[] = [];
  constructor(private readonly t: TestContext) {}

  /**
   * Runs the response checks, the intent checks and the given semantic checks on an exchange; returns it.
   * The default intent is "acceptance": every valid request must be accepted, not only documented.
   */
  check(ex: Exchange, ids: ReadonlyArray<CheckId> = [], ctx: Partial<CheckContext> = {}): Exchange {
    const all = new Set<CheckId>([...RESPONSE_CHECKS, ...INTENT_CHECKS, ...ids]);
    this.violations.push(...runChecks([...all], ex, { intent: "acceptance", strict: settings.strict, ...ctx }));
    return ex;
  }

  /**
   * Records every finding, annotates the test with its warnings (they reach the JUnit file as properties),
   * and throws the formatted errors so the test fails with the report as its message.
   */
  async finish(): Promise<void> {
    const test = this.t.task.name;
    appendRecords(settings.reportsDir, recordFile(this.t), this.violations.map((violation): RecordLine => ({ kind: "violation", test, violation })), settings.apiKey);
    const warnings = new Set(this.violations.filter((v) => v.severity === "warning").map((v) => `${v.check}: ${v.title}`));
    for (const warning of [...warnings].slice(0, MAX_WARNING_ANNOTATIONS)) await this.t.annotate(redact(warning, settings.apiKey), "warning");
    const errors = this.violations.filter((v) => v.severity === "error");
    if (errors.length > 0) throw new Error(`${errors.length} contract violation(s):\n${errors.map((v) => formatViolation(v)).join("\n")}`);
  }
}

/** Starts the verdict of a test. */
export function verdict(t: TestContext): Verdict {
  return new Verdict(t);
}

/** Skips the test unless `condition` holds, recording `reason` for the report and the JUnit file. */
export async function skipUnless(t: TestContext, condition: boolean, operation: OperationId, reason: string = NEEDS_LIVE): Promise<void> {
  if (condition) return;
  appendRecords(settings.reportsDir, recordFile(t), [{ kind: "skip", test: t.task.name, operation, reason }], settings.apiKey);
  // Vitest's JUnit reporter writes a bare <skipped/>; the annotation carries the reason as a property.
  await t.annotate(reason, "skip-reason");
  t.skip(reason);
}
