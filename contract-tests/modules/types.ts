/** What an operation-specific module adds on top of the generic phases. */
import type { CheckDef } from "../checks/index.js";
import type { Scenario } from "../engine/scenario.js";
import type { SpecModel } from "../model/model.js";
import type { Settings } from "../config/settings.js";

/** The semantics of one operation that the document cannot state as schema (opt-in, keyed by operationId). */
export interface ContractModule {
  operationId: string;
  /** Checks run on every exchange of the operation (each guards on what it needs, e.g. a 2xx). */
  checks: Record<string, CheckDef>;
  /** Scenarios of their own (a page walk, the cache, filters). */
  scenarios?(model: SpecModel, settings: Settings): Scenario[];
  /** The deadline of this operation's requests, when it is known to be slow (ms). */
  timeoutMs?: number;
}
