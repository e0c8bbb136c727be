/**
 * `webauto-contract` (and `npm run contract`): the contract suite's command line. It reads the options (flags
 * > environment > config file; exit 2 on an invalid one, before anything starts), prints the seed, starts the
 * Prism mock when no base URL is given, runs the engine's scenarios one by one in this process, printing a
 * line per finished scenario as it happens (and a heartbeat while a request is outstanding), then writes the
 * reports and prints the text report. Every line goes through the key scrubber.
 *
 * It runs no test runner: an earlier version ran vitest in-process with its own stdout stream, which vitest's
 * terminal renderer fed back into itself under a TTY (an endless write loop: no output after "RUN", a fork
 * worker left a zombie, no exit).
 *
 * Exit codes: 0 the target keeps the document's promises (warnings and baseline-accepted findings do not
 * fail); 1 a finding the baseline does not accept, an expired baseline entry, a failed scenario, or a reach
 * below `--min-reach` (with `--replay`: a request that still fails); 2 an invalid setting, baseline or report file,
 * or a document the
 * Prism mock refuses or does not load within its deadline; 3 an internal error of the suite; 4 incomplete:
 * nothing failed, but the request budget or an unanswering target cut the run short (the closing line and
 * every report say how much was not run).
 */
import type { Scrubber } from "../../wire/redact.js";
import { ContractRun, preflight, preflightResults } from "./contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import type { Scenario } from "../engine/scenario.js";
import { helpText, OPTIONS, resolveOptions, SettingsError, type ResolvedOptions } from "../config/options.js";
import { BaselineError, loadBaseline, type Baseline } from "../report/baseline.js";
import { finishRun } from "./finish.js";
import { closingLines, exitCodeOf, formatText } from "../report/render.js";
import { superviseMock, type MockSupervisor, type Out } from "../transport/mock-target.js";
import { replayReport, ReplayError } from "./replay.js";
import { LoginError } from "../engine/session.js";
import { settingsFrom, type Settings } from "../config/settings.js";
import { runScrubber } from "../transport/target.js";
import { outsideText } from "../../openapi/lib/outside-text.js";
import { exitAfterOutput } from "../../openapi/lib/exit.js";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The settings of a dry run, with where each came from. */
function describeSettings(resolved: ResolvedOptions, out: Out): void {
  out("Settings (flags > environment > config file > defaults):");
  for (const o of OPTIONS.filter((x) => x.name !== "help")) {
    const r = resolved.get(o.name);
    const value = o.flag === false && r ? "(set)" : r ? JSON.stringify(r.value) : o.default;
    out(`  ${o.name.padEnd(22)} ${value}   ${r ? `from ${r.label}` : "(default)"}`);
  }
}

/** Runs the planned scenarios with a line per finished scenario, a heartbeat, and the failure limit. */
async function execute(run: ContractRun, scenarios: Scenario[], out: Out): Promise<ScenarioResult[]> {
  const { settings } = run;
  const started = Date.now();
  const reason = await preflight(settings, run.recover);
  if (reason) {
    out(`✗ the target did not answer the preflight within ${seconds(Date.now() - started)}: ${reason}`);
    return preflightResults(run, scenarios, reason);
  }
  for (const line of await run.logIn()) out(line.charAt(0).toUpperCase() + line.slice(1));
  // The requests in flight (several with more than one worker), for the heartbeat: it names the oldest.
  const inflight = new Set<{ method: string; path: string; since: number }>();
  const send = run.target.send;
  run.target.send = async (spec) => {
    const request = { method: spec.method, path: spec.path, since: Date.now() };
    inflight.add(request);
    try {
      return await send(spec);
    } finally {
      inflight.delete(request);
    }
  };
  let current = "";
  let lastLine = Date.now();
  const print: Out = (line) => {
    lastLine = Date.now();
    out(line);
  };
  const heartbeat = setInterval(
    () => {
      if (Date.now() - lastLine < settings.heartbeatMs) return;
      const oldest = inflight.values().next().value;
      const waiting = oldest
        ? `: waiting ${seconds(Date.now() - oldest.since)} for ${oldest.method} ${oldest.path}`
        : "";
      print(`  … still running ${current}${waiting} (${seconds(Date.now() - started)} in all)`);
    },
    Math.min(1000, settings.heartbeatMs),
  );
  const width = String(scenarios.length).length;
  // The scenarios running now, for the heartbeat (several with more than one worker).
  const running = new Map<number, { label: string; since: number }>();
  const labelOf = (s: Scenario) =>
    `${s.operation} › ${s.id.startsWith(`${s.operation}/`) ? s.id.slice(s.operation.length + 1) : s.phase}`;
  current = "";
  let results: ScenarioResult[];
  try {
    results = await run.executor.executeAll(scenarios, {
      started: (s, i) => {
        running.set(i, { label: labelOf(s), since: Date.now() });
        current = labelOf(s);
      },
      finished: (result, i) => {
        const started = running.get(i);
        running.delete(i);
        current = [...running.values()].map((r) => r.label).join(", ");
        const errors = result.findings.filter((f) => f.severity === "error").length;
        const mark = result.status === "passed" ? "✓" : result.status === "failed" ? "✗" : "-";
        const accepted = result.accepted.length ? `, ${result.accepted.length} accepted` : "";
        const counts =
          `${plural(result.sent ?? 0, "request")}, ${plural(errors, "error")}, ` +
          `${plural(result.findings.length - errors, "warning")}${accepted}, ` +
          `${seconds(Date.now() - (started?.since ?? Date.now()))}`;
        const skip = result.status === "skipped" && result.skipReason ? ` ${result.skipReason}` : "";
        const internal = result.error ? ` internal error: ${result.error.split("\n")[0]}` : "";
        const position = `[${String(i + 1).padStart(width)}/${scenarios.length}]`;
        print(`${position} ${mark} ${started?.label ?? result.id} (${counts})${skip}${internal}`);
      },
    });
  } finally {
    clearInterval(heartbeat);
    run.target.send = send;
  }
  return results;
}

