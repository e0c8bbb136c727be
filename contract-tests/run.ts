/**
 * `npm run contract`: runs the contract suite against CONTRACT_BASE_URL, or, when it is unset, against the
 * Prism mock of the document started on a free loopback port. Prints the report grouped by operation, writes
 * reports/contract-report.json and reports/contract-junit.xml, and exits non-zero on any error-severity
 * violation or failing test.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrism, type PrismServer } from "../openapi/lib/prism.js";
import { readSettings, SettingsError } from "./config.js";
import { redact } from "./redact.js";
import { buildJsonReport, formatReport, readRecords, resetRecords } from "./report.js";
import { schemaExample } from "./requests.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = fileURLToPath(new URL("./vitest.config.ts", import.meta.url));

function runVitest(env: NodeJS.ProcessEnv, secret: string): Promise<number> {
  const cli = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
  const child = spawn(process.execPath, [cli, "run", "--config", CONFIG], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  // Vitest's own output passes through the redactor too, line by line (a chunk may split the key).
  const pipe = (from: NodeJS.ReadableStream, to: NodeJS.WritableStream) => {
    let pending = "";
    from.on("data", (b: Buffer) => {
      const lines = (pending + b.toString()).split("\n");
      pending = lines.pop() ?? "";
      if (lines.length) to.write(redact(lines.join("\n") + "\n", secret));
    });
    from.on("end", () => pending && to.write(redact(pending, secret)));
  };
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  return new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  let mock: PrismServer | undefined;
  if (!env.CONTRACT_BASE_URL?.trim()) {
    mock = await startPrism({ mode: "mock" });
    Object.assign(env, { CONTRACT_BASE_URL: mock.url, CONTRACT_TARGET_KIND: "mock" });
  } else delete env.CONTRACT_TARGET_KIND; // only run.ts may declare a target to be the mock
  try {
    const settings = readSettings(env, schemaExample().id);
    env.CONTRACT_REPORTS_DIR = settings.reportsDir;
    mkdirSync(settings.reportsDir, { recursive: true });
    resetRecords(settings.reportsDir);
    console.log(`Contract suite: ${settings.kind} target ${settings.baseUrl}${mock ? " (Prism mock of openapi/openapi.yaml)" : ""}`);
    const vitestCode = await runVitest(env, settings.apiKey);
    const report = buildJsonReport({ kind: settings.kind, baseUrl: settings.baseUrl, strict: settings.strict }, readRecords(settings.reportsDir));
    const jsonPath = join(settings.reportsDir, "contract-report.json");
    writeFileSync(jsonPath, redact(JSON.stringify({ ...report, vitestExitCode: vitestCode }, null, 2), settings.apiKey) + "\n");
    console.log(`\n${redact(formatReport(report), settings.apiKey)}`);
    console.log(`Reports: ${jsonPath}, ${join(settings.reportsDir, "contract-junit.xml")}`);
    return vitestCode !== 0 || report.summary.errors > 0 ? 1 : 0;
  } finally {
    await mock?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const secret = process.env.CONTRACT_API_KEY;
    if (err instanceof SettingsError) console.error(`contract: invalid setting: ${err.message}`);
    else console.error(redact(`contract: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, secret));
    process.exit(2);
  },
);
