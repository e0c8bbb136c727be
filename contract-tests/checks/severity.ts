/**
 * Why a finding is an error and not a warning, decided here and nowhere else, from inputs a reader can see on the
 * finding: what the check saw (a broken rule, or only an observation), the promise it names, and the named reason
 * (`lenient`) that the rule does not hold this time, with CONTRACT_STRICT=1 holding the reasons that are only the
 * document's silence.
 */
import type { Finding, Leniency } from "../model/types.js";

/** Added to what an error without a promise documented, when it is made a warning. */
export const NO_PROMISE =
  "(a warning: the check names no place in the document and no statement of the interface that promises this)";

/** Reasons that are only the document's silence or its looseness: CONTRACT_STRICT=1 holds the rule anyway. */
const STRICT_HOLDS: ReadonlySet<Leniency["because"]> = new Set(["document-silent", "implied-rule", "strict-only"]);

/** What a check reports: a finding whose severity is still to be decided (`error` means a rule was broken). */
export type Draft = Omit<Finding, "check">;

/**
 * The finding as reported: an error only when the check saw a broken rule, names its promise, and no reason of
 * leniency applies (strict mode overriding the document's silence); else a warning saying why. A warning named
 * lenient keeps no promise: the promise is what would have made it an error.
 */
export function decided(draft: Draft, strict: boolean): Draft {
  if (draft.severity === "warning") return draft;
  const { lenient } = draft;
  if (lenient && !(strict && STRICT_HOLDS.has(lenient.because))) {
    const { promise: _unheld, ...rest } = draft;
    return {
      ...rest,
      severity: "warning",
      documented: lenient.why ? `${draft.documented} (a warning: ${lenient.why})` : draft.documented,
    };
  }
  // Held: under strict, a reason of the document's silence no longer applies.
  const { lenient: _held, ...held } = draft;
  if (!held.promise) return { ...held, severity: "warning", documented: `${held.documented} ${NO_PROMISE}` };
  return held;
}
