/**
 * One run of the suite, independent of any test runner: the scenarios planned from the document (generic
 * phases for every operation, then the modules'), executed one by one against the target. The vitest suite
 * and the self-tests both drive it.
 */
import { causeText } from "../../wire/connection.js";
import { specModel, type SpecModel } from "../model/model.js";
import { ALL_CHECKS, moduleScenarios, timeoutFor } from "../modules/index.js";
import { entryKey, findingKeys, isExpired, loadBaseline, today, type Baseline } from "../report/baseline.js";
import type { Settings } from "../config/settings.js";
import { createTarget, USER_AGENT, type Recover, type Target } from "../transport/target.js";
import { requestUrl } from "../transport/boundary.js";
import { wireRules } from "../model/wire.js";
import { linkOrder, orderingLinks } from "../model/links.js";
import type { ScenarioResult } from "../model/types.js";
import type { TimedExchange } from "../report/har.js";
import { Executor } from "../engine/executor.js";
import { Accounts } from "../engine/accounts.js";
import { SettingsError } from "../config/options.js";
import { planScenarios } from "../engine/phases/index.js";
import { checkSelection, selectPhases } from "../engine/select.js";
import type { RunState, Scenario } from "../engine/scenario.js";
import { runShare, selectOperations } from "../config/select-operations.js";

/** A planned and running suite against one target. */
export class ContractRun {
  readonly model: SpecModel;
  readonly target: Target;
  readonly state: RunState = {
    successes: new Map(),
    checks: ALL_CHECKS,
    resources: { created: [], deleted: new Set() },
  };
  readonly executor: Executor;
  /** Every exchange the target sent, with when it started (the HAR archive), parsed bodies left out. */
  readonly exchanges: TimedExchange[] = [];
  /** The accounts a live run acts as (logins, throwaway accounts). */
  readonly accounts: Accounts | undefined;

  /** `baseline`: the run's baseline when the caller has read it already (it is read from the settings otherwise). */
  constructor(
    readonly settings: Settings,
    readonly baseline: Baseline = loadBaseline(settings.baselinePath),
    /** For the embedded mock: starts it again when it dies on a request (see mock-target.ts). */
    readonly recover?: Recover,
  ) {
    this.model = specModel(settings.specPath);
    if (settings.logins.first && settings.kind !== "live")
      throw new SettingsError("CONTRACT_USERNAME (or CONTRACT_CLIENT_ID) needs a live target: set CONTRACT_BASE_URL");
    // A server that stops answering is probed with the preflight's request.
    const probe = probePath(settings);
    const rules = wireRules(this.model.operations, settings.credentialPrefix);
    this.target = createTarget(settings, rules, recover, probe ? { probePath: probe } : {});
    const send = this.target.send;
    this.target.send = async (spec) => {
      const ex = await send(spec);
      const { json: _sent, ...request } = ex.request;
      const { json: _got, ...response } = ex.response;
      this.exchanges.push({ exchange: { ...ex, request, response }, started: Date.now() - ex.response.elapsedMs });
      return ex;
    };
    const now = today();
    // The keys of the baseline entries that accept findings (an expired entry accepts nothing).
    const accepting = new Set(baseline.entries.filter((e) => !isExpired(e, now)).map(entryKey));
    if (settings.kind === "live") {
      this.accounts = new Accounts(this.model.forRequests, settings, this.target);
      this.state.accounts = this.accounts;
    }
    this.executor = new Executor({
      settings,
      model: this.model,
      target: this.target,
      state: this.state,
      timeoutOf: (operationId) => timeoutFor(settings, operationId),
      accepted: (f) => findingKeys(f).some((k) => accepting.has(k)),
    });
  }

  /**
   * Every scenario, in the order they run: per operation of the document, its phases' (and module's), then the
   * run's.
   */
  scenarios(): Scenario[] {
    checkSelection(this.settings, this.state.checks.ids());
    const operations = selectOperations(
      linkOrder(this.operations(), orderingLinks(this.model.forRequests, this.settings.inferLinks)),
      this.settings,
    );
    return selectPhases(
      planScenarios({
        model: this.model.forRequests,
        settings: this.settings,
        operations,
        registersSecond: this.accounts?.registersSecond ?? false,
        modules: (operationId) => moduleScenarios(this.model, this.settings, operationId),
      }),
      this.settings,
    );
  }

  /** The operations this run takes: all of them, or its shard's share (before --operations narrows them). */
  operations() {
    return runShare(this.model, this.settings).share;
  }

  /** Runs one scenario; never throws. */
  execute(s: Scenario): Promise<ScenarioResult> {
    return this.executor.execute(s);
  }

