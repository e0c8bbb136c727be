/**
 * What a run covers when the settings narrow it: phases and checks (operations: select-operations.ts). A
 * selector that names nothing is an invalid setting naming the closest known name, so a typo never
 * narrows a run to nothing and passes.
 */
import { closest, SettingsError } from "../config/options.js";
import type { Settings } from "../config/settings.js";
import { ALWAYS_RUN, PHASE_IDS } from "../model/phases.js";
import type { Scenario } from "./scenario.js";

/**
 * The scenarios of the selected phases (and of those that always run: the clean-up). A name the table does not have
 * is refused naming the closest; a phase of the table no scenario of this run has is refused too, naming those it has.
 */
export function selectPhases(scenarios: Scenario[], settings: Pick<Settings, "phases">): Scenario[] {
  const phases = settings.phases;
  if (!phases) return scenarios;
  const here = [...new Set(scenarios.map((s) => s.phase))].filter((p) => !ALWAYS_RUN.includes(p));
  for (const p of phases) {
    if (!(PHASE_IDS as readonly string[]).includes(p))
      throw new SettingsError(
        `--phases (CONTRACT_PHASES): there is no phase ${JSON.stringify(p)}; did you mean ${closest(p, [...PHASE_IDS])}? ` +
          `(the phases: ${PHASE_IDS.join(", ")})`,
      );
    if (!(here as string[]).includes(p))
      throw new SettingsError(
        `--phases (CONTRACT_PHASES): no scenario of this run has the phase ${JSON.stringify(p)}; ` +
          `did you mean ${closest(p, here)}? (phases here: ${here.join(", ")})`,
      );
  }
  return scenarios.filter((s) => phases.includes(s.phase) || ALWAYS_RUN.includes(s.phase));
}

/** Refuses a check id that does not exist, naming the closest one. */
export function checkSelection(settings: Pick<Settings, "checks">, known: readonly string[]): void {
  for (const c of settings.checks ?? [])
    if (!known.includes(c))
      throw new SettingsError(
        `--checks (CONTRACT_CHECKS): unknown check ${JSON.stringify(c)}; did you mean ${closest(c, [...known])}?`,
      );
}
