/**
 * The semantics phase: an operation's meaning beyond its schemas, from its opt-in semantic module (keyed by
 * operationId). Modules sit above the engine, so the run passes their scenarios in (PlanInput.modules).
 */
import type { Phase } from "./phase.js";

/** The phase. */
export const semanticsPhase: Phase = {
  forOperation: (input, op) => input.modules(op.operationId),
};
