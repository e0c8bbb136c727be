/** What the global setup hands to the suite's workers and reporter (vitest provide/inject). */
import type { ScenarioResult } from "./engine/run.js";
import type { Settings } from "./settings.js";

/** The run as the workers see it: settings with the base URL resolved, and the preflight's failure, if any. */
export interface ContractContext {
  settings: Settings;
  preflight?: string;
}

/** Options of `npm run contract` beyond the settings. */
export interface ContractOptions {
  updateBaseline: boolean;
}

declare module "vitest" {
  interface ProvidedContext {
    /** Settings parsed by run.ts (absent when vitest is started directly: the global setup parses them). */
    contractSettings?: Settings;
    contractOptions?: ContractOptions;
    contract: ContractContext;
  }
  interface TaskMeta {
    contract?: ScenarioResult;
  }
}
