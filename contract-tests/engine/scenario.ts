/**
 * What a scenario (one test of the suite) works with: the settings, the document, the target, the run's
 * shared state (successful exchanges, for links), and a verdict that runs the checks on every exchange.
 */
import { type CheckRegistry, selectedChecks } from "../checks/index.js";
import type { Settings } from "../config/settings.js";
import { addAnswered, isSuccess } from "../model/exchange.js";
import { oneFindingPerResponse } from "../model/finding-identity.js";
import type { SpecModel } from "../model/model.js";
import type { Answered, CheckContext, Exchange, Finding } from "../model/types.js";
import type { RequestSpec } from "../transport/target.js";
import type { Resource, Resources } from "./resources.js";
import type { Account } from "../transport/credentials.js";
import type { OperationEntry } from "../../openapi/lib/operations.js";
import type { PhaseId } from "../model/phases.js";
import type { Outcome, SkipReason } from "../model/skip.js";
import { fromWire } from "../model/wire-values.js";
import { madeUpReference, repeatsOwnValue } from "./made-up.js";
import { wireLoss } from "./requests.js";

/** How many successful exchanges per operation the run keeps for following links. */
const KEPT_SUCCESSES = 5;

/** State shared by the scenarios of one run. */
export interface RunState {
  /** The last successful exchanges of each operation (sent with a valid key). */
  successes: Map<string, Exchange[]>;
  /** The run's checks: generic, and the modules' its caller registered. */
  checks: CheckRegistry;
  /** What the run created and deleted on a live target. */
  resources: Resources;
  /** The accounts the run acts as (logins, throwaway accounts; engine/accounts.ts); absent in a run that needs none. */
  accounts?: AccountBook;
}

/** What the engine asks of the run's accounts (engine/accounts.ts implements it). */
export interface AccountBook {
  /** The path of an account's own resource (`/users/{username}`), when the document has one. */
  readonly family: string | undefined;
  /** The accounts the run registered for itself. */
  readonly throwaways: ReadonlyArray<{
    account: Account;
    username: string;
    password: string;
    alive: boolean;
    registeredAs: string;
  }>;
  /** True when a request that may change data names an account the user gave (it then goes as a throwaway one). */
  namesLogin(spec: RequestSpec): boolean;
  /** The request with each mention of an account the user gave replaced by `username`. */
  readdressed(spec: RequestSpec, username: string): RequestSpec;
  /** True when the run registers its second account itself (none given; the document can register one). */
  readonly registersSecond: boolean;
  /** True when `op` changes or ends an account or a session (on a live target). */
  changesAccount(op: OperationEntry): boolean;
  /** The throwaway account `n` (1 stands in for the run's own, 2 for the second), registered on first use. */
  throwaway(ctx: ScenarioContext, n: 1 | 2): Promise<Account | SkipReason>;
  /** A successful delete ended this throwaway account: a new one stands in from now on. */
  retired(account: Account): void;
  /** A request as a throwaway account answered: a password it set for itself is its password from now on. */
  wrote(account: Account, ex: Exchange): void;
  /** Acts as an account another request of the run registered (to delete it at the end). */
  adopt(registered: Exchange): Promise<Account | undefined>;
}

/**
 * A required body whose valid value serializes to nothing (an empty form or text), or is JSON `null` (which
 * servers and Prism commonly read as no body): a server may refuse it as missing. The suite's request is in
 * doubt, not the server.
 */
function emptyRequiredBody(model: SpecModel, ex: Exchange): string | undefined {
  const text = ex.request.bodyText;
  if (
    (text !== "" && text !== "null") ||
    !model.has(ex.operation) ||
    !model.operation(ex.operation).requestBody?.required
  )
    return undefined;
  if (text === "null")
    return "the required body is valid as JSON null, which servers (and Prism) commonly read as no body";
  return "the required body is valid but serializes to nothing, which cannot be told from no body on the wire";
}

/**
 * Why a query or header parameter of a request meant as valid is not valid as the server reads its text (a
 * null written as "null", a number the text does not carry): the wire lost what the suite judged.
 */
