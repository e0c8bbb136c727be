/** The Prism mock a run checks when no base URL is given (the command line and --replay start it). */
import { startPrism, type PrismServer } from "../openapi/lib/prism.js";
import { SettingsError } from "./options.js";
import type { Settings } from "./settings.js";

/** Writes whole lines (the command line scrubs every key of the run from them). */
export type Out = (line: string) => void;

/** The Prism mock of the document, or an invalid setting when Prism is not installed. */
export async function startMock(settings: Pick<Settings, "specPath">): Promise<PrismServer> {
  try {
    return await startPrism({ spec: settings.specPath });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") throw new SettingsError("no --base-url (CONTRACT_BASE_URL) was given, and the Prism mock it would start needs @stoplight/prism-cli: install it (npm install --save-dev @stoplight/prism-cli@5.14.2) or name a server");
    throw err;
  }
}
