/**
 * The Prism mock a run checks when no base URL is given (the command line and --replay start it). A document
 * Prism refuses, or a start that outlasts its deadline, is a {@link SettingsError} naming the document and
 * Prism's reason (exit 2), not an internal error; while a large document loads, progress is reported.
 */
import { statSync } from "node:fs";
import { PrismStartError, startDeadlineMs, startPrism, type PrismServer } from "../../openapi/lib/prism.js";
import { SettingsError } from "../config/options.js";
import type { Settings } from "../config/settings.js";

/** Writes whole lines (the command line scrubs every key of the run from them). */
export type Out = (line: string) => void;

/**
 * The Prism mock of the document, or an invalid setting when Prism is not installed, refuses the document or does not
 * listen in time.
 */
export async function startMock(
  settings: Pick<Settings, "specPath" | "prismStartTimeoutMs">,
  progress: Out = (l) => console.error(l),
): Promise<PrismServer> {
  const spec = settings.specPath;
  const timeoutMs = settings.prismStartTimeoutMs ?? startDeadlineMs(spec);
  const mb = (statSync(spec).size / 1e6).toFixed(1);
  try {
    return await startPrism({
      spec,
      startTimeoutMs: timeoutMs,
      onWaiting: (ms, of) =>
        progress(
          `contract: the Prism mock is loading ${spec} (${mb} MB): ${Math.round(ms / 1000)} ` +
            `s of at most ${Math.round(of / 1000)} s`,
        ),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND")
      throw new SettingsError(
        "no --base-url (CONTRACT_BASE_URL) was given, and the Prism mock it would start needs " +
          "@stoplight/prism-cli: install it (npm install --save-dev @stoplight/prism-cli@5.14.2) or name a " +
          "server",
      );
    if (!(err instanceof PrismStartError)) throw err;
    if (err.reason === "exited")
      throw new SettingsError(`CONTRACT_SPEC: the Prism mock refuses ${spec}: ${err.prismMessage}`);
    throw new SettingsError(
      `CONTRACT_PRISM_START_TIMEOUT_MS: the Prism mock did not listen within ${timeoutMs} ms on ${spec} (${mb} ` +
        `MB); set --prism-start-timeout-ms (CONTRACT_PRISM_START_TIMEOUT_MS) higher on a slow or busy machine`,
    );
  }
}