function parameterNotCarried(model: SpecModel, ex: Exchange): string | undefined {
  if (!model.has(ex.operation)) return undefined;
  const headers = new Map(Object.entries(ex.request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const p of model.operation(ex.operation).parameters) {
    const wire =
      p.in === "query" ? ex.request.query[p.name] : p.in === "header" ? headers.get(p.name.toLowerCase()) : undefined;
    // An object's members go under their own names (exploded, deepObject): not read back here.
    if (wire === undefined || model.deref(p.schema, "").schema?.type === "object") continue;
    const [broken] = model.validator.validate(p.schemaPointer, fromWire(model, p, wire));
    if (broken)
      return (
        `the ${p.in} parameter ${p.name} goes on the wire as ${JSON.stringify(wire).slice(0, 80)}, which as the ` +
        `server reads it breaks ${broken.keyword} (${broken.message ?? ""}): the wire does not carry the valid ` +
        `value the suite chose`
      );
  }
  return undefined;
}

/** Why a valid body did not reach the server valid as its media type writes it (see wireLoss). */
function bodyNotCarried(model: SpecModel, ex: Exchange): string | undefined {
  if (ex.request.bodyText === undefined || ex.request.json === undefined || !model.has(ex.operation)) return undefined;
  return wireLoss(model, model.operation(ex.operation), ex.request.json);
}

/** Collects the findings of one scenario. */
export class Verdict {
  readonly findings: Finding[] = [];
  /** What the scenario tells the reader besides findings (what the run created and left behind). */
  readonly notes: string[] = [];
  exchanges = 0;
  /** Requests the scenario sent (counted by the executor). */
  sent = 0;
  /** The statuses answered per operation (reach): sent requests with a status line, to a method the document lists. */
  readonly answered: Answered = Object.create(null);

  constructor(
    private readonly settings: Settings,
    private readonly model: SpecModel,
    private readonly state: RunState,
  ) {}

  /** Runs the generic checks, the operation's module checks and `extra` on an exchange; returns it. */
  check(ex: Exchange, extra: readonly string[] = [], ctx: Partial<Omit<CheckContext, "model">> = {}): Exchange {
    const full = this.only(ex, [...this.state.checks.forOperation(ex.operation), ...extra], ctx, extra);
    if (!ex.documented && isSuccess(ex) && (full.intent === "acceptance" || full.intent === "conforming")) {
      const kept = this.state.successes.get(ex.operation) ?? [];
      kept.push(ex);
      if (kept.length > KEPT_SUCCESSES) kept.shift();
      this.state.successes.set(ex.operation, kept);
    }
    return ex;
  }

  /** The successful creates by `operation` this run made (those that named a resource, and the latest others). */
  private earlierCreates(operation: string): Exchange[] {
    const made = this.state.resources.created.filter((r) => r.createdBy === operation).map((r) => r.created);
    return [...made, ...(this.state.successes.get(operation) ?? [])];
  }

  /**
   * Runs only the checks `ids` (as the settings select them) on an exchange; returns the context they ran in. One
   * response, one finding: the most specific check's (a check the scenario asked for by name, `preferred`, first
   * among equals), the others noted under it.
   */
  only(
    ex: Exchange,
    ids: readonly string[],
    ctx: Partial<Omit<CheckContext, "model">> = {},
    preferred: readonly string[] = [],
  ): CheckContext {
    this.exchanges++;
    // A request the transport did not send as built (a header left out) is in doubt whatever it meant; doubts
    // about how the suite built a valid request concern acceptance only (a probe brings its own).
    const accepting = (ctx.intent ?? "acceptance") === "acceptance";
    const doubt =
      ex.request.doubt ??
      (accepting
        ? (this.model.requestDoubts.get(ex.operation) ??
          emptyRequiredBody(this.model, ex) ??
          bodyNotCarried(this.model.forRequests, ex) ??
          parameterNotCarried(this.model.forRequests, ex) ??
          (this.settings.kind === "live"
            ? (madeUpReference(this.model, this.settings.inferLinks, this.state.successes, ex) ??
              repeatsOwnValue(this.model.forRequests, this.earlierCreates(ex.operation), ex))
            : undefined))
        : undefined);
    const full: CheckContext = {
      intent: "acceptance",
      strict: this.settings.strict,
      live: this.settings.kind === "live",
      model: this.model,
      ...(doubt ? { inDoubt: doubt } : {}),
      ...ctx,
    };
    if (!ex.documented && ex.response.status > 0) addAnswered(this.answered, ex.operation, ex.response.status);
    // The request that found the run had lost its account: the loss is its finding, not the refusal.
    const judged = ex.response.credentialsLost ? ["credentials_lost"] : ids;
    const found = this.state.checks.run(selectedChecks(judged, this.settings.checks), ex, full);
    for (const f of oneFindingPerResponse(found, preferred)) this.findings.push(f);
    return full;
  }
}

/** A request a phase wants sent, and how the executor judges its answer. */
export interface Probe {
  spec: RequestSpec;
  /** What the request means and what the checks need to know of it (acceptance when absent). */
  judge?: Judgement;
  /** Checks beyond the operation's own (a module scenario's check). */
  extra?: readonly string[];
  /** Sent, not judged: the phase judges the exchange itself with `ctx.verdict` (it needs other answers first). */
  unjudged?: boolean;
  /** Told the findings its exchange's judgement added (a failure the phase narrows down, see the hostile phase). */
  found?(findings: readonly Finding[]): void;
}

/** The check context a probe is judged in (the model is the run's). */
export type Judgement = Partial<Omit<CheckContext, "model">>;

/** What a scenario's steps get: the run's settings, document and state, and the executor's ways to send. */
export interface ScenarioContext {
  settings: Settings;
  /** The document as requests read it (readOnly members dropped from request bodies). */
  model: SpecModel;
  state: RunState;
  verdict: Verdict;
  /**
   * Sends one request and judges the exchange. On a live target an identifier a successful delete removed is
   * replaced by one the run created that exists (unless the request is about the removal itself).
   */
  send(spec: RequestSpec, judge?: Judgement, extra?: readonly string[]): Promise<Exchange>;
  /**
   * Sends independent requests (concurrently, as the run's workers allow) and judges each in the order given;
   * the exchanges come back in that order.
   */
  sendAll(probes: readonly Probe[]): Promise<Exchange[]>;
  /** Creates a resource of `family` with a create that produces it (live targets); undefined when none could be. */
  produce(family: string, depth?: number): Promise<Resource | undefined>;
  /** True when the run's own credential is a JWT the auth phase can forge (its signature altered, alg none). */
  forgeable(): boolean;
}

/** One test of the suite: a phase's plan for one operation (or resource, or the run), and its steps. */
export interface Scenario {
  /** Stable id: `<operationId>/<phase>[/<detail>]`. */
  id: string;
  operation: string;
  phase: PhaseId;
  title: string;
  /** Why it cannot run, known when it is planned (e.g. a mock target for a phase that needs a live one). */
  skip?: SkipReason;
  /** Its steps: what it sends, in order; it ends with nothing, or with why it could not go on. */
  run(ctx: ScenarioContext): Promise<Outcome>;
}
