/**
 * What a run covers when the settings narrow it: operations (by operationId, path glob or tag), phases and
 * checks. A selector that names nothing is an invalid setting naming the closest known name, so a typo never
 * narrows a run to nothing and passes.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { closest, SettingsError } from "../config/options.js";
import type { Settings } from "../config/settings.js";
import type { Scenario } from "./scenario.js";

/** A path glob as a regular expression: `*` is one segment (or part of one), `**` any number of segments. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}

/** True when `op` matches one selector: `tag:<tag>`, `[METHOD ]/path/glob`, or an operationId. */
function matches(op: OperationEntry, selector: string): boolean {
  if (selector.startsWith("tag:")) return op.tags.includes(selector.slice(4));
  const m = /^(?:([A-Za-z]+)\s+)?(\/.*)$/.exec(selector);
  if (m) return (!m[1] || m[1].toUpperCase() === op.method.toUpperCase()) && globToRegExp(m[2]!).test(op.path);
  return op.operationId === selector;
}

/** The operations the settings select (all when none are named); a selector matching none is refused. */
export function selectOperations<T extends OperationEntry>(
  operations: T[],
  settings: Pick<Settings, "operations">,
): T[] {
  const selectors = settings.operations;
  if (!selectors) return operations;
  for (const s of selectors) {
    if (operations.some((op) => matches(op, s))) continue;
    const known = s.startsWith("tag:")
      ? [...new Set(operations.flatMap((op) => op.tags.map((t) => `tag:${t}`)))]
      : s.includes("/")
        ? operations.map((op) => op.path)
        : operations.map((op) => op.operationId);
    throw new SettingsError(
      `--operations (CONTRACT_OPERATIONS): ${JSON.stringify(s)} matches no operation of the document; closest: ${closest(s, known) ?? "(none)"}`,
    );
  }
  return operations.filter((op) => selectors.some((s) => matches(op, s)));
}

/** The scenarios of the selected phases; a phase no scenario of the plan has is refused. */
export function selectPhases(scenarios: Scenario[], settings: Pick<Settings, "phases">): Scenario[] {
  const phases = settings.phases;
  if (!phases) return scenarios;
  const known = [...new Set(scenarios.map((s) => s.phase))];
  for (const p of phases)
    if (!known.includes(p))
      throw new SettingsError(
        `--phases (CONTRACT_PHASES): no scenario of this run has the phase ${JSON.stringify(p)}; did you mean ${closest(p, known)}? (phases here: ${known.join(", ")})`,
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
