/**
 * `npm test`'s global setup: every temporary folder of the run (tests, the processes they spawn, browsers)
 * goes under one fresh folder, set as TMPDIR before any worker starts and removed when the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Points TMPDIR at a fresh folder; returns the teardown that removes it. */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "webauto-test-run-"));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