async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: { stdout: Out; stderr: Out; setScrubber(s: Scrubber): void },
): Promise<number> {
  let resolved: ResolvedOptions;
  let settings: Settings;
  let run: ContractRun;
  let planned: Scenario[];
  let baseline: Baseline;
  try {
    resolved = resolveOptions({ argv, env });
    if (resolved.get("help")?.value) {
      process.stdout.write(
        helpText(env.npm_lifecycle_event === "contract" ? "npm run contract --" : "webauto-contract"),
      );
      return 0;
    }
    settings = settingsFrom(resolved);
    if (settings.shard && resolved.get("update-baseline")?.value)
      throw new SettingsError(
        "--update-baseline needs the whole run: it cannot be combined with --shard (CONTRACT_SHARD)",
      );
    out.setScrubber(runScrubber(settings));
    baseline = loadBaseline(settings.baselinePath);
    const replay = resolved.get("replay");
    if (replay) return await replayReport(String(replay.value), resolved, out.stdout);
    // Planned (and the selections checked) before anything starts.
    run = new ContractRun(settings, baseline);
    planned = run.scenarios();
    if (resolved.get("dry-run")?.value) {
      describeSettings(resolved, out.stdout);
      out.stdout(`Seed: ${settings.seed}`);
      out.stdout(`${plural(planned.length, "scenario")} planned:`);
      for (const s of planned) out.stdout(`  ${s.id}${s.skip ? ` (${s.skip})` : ""}`);
      return 0;
    }
  } catch (err) {
    if (err instanceof SettingsError || err instanceof BaselineError || err instanceof ReplayError) {
      out.stderr(`contract: invalid setting: ${err.message}`);
      return 2;
    }
    throw err;
  }
  out.stdout(
    `Contract suite: ${settings.kind === "mock" ? "the Prism mock of" : `live target ${settings.baseUrl}, against`} ` +
      `${settings.specPath}`,
  );
  out.stdout(`Seed: ${settings.seed} (the same --seed sends the same generated data)`);
  let prism: MockSupervisor | undefined;
  try {
    if (settings.kind === "mock") {
      try {
        prism = await superviseMock(settings, out.stderr);
      } catch (err) {
        if (!(err instanceof SettingsError)) throw err;
        out.stderr(`contract: invalid setting: ${err.message}`);
        return 2;
      }
      settings = { ...settings, baseUrl: prism.url };
      run = new ContractRun(settings, baseline, prism.recover);
      out.stdout(`Prism mock listening at ${prism.url}`);
    }
    // Every line from here is scrubbed of what the run learns too (the tokens its logins get).
    out.setScrubber(run.target.scrubber);
    let results: ScenarioResult[];
    try {
      results = await execute(run, planned, out.stdout);
    } catch (err) {
      if (!(err instanceof LoginError)) throw err;
      out.stderr(`contract: invalid setting: ${err.message}`);
      return 2;
    }
    const { report, paths, baselineWritten } = finishRun(
      settings,
      results,
      run.target.requestsSent(),
      run.target.scrubber,
      { updateBaseline: Boolean(resolved.get("update-baseline")?.value), baseline, exchanges: run.exchanges },
    );
    if (baselineWritten)
      out.stdout(
        `Baseline: wrote ${baselineWritten.entries} entr${baselineWritten.entries === 1 ? "y" : "ies"} ` +
          `to ${baselineWritten.path} (the file the next run reads)`,
      );
    out.stdout("");
    for (const line of formatText(report).split("\n")) out.stdout(line);
    out.stdout(`Reports: ${Object.values(paths).join(", ")}`);
    out.stdout("");
    for (const line of closingLines(report, "contract", true)) out.stdout(line);
    return exitCodeOf(report.verdict);
  } finally {
    await prism?.stop();
  }
}

let scrubber: Scrubber | undefined;
// Every line is scrubbed of the keys, and its control characters (from names, values and messages a document or
// a server wrote) are shown escaped: no line can retitle, recolour or clear the terminal (issue 17).
const writer =
  (stream: NodeJS.WriteStream): Out =>
  (line) =>
    void stream.write(`${outsideText(scrubber ? scrubber.text(line) : line)}\n`);

main(process.argv.slice(2), process.env, {
  stdout: writer(process.stdout),
  stderr: writer(process.stderr),
  setScrubber: (s) => (scrubber = s),
}).then(
  (code) => exitAfterOutput(code),
  (err: unknown) => {
    let secret = scrubber;
    try {
      secret ??= runScrubber({
        apiKey: process.env.CONTRACT_API_KEY ?? "",
        secondApiKey: process.env.CONTRACT_SECOND_API_KEY,
      });
    } catch {
      secret = undefined;
    }
    const text = `contract: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    process.stderr.write(`${secret ? secret.text(text) : text}\n`);
    void exitAfterOutput(3);
  },
);
