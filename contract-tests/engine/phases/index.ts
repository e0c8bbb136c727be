/**
 * Every phase of the table (model/phases.ts) bound to its implementation, one file each, and the plan of a run:
 * each operation's scenarios in the table's order, the resource and run phases after them, a phase's needs
 * (a live target, a second account) checked here once for all.
 */
import type { Settings } from "../../config/settings.js";
import { PHASES, type Need, type PhaseId } from "../../model/phases.js";
import { needs, type SkipReason } from "../../model/skip.js";
import type { Scenario } from "../scenario.js";
import { authPhase } from "./auth.js";
import { cleanupPhase } from "./cleanup.js";
import { edgesPhase } from "./edges.js";
import { examplesPhase } from "./examples.js";
import { hostilePhase } from "./hostile.js";
import { isolationPhase } from "./isolation.js";
import { lifecyclePhase } from "./lifecycle.js";
import { linksPhase } from "./links.js";
import { negativePhase } from "./negative.js";
import { ownedMembersPhase } from "./owned-members.js";
import type { Phase, PlanInput } from "./phase.js";
import { positivePhase } from "./positive.js";
import { semanticsPhase } from "./semantics.js";
import { unknownIdsPhase } from "./unknown-ids.js";
import { authorizationPhase } from "./authorization.js";
import { unsupportedMethodPhase } from "./unsupported-method.js";

/** The implementation of every phase of the table: a phase without one does not compile. */
const IMPLEMENTATIONS: Readonly<Record<PhaseId, Phase>> = {
  examples: examplesPhase,
  positive: positivePhase,
  negative: negativePhase,
  auth: authPhase,
  links: linksPhase,
  isolation: isolationPhase,
  "unsupported-method": unsupportedMethodPhase,
  edges: edgesPhase,
  hostile: hostilePhase,
  semantics: semanticsPhase,
  lifecycle: lifecyclePhase,
  "owned-members": ownedMembersPhase,
  authorization: authorizationPhase,
  "unknown-ids": unknownIdsPhase,
  cleanup: cleanupPhase,
};

/** Whether the run has what a phase needs; the first need it lacks, as the reason its scenarios are skipped. */
function unmet(settings: Settings, list: readonly Need[], registersSecond = false): SkipReason | undefined {
  const has: Record<Need, boolean> = {
    "live-target": settings.kind === "live",
    "second-account": Boolean(settings.secondApiKey || settings.logins.second) || registersSecond,
    // Resource phases are planned only for families a create produces.
    producer: true,
  };
  const missing = list.find((n) => !has[n]);
  return missing ? needs(missing) : undefined;
}

/**
 * Every scenario of a run, in the order they run: per operation (in the run's order) its scenarios in the table's
 * order, then those of the resource and run phases, each with its operation's (a run phase's after every operation).
 */
export function planScenarios(input: PlanInput): Scenario[] {
  const planned: Scenario[] = [];
  const last: Scenario[] = [];
  for (const row of PHASES) {
    const phase = IMPLEMENTATIONS[row.id];
    const reasonOf = unmet(input.settings, row.needs, input.registersSecond);
    const made =
      "forOperation" in phase ? input.operations.flatMap((op) => phase.forOperation(input, op)) : phase.forRun(input);
    const scenarios = reasonOf ? made.map((s) => ({ ...s, skip: s.skip ?? reasonOf })) : made;
    (row.scope === "run" ? last : planned).push(...scenarios);
  }
  // Each operation's scenarios together, in the run's order (its lifecycle and unknown-ids ones too): a sharded
  // run's merge orders results so, and the two must read the same.
  const rank = new Map(input.operations.map((op, i) => [op.operationId, i]));
  const byOperation = planned
    .map((s, i) => ({ s, i }))
    .sort(
      (a, b) =>
        (rank.get(a.s.operation) ?? rank.size) - (rank.get(b.s.operation) ?? rank.size) ||
        // Within an operation: the generic phases, then its module's, then its resources' (as planned before).
        a.i - b.i,
    )
    .map((x) => x.s);
  return [...byOperation, ...last];
}
