/**
 * The opt-in semantic modules, keyed by operationId: what each operation means beyond its schemas. An
 * operation without a module gets the generic phases only; a module naming an operation the document does
 * not have is ignored.
 */
import { CheckRegistry } from "../checks/index.js";
import type { Scenario } from "../engine/scenario.js";
import type { SpecModel } from "../model/model.js";
import type { Settings } from "../config/settings.js";
import { listingModule } from "./listing.js";
import { schemasModule } from "./schemas.js";
import { sitemapModule } from "./sitemap.js";
import type { ContractModule } from "./types.js";

/** Every module, by the operationId it is about. */
const MODULES: Readonly<Record<string, ContractModule>> = Object.fromEntries(
  [sitemapModule, listingModule, schemasModule].map((m) => [m.operationId, m]),
);

/** Every check, generic and semantic (each module's for its operation): the registry a whole run and its replay use. */
export const ALL_CHECKS: CheckRegistry = new CheckRegistry();
for (const m of Object.values(MODULES)) ALL_CHECKS.register(m.operationId, m.checks);

/** The module scenarios of an operation of the document. */
export function moduleScenarios(model: SpecModel, settings: Settings, operationId: string): Scenario[] {
  return MODULES[operationId]?.scenarios?.(model, settings) ?? [];
}

/**
 * The request deadline of an operation: CONTRACT_TIMEOUT_MS when set, else the longer of the default and its
 * module's.
 */
export function timeoutFor(settings: Pick<Settings, "timeoutMs" | "timeoutExplicit">, operationId: string): number {
  return settings.timeoutExplicit
    ? settings.timeoutMs
    : Math.max(settings.timeoutMs, MODULES[operationId]?.timeoutMs ?? 0);
}
