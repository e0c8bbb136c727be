/**
 * Why a scenario did not run, or not to its end: a fixed, typed set. Phases and value resolution return these
 * (never throw them); the executor adds the run's own (cut by the budget, an unanswering target, --max-failures,
 * the preflight). Reports show `skipText`; reach groups operations by `kind`.
 */
import { NEED_TEXT, type Need } from "./phases.js";

/** Why a scenario was skipped. */
export type SkipReason =
  /** The phase needs what this run has not got (a live target, a second account, a producer). */
  | { kind: "needs"; need: Need }
  /** A path or required parameter has no value: the settings (CONTRACT_PARAMS) must name one. */
  | { kind: "needs-value"; operation: string; name: string; safe: boolean }
  /** No value could be generated for a parameter, or found for a path parameter of the path. */
  | { kind: "no-value"; text: string }
  /** A body in media the suite does not write, or none that ajv accepts could be generated. */
  | { kind: "body"; text: string }
  /** A part of the document the suite cannot use (a schema that does not compile, a generation bound). */
  | { kind: "document"; text: string }
  /** The request boundary, or a dot segment fed by a link, refused the request. */
  | { kind: "refused"; text: string }
  /** A link's source gave no value (no successful answer, nothing its expressions found, not created by the run). */
  | { kind: "no-link-value"; text: string }
  /** The probe does not apply to this operation (no auth to probe, no input ruled out, every value bounded...). */
  | { kind: "not-applicable"; text: string }
  /** The target holds no records the scenario needs (the first account's, the account's). */
  | { kind: "needs-records"; text: string }
  /** A step the scenario depends on did not succeed (the create of a lifecycle). */
  | { kind: "step-failed"; text: string }
  /** The run stopped sending: the request budget, an unanswering target, --max-failures, the preflight. */
  | { kind: "cut"; by: "budget" | "unanswering" | "max-failures" | "preflight" | "credentials"; text: string };

/** A scenario's run ends with nothing, or with why it stopped. */
export type Outcome = SkipReason | undefined;

/** True for a skip reason (as a phase's result). */
export const isSkip = (v: unknown): v is SkipReason =>
  typeof v === "object" && v !== null && typeof (v as { kind?: unknown }).kind === "string" && !Array.isArray(v);

/** The reason a phase needing `need` gives (the text reports have always shown). */
export const needs = (need: Need): SkipReason => ({ kind: "needs", need });

/** Builds a reason of a kind that carries its own text. */
export const reason = (kind: Exclude<SkipReason["kind"], "needs" | "needs-value" | "cut">, text: string): SkipReason =>
  ({ kind, text }) as SkipReason;

/** The sentence the reports show for a reason ("skipped: ..."). */
export function skipText(r: SkipReason): string {
  switch (r.kind) {
    case "needs":
      return r.need === "live-target"
        ? "skipped: needs a live target (the mock answers static examples whatever the state)"
        : r.need === "second-account"
          ? "skipped: needs another account: CONTRACT_SECOND_API_KEY, " +
            "or CONTRACT_SECOND_USERNAME and CONTRACT_SECOND_PASSWORD"
          : `skipped: needs ${NEED_TEXT[r.need]}`;
    case "needs-value":
      return (
        `skipped: needs CONTRACT_PARAMS {"${r.operation}.${r.name}": ...}` +
        (r.safe ? " (or a link that supplies it)" : " (a resource the suite may change)")
      );
    default:
      return r.text.startsWith("skipped: ") ? r.text : `skipped: ${r.text}`;
  }
}
