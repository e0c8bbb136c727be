/**
 * The one executor: it runs the planned scenarios, sends every request (the target applies the request budget,
 * rate limits and the breaker, and holds at most `--workers` requests in flight), and judges every exchange with
 * the run's checks (the Verdict). Scenarios that share state (operations joined by links, written or inferred,
 * and so their resources) run in one lane, in plan order; lanes run side by side, and a scenario's independent
 * requests (`sendAll`) go out together and are judged in the order given. So the same seed sends the same
 * requests and gives the same report whatever the number of workers. The scenarios of a run phase (the clean-up)
 * run after every lane.
 */
import { DocumentError } from "../../openapi/lib/document-error.js";
import { distinct } from "../model/finding-identity.js";
import type { Settings } from "../config/settings.js";
import { linkGroups } from "../model/link-groups.js";
import { orderingLinks } from "../model/links.js";
import type { SpecModel } from "../model/model.js";
import { phaseRow } from "../model/phases.js";
import { isSkip, reason, skipText, type SkipReason } from "../model/skip.js";
import type { Exchange, Finding, ScenarioResult } from "../model/types.js";
import { SkipScenario, type RequestSpec, type Target } from "../transport/target.js";
import { CredentialsLost } from "../transport/credentials.js";
import { BoundExceeded } from "./bounds.js";
import { track } from "./resources.js";
import { isSuccess } from "../model/exchange.js";
import type { Account } from "../transport/credentials.js";
import { Verdict, type Probe, type RunState, type Scenario, type ScenarioContext } from "./scenario.js";
import { prepared } from "./prepared.js";
import { produce } from "./values.js";
import { resetsSharedState } from "../model/risk.js";

/** What the executor needs of the run besides the scenarios. */
export interface ExecutorInput {
  settings: Settings;
  /** The whole document (checks read responses with it; requests are built from its `forRequests`). */
  model: SpecModel;
  target: Target;
  state: RunState;
  /** The request deadline of an operation (its module may ask for longer). */
  timeoutOf(operationId: string): number;
  /** True when the baseline accepts the finding. */
  accepted(f: Finding): boolean;
}

/** What a caller hears as the run goes: each scenario as it starts and ends (in the order they finish). */
export interface ExecutionHooks {
  started?(s: Scenario, index: number): void;
  finished?(result: ScenarioResult, index: number): void;
}

/** A request that cannot go as it must (no throwaway account for one that changes an account): the scenario ends. */
class Unsendable extends Error {
  constructor(readonly reason: SkipReason) {
    super(skipText(reason));
  }
}

/** Why a scenario's step threw, as a typed reason, or undefined for an internal error of the suite. */
function thrownReason(err: unknown, target: Target): SkipReason | undefined {
  if (err instanceof Unsendable) return err.reason;
  if (err instanceof BoundExceeded) return reason("document", err.message);
  // The run lost an account the user gave: the scenario stops (credentials_lost reported it once).
  if (err instanceof CredentialsLost) return { kind: "cut", by: "credentials", text: err.message };
  if (err instanceof SkipScenario) {
    const stopped = target.stopped();
    if (stopped === err.message)
      return { kind: "cut", by: /request budget/.test(stopped) ? "budget" : "unanswering", text: stopped };
    return reason("refused", err.message);
  }
  // A schema of the document that cannot be compiled: the scenario cannot judge it, and says where and why.
  if (err instanceof DocumentError) return reason("document", `the document cannot be used here: ${err.message}`);
  return undefined;
}

/** Runs scenarios against the target and judges what comes back. */
export class Executor {
  constructor(private readonly run: ExecutorInput) {}

