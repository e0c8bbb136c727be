/**
 * What a scenario (one test of the suite) works with: the settings, the document, the target, the run's
 * shared state (successful exchanges, for links), and a verdict that runs the checks on every exchange.
 */
import { GENERIC_CHECKS, runChecks } from "../checks/index.js";
import { isSuccess } from "../exchange.js";
import type { SpecModel } from "../model.js";
import { moduleCheckIds } from "../modules/index.js";
import type { Settings } from "../settings.js";
import type { RequestSpec, Target } from "../target.js";
import { fromWire, wireLoss } from "./requests.js";
import { selectedChecks } from "./select.js";
import type { CheckContext, Exchange, Finding } from "../types.js";

/** How many successful exchanges per operation the run keeps for following links. */
const KEPT_SUCCESSES = 5;

/** State shared by the scenarios of one run. */
export interface RunState {
  /** The last successful exchanges of each operation (sent with a valid key). */
  successes: Map<string, Exchange[]>;
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
      return `the ${p.in} parameter ${p.name} goes on the wire as ${JSON.stringify(wire).slice(0, 80)}, which as the server reads it breaks ${broken.keyword} (${broken.message ?? ""}): the wire does not carry the valid value the suite chose`;
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
  exchanges = 0;

  constructor(
    private readonly settings: Settings,
    private readonly model: SpecModel,
    private readonly state: RunState,
  ) {}

  /** Runs the generic checks, the operation's module checks and `extra` on an exchange; returns it. */
  check(ex: Exchange, extra: readonly string[] = [], ctx: Partial<Omit<CheckContext, "model">> = {}): Exchange {
    const full = this.only(ex, [...GENERIC_CHECKS, ...moduleCheckIds(ex.operation), ...extra], ctx);
    if (!ex.documented && isSuccess(ex) && (full.intent === "acceptance" || full.intent === "conforming")) {
      const kept = this.state.successes.get(ex.operation) ?? [];
      kept.push(ex);
      if (kept.length > KEPT_SUCCESSES) kept.shift();
      this.state.successes.set(ex.operation, kept);
    }
    return ex;
  }

  /** Runs only the checks `ids` (as the settings select them) on an exchange; returns the context they ran in. */
  only(ex: Exchange, ids: readonly string[], ctx: Partial<Omit<CheckContext, "model">> = {}): CheckContext {
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
          parameterNotCarried(this.model.forRequests, ex))
        : undefined);
    const full: CheckContext = {
      intent: "acceptance",
      strict: this.settings.strict,
      live: this.settings.kind === "live",
      model: this.model,
      ...(doubt ? { inDoubt: doubt } : {}),
      ...ctx,
    };
    for (const f of runChecks(selectedChecks(ids, this.settings), ex, full)) this.findings.push(f);
    return full;
  }
}

/** What a scenario's `run` gets. */
export interface ScenarioContext {
  settings: Settings;
  model: SpecModel;
  target: Target;
  state: RunState;
  verdict: Verdict;
  /** Sends a request and checks the exchange. */
  send(spec: RequestSpec, ctx?: Partial<Omit<CheckContext, "model">>, extra?: readonly string[]): Promise<Exchange>;
}

/** One test of the suite. */
export interface Scenario {
  /** Stable id: `<operationId>/<phase>[/<detail>]`. */
  id: string;
  operation: string;
  phase: string;
  title: string;
  /** A static reason to skip (known before running), e.g. "needs a live target". */
  skip?: string;
  run(ctx: ScenarioContext): Promise<void>;
}
