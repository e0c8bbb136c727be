/**
 * What a phase implementation is: a planner of scenarios, per operation or once for the run's operations, from
 * the document and the settings alone. Its scenarios' steps send through the executor (`ctx.send`, `ctx.sendAll`)
 * and end with nothing or a typed reason (model/skip.ts).
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import type { Settings } from "../../config/settings.js";
import type { SpecModel } from "../../model/model.js";
import { type PhaseId, phaseRow } from "../../model/phases.js";
import type { Scenario } from "../scenario.js";

/** What planning reads: the document, the settings, the run's operations and the modules' scenarios. */
export interface PlanInput {
  /** The document as requests read it. */
  model: SpecModel;
  settings: Settings;
  /** The operations this run selected, in the run's order. */
  operations: OperationEntry[];
  /** The run registers its second account itself (engine/accounts.ts): the phases that need one are planned. */
  registersSecond?: boolean;
  /** The semantic modules' scenarios of an operation (modules sit above the engine; the run passes them in). */
  modules(operationId: string): Scenario[];
}

/** A phase's implementation: scenarios for one operation, or for the run's operations at once. */
export type Phase =
  | { forOperation(input: PlanInput, op: OperationEntry): Scenario[] }
  | { forRun(input: PlanInput): Scenario[] };

/** A scenario's title: the phase's line of the table, or a line of its own, after the phase's id. */
export const titleOf = (phase: PhaseId, line: string = phaseRow(phase).tests): string => `${phase}: ${line}`;

/** A scenario of `phase` for `op`, its id `<operationId>/<phase>` (or `/<detail>` after it). */
export function scenarioOf(
  phase: PhaseId,
  op: Pick<OperationEntry, "operationId">,
  run: Scenario["run"],
  extra: { detail?: string; title?: string } = {},
): Scenario {
  return {
    id: `${op.operationId}/${phase}${extra.detail ? `/${extra.detail}` : ""}`,
    operation: op.operationId,
    phase,
    title: titleOf(phase, extra.title),
    run,
  };
}