  /** The scenario's result (never throws): passed, failed (an error finding or an internal error), or skipped. */
  /** `alone`: nothing else is in flight, and its own requests go one at a time (an operation that resets data). */
  async execute(s: Scenario, cut?: SkipReason, alone = false): Promise<ScenarioResult> {
    const { settings, model, target, state } = this.run;
    const result = (status: ScenarioResult["status"], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
      id: s.id,
      operation: s.operation,
      phase: s.phase,
      title: s.title,
      status,
      findings: [],
      accepted: [],
      exchanges: 0,
      ...extra,
    });
    // The clean-up keeps its share of the request budget: a scenario does not start on what deleting the run's
    // resources (and its throwaway accounts, and checking their credentials are refused) needs.
    const reserve =
      phaseRow(s.phase).scope === "run" || settings.kind !== "live"
        ? 0
        : 2 * (state.resources.created.filter((r) => r.alive).length + (state.accounts?.throwaways.length ?? 0)) + 2;
    const budgetText =
      `skipped: the request budget of ${settings.maxRequests} is spent (CONTRACT_MAX_REQUESTS), ` +
      "but for what the clean-up needs";
    const stoppedText =
      target.stopped() ??
      (target.requestsSent() + reserve > settings.maxRequests && reserve > 0 ? budgetText : undefined);
    const before: SkipReason | undefined =
      cut ??
      s.skip ??
      (stoppedText
        ? { kind: "cut", by: /request budget/.test(stoppedText) ? "budget" : "unanswering", text: stoppedText }
        : undefined);
    if (before)
      return result("skipped", {
        skipReason: skipText(before),
        skip: before,
        ...(before.kind === "cut" ? { notRun: skipText(before) } : {}),
      });
    const verdict = new Verdict(settings, model, state);
    const ctx = this.context(verdict, alone);
    let skip: SkipReason | undefined;
    let error: string | undefined;
    try {
      skip = await s.run(ctx);
    } catch (err) {
      skip = thrownReason(err, target);
      if (!skip)
        error = target.scrubber.text(err instanceof Error ? (err.stack ?? err.message) : String(err)).slice(0, 4000);
    }
    const all = distinct(verdict.findings);
    // An expired entry accepts nothing: its finding fails the run again.
    const accepted = all.filter((f) => this.run.accepted(f));
    const findings = all.filter((f) => !accepted.includes(f));
    const failed = error !== undefined || findings.some((f) => f.severity === "error");
    const text = skip && skipText(skip);
    return result(failed ? "failed" : skip ? "skipped" : "passed", {
      findings,
      accepted,
      exchanges: verdict.exchanges,
      ...(verdict.sent ? { sent: verdict.sent } : {}),
      ...(Object.keys(verdict.answered).length ? { answered: verdict.answered } : {}),
      ...(skip ? { skipReason: text, skip } : {}),
      ...(error ? { error } : {}),
      // Cut short by the target (budget, breaker), not skipped by its own rule: the run is incomplete.
      ...(skip?.kind === "cut" ? { notRun: text } : {}),
      ...(verdict.notes.length ? { notes: verdict.notes } : {}),
    });
  }

  /**
   * Every scenario, results in plan order. The sending order is by risk, the same whatever the workers: first the
   * scenarios of an operation that rebuilds or wipes shared data (model/risk.ts), one request at a time with nothing
   * else in flight; then the rest (rank 0), lanes side by side (one at a time with one worker); then each rank of
   * the phases that may take the server down (model/phases.ts: far-edge values, then hostile strings), each only
   * once the rank before it has finished; then the run's phases (the clean-up).
   */
  async executeAll(scenarios: readonly Scenario[], hooks: ExecutionHooks = {}): Promise<ScenarioResult[]> {
    const results: ScenarioResult[] = new Array(scenarios.length);
    let failures = 0;
    const { maxFailures } = this.run.settings;
    const one = async (i: number, alone = false) => {
      const s = scenarios[i]!;
      const limit =
        maxFailures !== undefined && failures >= maxFailures
          ? ({
              kind: "cut",
              by: "max-failures",
              text:
                `${failures} scenario${failures === 1 ? "" : "s"} failed, ` +
                `the limit of --max-failures ${maxFailures}`,
            } as const)
          : undefined;
      hooks.started?.(s, i);
      const r = await this.execute(s, limit, alone);
      r.requestsSent = this.run.target.requestsSent();
      if (r.status === "failed") failures++;
      results[i] = r;
      hooks.finished?.(r, i);
    };
    const order = this.order(scenarios);
    for (const i of order.alone) await one(i, true);
    const workers = Math.max(1, this.run.settings.workers);
    for (const rank of order.ranks) {
      const queue = this.lanes(scenarios, rank);
      await Promise.all(
        Array.from({ length: Math.min(workers, queue.length) }, async () => {
          for (let lane = queue.shift(); lane; lane = queue.shift()) for (const i of lane) await one(i);
        }),
      );
    }
    for (const i of order.after) await one(i);
    return results;
  }

  /**
   * The sending order of a plan (scenarios by index, each list in plan order): those of an operation that rebuilds
   * or wipes shared data, sent alone first; the rest by the rank of their phase (0 first); the run's phases last.
   */
  private order(scenarios: readonly Scenario[]): { alone: number[]; ranks: number[][]; after: number[] } {
    const { model } = this.run;
    const resets = new Map<string, boolean>();
    const resetting = (id: string) => {
      if (!resets.has(id))
        resets.set(id, model.forRequests.has(id) && resetsSharedState(model, model.forRequests.operation(id)));
      return resets.get(id)!;
    };
    const alone: number[] = [];
    const after: number[] = [];
    const ranks: number[][] = [[], [], []];
    scenarios.forEach((s, i) => {
      const row = phaseRow(s.phase);
      if (row.scope === "run") after.push(i);
      else if (resetting(s.operation)) alone.push(i);
      else ranks[row.rank ?? 0]!.push(i);
    });
    return { alone, ranks: ranks.filter((r) => r.length > 0), after };
  }

  /**
   * The lanes of some scenarios of a plan (by index): scenarios of operations joined by links, in plan order; lanes
   * in the order their first scenario is planned. With one worker, one lane of them all: exactly the plan's order.
   */
  private lanes(scenarios: readonly Scenario[], rest: readonly number[]): number[][] {
    const { model, settings } = this.run;
    if (settings.workers <= 1) return [[...rest]];
    const groupOf = new Map<string, number>();
    linkGroups(model.operations, orderingLinks(model.forRequests, settings.inferLinks)).forEach((g, i) => {
      for (const op of g) groupOf.set(op.operationId, i);
    });
    const lanes = new Map<string, number[]>();
    // What changes or names an account shares the run's throwaway accounts: one lane for all of it.
    const accounts = this.run.state.accounts;
    const ofAccounts = (id: string) => {
      if (!accounts || !model.forRequests.has(id)) return false;
      const op = model.forRequests.operation(id);
      return accounts.changesAccount(op) || (accounts.family !== undefined && op.path.startsWith(accounts.family));
    };
    const accountGroups = new Set(
      scenarios.filter((s) => ofAccounts(s.operation)).map((s) => groupOf.get(s.operation) ?? -1),
    );
    for (const i of rest) {
      const op = scenarios[i]!.operation;
      const group = groupOf.get(op);
      const key =
        ofAccounts(op) || (group !== undefined && accountGroups.has(group))
          ? "accounts"
          : group !== undefined
            ? `g${group}`
            : `o${op}`;
      const lane = lanes.get(key) ?? [];
      lane.push(i);
      lanes.set(key, lane);
    }
    return [...lanes.values()];
  }

  /** What a scenario's steps get: the run's reading of the document, its state, and the executor's sends. */
  private context(verdict: Verdict, alone = false): ScenarioContext {
    const { settings, model, state } = this.run;
    const live = settings.kind === "live";
    const ctx: ScenarioContext = {
      settings,
      // Scenarios build requests: they read the document for requests; the verdict checks responses.
      model: model.forRequests,
      state,
      verdict,
      send: async (spec, judge, extra) =>
        (await ctx.sendAll([{ spec, ...(judge ? { judge } : {}), ...(extra ? { extra } : {}) }]))[0]!,
      sendAll: async (probes) => {
        // On a live target a delete changes what the next request may name (a removed id is replaced by one that
        // exists), and a request that changes an account (its password) what the next must log in with: such a
        // batch goes one request at a time, each judged before the next is built. With one worker every request
        // waits for the one before it, as a run always did.
        const oneByOne = settings.workers <= 1 || alone;
        const stateful = (p: Probe) =>
          p.spec.method.toUpperCase() === "DELETE" ||
          (ctx.model.has(p.spec.operation) && state.accounts?.changesAccount(ctx.model.operation(p.spec.operation)));
        if (oneByOne || (live && probes.some(stateful))) {
          const out: Exchange[] = [];
          for (const p of probes) out.push(...(await this.batch(ctx, verdict, [p])));
          return out;
        }
        return this.batch(ctx, verdict, probes);
      },
      produce: (family, depth) => produce(ctx, family, depth),
      forgeable: () => this.run.target.credentials.forged("forged-signature") !== undefined,
    };
    return ctx;
  }

  /**
   * Sends independent requests together (the target holds at most --workers in flight) and judges each in the order
   * given. Identifiers a delete removed are replaced first, in order (a replacement may be created on the way).
   */
  private async batch(ctx: ScenarioContext, verdict: Verdict, probes: readonly Probe[]): Promise<Exchange[]> {
    const specs: RequestSpec[] = [];
    for (const p of probes) {
      const spec = await prepared(ctx, p.spec, p.unjudged ? "after-delete" : p.judge?.intent);
      if (isSkip(spec)) throw new Unsendable(spec);
      specs.push(spec);
    }
    verdict.sent += specs.length;
    const sent = await Promise.allSettled(specs.map((spec) => this.transmit(spec)));
    // What came back is judged (the request a server stopped answering after is a finding) before a request that
    // could not go (the budget, a stopped target) ends the scenario.
    for (const [i, x] of sent.entries())
      if (x.status === "fulfilled") this.judge(verdict, x.value, probes[i]!, ctx.settings.kind === "live");
    const failed = sent.find((x): x is PromiseRejectedResult => x.status === "rejected");
    if (failed) throw failed.reason;
    return sent.map((x) => (x as PromiseFulfilledResult<Exchange>).value);
  }

  /** Sends one request with its operation's deadline. */
  private transmit(spec: RequestSpec): Promise<Exchange> {
    return this.run.target.send({ timeoutMs: this.run.timeoutOf(spec.operation), ...spec });
  }

  /** Judges an exchange as its probe asks, and records what a live run created or deleted. */
  private judge(verdict: Verdict, ex: Exchange, probe: Probe, live: boolean): void {
    const before = verdict.findings.length;
    if (!probe.unjudged) verdict.check(ex, probe.extra, probe.judge);
    // The request that found the run had lost an account reports it now: its batch may end before a phase judges it.
    else if (ex.response.credentialsLost) verdict.only(ex, [], probe.judge);
    probe.found?.(verdict.findings.slice(before));
    if (!live) return;
    const { model, settings, state } = this.run;
    track(model.forRequests, settings.inferLinks, state.resources, ex);
    // A throwaway account that a delete it sent itself (its own account, or its account's path) removed.
    const key = ex.request.key;
    if (key?.startsWith("account-")) state.accounts?.wrote(key as Account, ex);
    if (key?.startsWith("account-") && ex.request.method === "DELETE" && isSuccess(ex) && model.has(ex.operation)) {
      const op = model.forRequests.operation(ex.operation);
      const own = state.accounts?.throwaways.find((t) => t.account === key);
      if (
        own &&
        state.accounts?.changesAccount(op) &&
        (!op.path.includes("{") || ex.request.path.includes(encodeURIComponent(own.username)))
      )
        state.accounts.retired(key as Account);
    }
  }
}
