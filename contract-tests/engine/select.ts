/**
 * What a run covers when the settings narrow it: phases and checks (operations: select-operations.ts). A
 * selector that names nothing is an invalid setting naming the closest known name, so a typo never
 * narrows a run to nothing and passes.
 */
import { closest, SettingsError } from "../config/options.js";
import type { Settings } from "../config/settings.js";
import type { Scenario } from "./scenario.js";

/** The scenarios of the selected phases; a phase no scenario of the plan has is refused. */
export function selectPhases(scenarios: Scenario[], settings: Pick<Settings, "phases">): Scenario[] {
  const phases = settings.phases;
  if (!phases) return scenarios;
  const known = [...new Set(scenarios.map((s) => s.phase))];
  for (const p of phases)
    if (!known.includes(p))
      throw new SettingsError(
        `--phases (CONTRACT_PHASES): no scenario of this run has the phase ${JSON.stringify(p)}; ` +
          `did you mean ${closest(p, known)}? (phases here: ${known.join(", ")})`,
      );
  return scenarios.filter((s) => phases.includes(s.phase));
}

/** Refuses a check id that does not exist, naming the closest one. */
export function checkSelection(settings: Pick<Settings, "checks">, known: readonly string[]): void {
  for (const c of settings.checks ?? [])
    if (!known.includes(c))
      throw new SettingsError(
        `--checks (CONTRACT_CHECKS): unknown check ${JSON.stringify(c)}; did you mean ${closest(c, [...known])}?`,
      );
}
