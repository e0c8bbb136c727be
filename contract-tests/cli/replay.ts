/**
 * `--replay <contract-report.json>`: sends again exactly the requests behind the errors of an earlier report
 * and re-runs the check that found each, on the new answer. The target is --base-url when given, else the
 * Prism mock of the document. A report of a live target is replayed only against a base URL the user names
 * (--base-url, CONTRACT_BASE_URL or the config file): the key is never sent to a URL read from a report file,
 * which anyone who can write that file (a CI artifact from a fork, say) controls (issue 17).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { PrismServer } from "../../openapi/lib/prism.js";
import { ALL_CHECKS } from "../modules/index.js";
import { specModel } from "../model/model.js";
import type { ResolvedOptions } from "../config/options.js";
import { placeOf } from "../report/baseline.js";
import type { ReportedFinding, RunReport } from "../report/render.js";
import { startMock, type Out } from "../transport/mock-target.js";
import { settingsFrom } from "../config/settings.js";
import { createTarget } from "../transport/target.js";
import { wireRules } from "../model/wire.js";
import { readJsonFile } from "../../openapi/lib/self-contained.js";

/** A report file that cannot be replayed (exit 2). */
export class ReplayError extends Error {
  override name = "ReplayError";
}

/** Reads a JSON report and checks the parts a replay reads. */
function readReport(file: string): RunReport {
  const path = resolve(file);
  if (!existsSync(path)) throw new ReplayError(`--replay names a file that does not exist: ${path}`);
  const report = readJsonFile(path, `--replay ${path}`, (m) => new ReplayError(m)) as RunReport;
  if (!Array.isArray(report?.findings) || typeof report.target?.spec !== "string")
    throw new ReplayError(`--replay ${path} is not a contract-report.json (no "findings" array or "target.spec")`);
  return report;
}

/** Replays the errors of `file`; returns the exit code (1 when one still fails). */
export async function replayReport(file: string, resolved: ResolvedOptions, out: Out): Promise<number> {
  const report = readReport(file);
  const options: ResolvedOptions = new Map(resolved);
  if (!options.has("spec") && existsSync(report.target.spec))
    options.set("spec", { value: report.target.spec, source: "file", label: `${file}: target.spec` });
  if (!options.has("base-url") && report.target.kind === "live")
    throw new ReplayError(
      `--replay ${resolve(file)} was written against a live target: name the target to replay against with ` +
        `--base-url (or CONTRACT_BASE_URL); the API key is never sent to a URL read from a report file`,
    );
  let settings = settingsFrom(options);
  const failing = report.findings.filter(
    (f): f is ReportedFinding & { replay: NonNullable<ReportedFinding["replay"]> } =>
      f.severity === "error" && f.replay !== undefined,
  );
  out(
    `Replay of ${report.findings.filter((f) => f.severity === "error").length} error(s) ` +
      `of ${resolve(file)}: ${failing.length} with a request to send again`,
  );
  if (failing.length === 0) return 0;
  let prism: PrismServer | undefined;
  try {
    if (settings.kind === "mock") {
      prism = await startMock(settings);
      settings = { ...settings, baseUrl: prism.url };
    }
    out(`Target: ${settings.kind === "mock" ? `the Prism mock at ${settings.baseUrl}` : settings.baseUrl}`);
    const model = specModel(settings.specPath);
    const target = createTarget(settings, wireRules(model.operations, settings.credentialPrefix));
    let still = 0;
    for (const f of failing) {
      const r = f.replay;
      const ex = await target.send({
        operation: f.operation,
        method: r.method,
        path: r.path,
        query: r.query,
        headers: r.headers,
        key: r.key,
        ...(r.bodyText !== undefined ? { rawBody: r.bodyText } : {}),
        ...(r.contentType ? { contentType: r.contentType } : {}),
      });
      const again = ALL_CHECKS.run([f.check], ex, {
        ...r.context,
        model,
        strict: report.target.strict || settings.strict,
        live: settings.kind === "live",
      }).filter((g) => g.severity === "error" && (f.instancePath === undefined || placeOf(g) === placeOf(f)));
      if (again.length) still++;
      out(
        `${again.length ? "✗ still fails" : "✓ passes now"}: ${f.operation} ${f.check}: ${f.title} ` +
          `(now ${ex.response.status || ex.response.transportError})`,
      );
      out(`    ${f.curl}`);
    }
    out("");
    out(
      `Replay: ${still} of ${failing.length} still fail${still === 1 ? "s" : ""}, ${failing.length - still} pass now`,
    );
    return still ? 1 : 0;
  } finally {
    await prism?.stop();
  }
}
