/**
 * The secret scan: every error and log line a test produces is recorded through here, rendered every
 * way a user could print it (message, toString, stack, util.inspect, JSON.stringify), and each test file
 * ends by asserting the API key appears in none of them.
 */
import { inspect } from "node:util";
import { expect } from "vitest";

/** The key every test client uses; long and distinctive so a leak cannot hide. */
export const API_KEY = "sk_live_TESTKEY_9f8e7d6c5b4a3210";

const seen: string[] = [];

/** Every printable rendering of a value. */
export function renderings(value: unknown): string[] {
  const out = [
    inspect(value, { depth: 10, showHidden: false }),
    inspect(value, { depth: 10, showHidden: true }),
    String(value),
  ];
  try {
    out.push(JSON.stringify(value) ?? "");
  } catch (err) {
    out.push(`JSON.stringify threw ${String(err)}`);
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? "", value.toString());
  return out;
}

/** Records a value (an error, a client, a log line) for the scan. */
export function record(value: unknown): void {
  seen.push(...renderings(value));
}

/** Awaits a promise that must reject; records and returns the error. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    record(err);
    return err as Error;
  }
  throw new Error("expected the promise to reject");
}

/** Runs a function that must throw; records and returns the error. */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    record(err);
    return err as Error;
  }
  throw new Error("expected the function to throw");
}

/** A logger whose lines are recorded (and kept for assertions). */
export function recordingLogger(): { lines: string[]; debug(m: string): void; warn(m: string): void } {
  const lines: string[] = [];
  const push = (m: string) => {
    lines.push(m);
    record(m);
  };
  return { lines, debug: push, warn: push };
}

/** Asserts that something was recorded and that the key is in none of it. */
export function expectNoSecretRecorded(minimum = 1): void {
  expect(seen.length).toBeGreaterThanOrEqual(minimum);
  const leaks = seen.filter((s) => s.includes(API_KEY));
  expect(leaks, `the API key leaked into:\n${leaks.slice(0, 3).join("\n---\n")}`).toEqual([]);
}

/** A sleep that records delays and returns at once (attempts and delay bounds, not wall-clock). */
export function recordingSleep(): { delaysMs: number[]; sleep(delayMs: number, signal?: AbortSignal): Promise<void> } {
  const delaysMs: number[] = [];
  return {
    delaysMs,
    sleep(delayMs: number, signal?: AbortSignal) {
      delaysMs.push(delayMs);
      return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    },
  };
}
