/**
 * The phases of the suite: one row each, the one table that `--help`, the `--phases` validation, the README's
 * phase table (a self-test holds the README to it), the reports' test names and the reach notes read. A phase's
 * implementation is the file of its id in engine/phases/ (engine/phases/index.ts binds every row to one).
 */

/** What a phase needs beyond the document and the target, to run at all. */
export type Need =
  /** A live server: the Prism mock answers static examples whatever the state. */
  | "live-target"
  /** A second account's credential (CONTRACT_SECOND_API_KEY, or its user name and password). */
  | "second-account"
  /** A create whose answer feeds an identifier (a producer, written as a link or inferred). */
  | "producer";

/** What the suite can say a need is, in a sentence (reach notes and the README use it). */
export const NEED_TEXT: Readonly<Record<Need, string>> = {
  "live-target": "a live target",
  "second-account":
    "a second account (CONTRACT_SECOND_API_KEY, or CONTRACT_SECOND_USERNAME and CONTRACT_SECOND_PASSWORD)",
  producer: "a create that feeds an identifier",
};

/** What a phase is planned for: each operation, each resource family a create produces, or the run once. */
export type PhaseScope = "operation" | "resource" | "run";

/** One row of the table. */
export interface PhaseRow {
  id: string;
  /** What it sends and what must happen, in one line (the test name's stem in the reports). */
  tests: string;
  needs: readonly Need[];
  scope: PhaseScope;
  /** It runs whatever `--phases` selects (the clean-up of what a live run created). */
  always?: boolean;
  /**
   * Its requests may take the server down (values at the far edge, 1; hostile strings, 2): its scenarios are sent
   * only once every scenario of a lower rank (0, the rest) has finished, so a server that never answers again
   * after one has answered every other phase first. The report's order stays the table's.
   */
  rank?: 1 | 2;
  /**
   * A security phase: the risk it tests (OWASP API Security Top 10, 2023), and why it sends nothing to an operation
   * when it planned no scenario of it (the report's per-operation security lines read both).
   */
  security?: { risk: string; absent: string };
}

/** Every phase, in the order a run plans an operation's scenarios. */
export const PHASES = [
  {
    id: "examples",
    tests:
      "every documented request example is answered as documented; " +
      "every documented response example matches its schema",
    needs: [],
    scope: "operation",
  },
  {
    id: "positive",
    tests: "valid generated requests and boundary values are accepted with documented answers",
    needs: [],
    scope: "operation",
  },
  {
    id: "negative",
    tests: "requests the document rules out get a 4xx, never a 2xx or 5xx",
    needs: [],
    scope: "operation",
  },
  {
    id: "auth",
    tests: "no key, an empty key, a wrong key and (a JWT) the run's own token forged are each refused with a 4xx",
    needs: [],
    scope: "operation",
    security: { risk: "API2 broken authentication", absent: "the operation has no security requirement to probe" },
  },
  {
    id: "links",
    tests:
      "a link feeds a successful answer into its target; the linked resource is available and unknown ones are not",
    needs: [],
    scope: "operation",
  },
  {
    id: "isolation",
    tests: "another account's key never sees this account's records",
    needs: ["second-account", "live-target"],
    scope: "operation",
    security: {
      risk: "API1 object-level authorization (reads)",
      absent: "it reads no records an account owns",
    },
  },
  {
    id: "unsupported-method",
    tests: "a method the document does not list for a path is refused with 405 and an Allow header (warnings only)",
    needs: ["live-target"],
    scope: "operation",
  },
  {
    id: "edges",
    tests:
      "valid values at the far edge of what the document allows get a documented answer, never a 5xx; null for a " +
      "nullable value and text outside ASCII are accepted",
    needs: [],
    scope: "operation",
    rank: 1,
    security: {
      risk: "API4 unrestricted resource consumption (a request that freezes the server)",
      absent: "it takes no value with an edge to reach",
    },
  },
  {
    id: "hostile",
    tests:
      "strings as an attacker writes them (quotes, SQL, template markers, control characters) get a documented " +
      "answer, never a 5xx, and a write reads them back exactly as written",
    needs: ["live-target"],
    scope: "operation",
    rank: 2,
    security: {
      risk: "injection through schema-valid strings",
      absent: "no string member or parameter of it lets a hostile string through",
    },
  },
  {
    id: "semantics",
    tests: "an operation's meaning beyond its schemas (its semantic module)",
    needs: [],
    scope: "operation",
  },
  {
    id: "lifecycle",
    tests:
      "a created resource reads back as created, is listed, reads back as updated, and once deleted is refused " +
      "(use after free)",
    needs: ["live-target", "producer"],
    scope: "resource",
  },
  {
    id: "owned-members",
    tests:
      "members the server owns (readOnly, or in no request schema of the family), sent with another value on a " +
      "create or an update, do not take effect (mass assignment)",
    needs: ["live-target", "producer"],
    scope: "resource",
    security: {
      risk: "API3 object property level authorization (mass assignment)",
      absent: "no create or update of a resource the run created with a member the server owns reaches it",
    },
  },
  {
    id: "authorization",
    tests:
      "another account's update, delete and create with the same identifier of a resource the run's own account " +
      "created are refused and take no effect; an update changes the resource its path names, not the caller's own",
    needs: ["second-account", "live-target", "producer"],
    scope: "resource",
    security: {
      risk: "API1 object-level authorization (writes)",
      absent: "no resource the run's own account created reaches it",
    },
  },
  {
    id: "unknown-ids",
    tests: "identifiers that do not exist get a 4xx, never a 5xx or another resource",
    needs: ["live-target"],
    scope: "operation",
  },
  {
    id: "cleanup",
    tests: "every resource the run created is deleted where the document has a delete; the report lists what was left",
    needs: ["live-target"],
    scope: "run",
    always: true,
  },
] as const satisfies readonly PhaseRow[];

/** A phase's id. */
export type PhaseId = (typeof PHASES)[number]["id"];

/** The ids of every phase, in the table's order. */
export const PHASE_IDS: readonly PhaseId[] = PHASES.map((p) => p.id);

/** The row of a phase. */
export function phaseRow(id: PhaseId): PhaseRow {
  return PHASES.find((p) => p.id === id)!;
}

/** The phases that run whatever `--phases` selects (the clean-up of what a live run created). */
export const ALWAYS_RUN: readonly PhaseId[] = PHASES.filter((p) => "always" in p && p.always).map((p) => p.id);

/** The phases `--phases` can select (every phase but those that always run). */
export const SELECTABLE_PHASES: readonly PhaseId[] = PHASE_IDS.filter((id) => !ALWAYS_RUN.includes(id));