  /**
   * Logs in the accounts the settings give (CONTRACT_USERNAME and the like) before any scenario; returns what it did,
   * for the output (no secret in it). A login that fails is a LoginError: the run cannot act as the account.
   */
  async logIn(): Promise<string[]> {
    return (await this.accounts?.logInAll()) ?? [];
  }

  /** The baseline entries whose expiry day is over. */
  expiredEntries(now = new Date()) {
    return this.baseline.entries.filter((e) => isExpired(e, today(now)));
  }
}

/**
 * The path the preflight (and the target's outage probe) asks for: the first safe operation without path
 * parameters.
 */
function probePath(settings: Pick<Settings, "specPath">): string | undefined {
  return specModel(settings.specPath).operations.find((op) => op.safe && !op.path.includes("{"))?.path;
}

/**
 * What the preflight asks for: the first safe operation without path parameters, else the base URL (as is a path
 * the request boundary refuses: the probe goes through it like every request).
 */
function preflightProbe(settings: Pick<Settings, "baseUrl" | "specPath">): { url: string; path: string } {
  const path = probePath(settings);
  try {
    return {
      url: requestUrl(settings.baseUrl, path ?? "/", "", "the preflight"),
      path: path ?? "/",
    };
  } catch {
    return { url: requestUrl(settings.baseUrl, "/", "", "the preflight"), path: "/" };
  }
}

/**
 * Asks the target for any HTTP answer within the preflight deadline: a request without a key to the first
 * safe operation without path parameters (refused before any work, so never billed), else the base URL.
 * Returns why there was no answer, or undefined. `recover`: the embedded mock's (see mock-target.ts).
 */
export async function preflight(
  settings: Pick<Settings, "baseUrl" | "specPath" | "preflightTimeoutMs">,
  recover?: Recover,
): Promise<string | undefined> {
  const { url } = preflightProbe(settings);
  const timeoutMs = settings.preflightTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, {
        method: "GET",
        redirect: "manual",
        headers: { "user-agent": USER_AGENT },
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel().catch(() => {});
      return undefined;
    } catch (err) {
      const reason =
        err instanceof Error && err.name === "TimeoutError" ? `no HTTP answer within ${timeoutMs} ms` : causeText(err);
      // A kept-alive connection the server closed as it was reused never reached it: asked once more (as send does).
      if (attempt === 0 && /ECONNRESET|other side closed|socket hang up/i.test(reason)) continue;
      // The embedded mock died on the probe and listens again: it answers HTTP; what it dies on, the run reports.
      if (recover && (await recover())) return undefined;
      return reason;
    }
  }
}

/** The result of the preflight as a scenario result, with the finding that fails the run. */
function preflightFailure(run: ContractRun, reason: string): ScenarioResult {
  const exchange = {
    operation: "(target)",
    // The request the preflight sent (its probe, not always the base URL).
    request: { method: "GET", ...preflightProbe(run.settings), query: {}, headers: {} },
    response: {
      status: 0,
      headers: {},
      contentType: null,
      bodyText: "",
      bodyBytes: 0,
      transportError: reason,
      elapsedMs: 0,
    },
  };
  const findings = ALL_CHECKS.run(["not_a_server_error"], exchange, {
    intent: "conforming",
    strict: false,
    live: true,
    model: run.model,
  });
  return {
    id: "preflight",
    operation: "(target)",
    phase: "preflight",
    title: "preflight: the target answers HTTP at its base URL",
    status: "failed",
    findings,
    accepted: [],
    exchanges: 1,
  };
}

/** The results of a run whose target did not answer the preflight: that failure, then every scenario skipped. */
export function preflightResults(run: ContractRun, scenarios: Scenario[], reason: string): ScenarioResult[] {
  const skipped = scenarios.map(
    (s): ScenarioResult => ({
      id: s.id,
      operation: s.operation,
      phase: s.phase,
      title: s.title,
      status: "skipped",
      skipReason: `skipped: the target did not answer the preflight (${reason})`,
      skip: { kind: "cut", by: "preflight", text: `the target did not answer the preflight (${reason})` },
      findings: [],
      accepted: [],
      exchanges: 0,
    }),
  );
  return [preflightFailure(run, reason), ...skipped];
}

/** Runs every scenario in this process (the self-tests' way; `npm run contract` runs them as vitest tests). */
export async function runContract(settings: Settings): Promise<{ run: ContractRun; results: ScenarioResult[] }> {
  const run = new ContractRun(settings);
  const reason = await preflight(settings, run.recover);
  const scenarios = run.scenarios();
  if (reason) return { run, results: preflightResults(run, scenarios, reason) };
  await run.logIn();
  return { run, results: await run.executor.executeAll(scenarios) };
}
