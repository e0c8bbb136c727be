/**
 * `npm run contract [-- --update-baseline]`: checks the settings (exit 2 on an invalid one, before anything
 * starts), then runs the suite with vitest in this process, its output passed through the key scrubber.
 * With no CONTRACT_BASE_URL the global setup serves the document with the Prism mock.
 *
 * Exit codes: 0 the target keeps the document's promises (warnings and baseline-accepted findings do not
 * fail); 1 a finding the baseline does not accept, an expired baseline entry, or a failed test; 2 an invalid
 * setting or baseline file; 3 an internal error of the suite.
 */
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { startVitest } from "vitest/node";
import type { Scrubber } from "../src/redact.js";
import ContractReporter, { VERDICT } from "./reporter.js";
import { BaselineError, loadBaseline } from "./report/baseline.js";
import { readSettings, SettingsError } from "./settings.js";
import { runScrubber } from "./target.js";

const CONFIG = fileURLToPath(new URL("./vitest.config.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A stream that scrubs whole lines before passing them on (a chunk may split the key). */
function scrubbing(to: NodeJS.WriteStream, scrubber: Scrubber): Writable & { flushRest(): void } {
  let pending = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      if (lines.length) to.write(scrubber.text(`${lines.join("\n")}\n`));
      done();
    },
  }) as Writable & { flushRest(): void };
  stream.flushRest = () => {
    if (pending) to.write(scrubber.text(pending));
    pending = "";
  };
  return Object.assign(stream, { isTTY: false, columns: to.columns ?? 120 });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "update-baseline": { type: "boolean", default: false }, help: { type: "boolean", default: false } } });
  if (values.help) {
    console.log("usage: npm run contract [-- --update-baseline]   (settings: CONTRACT_* variables, see README)");
    return 0;
  }
  let settings;
  try {
    settings = readSettings(process.env);
    loadBaseline(settings.baselinePath);
  } catch (err) {
    if (err instanceof SettingsError || err instanceof BaselineError) {
      console.error(`contract: invalid setting: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const scrubber = runScrubber(settings);
  console.log(`Contract suite: ${settings.kind === "mock" ? "the Prism mock of" : `live target ${settings.baseUrl}, against`} ${settings.specPath}`);
  const out = scrubbing(process.stdout, scrubber);
  const err = scrubbing(process.stderr, scrubber);
  const reporter = new ContractReporter();
  (globalThis as Record<symbol, unknown>)[VERDICT] = undefined;
  const vitest = await startVitest(
    "test",
    [],
    { config: CONFIG, root: ROOT, watch: false, reporters: ["default", reporter, fileURLToPath(new URL("../scripts/summary-reporter.ts", import.meta.url))], provide: { contractSettings: settings, contractOptions: { updateBaseline: values["update-baseline"] } } },
    {},
    { stdout: out, stderr: err },
  );
  await vitest.close();
  out.flushRest();
  err.flushRest();
  const verdict = reporter.report?.verdict ?? (globalThis as Record<symbol, unknown>)[VERDICT];
  if (!verdict) return 3; // no report: the suite itself failed to run (vitest printed why)
  // The report is the authority (it holds failed tests too; after --update-baseline vitest still saw them fail).
  return verdict === "pass" ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    let secret: Scrubber | undefined;
    try {
      secret = runScrubber({ apiKey: process.env.CONTRACT_API_KEY ?? "", secondApiKey: process.env.CONTRACT_SECOND_API_KEY });
    } catch {
      secret = undefined;
    }
    const text = `contract: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    console.error(secret ? secret.text(text) : text);
    process.exit(3);
  },
);
