/** Ending a scenario early, as skipped with a reason (a budget spent, a missing setting, a mock target). */
import { SkipScenario } from "../transport/target.js";

/** Ends a scenario as skipped, with the reason in the report. */
export function skip(reason: string): never {
  throw new SkipScenario(reason);
}

/** The reason printed for scenarios that only a real server's state can answer. */
export const NEEDS_LIVE = "skipped: needs a live target (the mock answers static examples whatever the state)";
