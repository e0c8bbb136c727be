/**
 * The suite's global setup (one process, before any worker): the settings (given by run.ts, else read from
 * the environment once), the Prism mock of the document when no live server is named, and a preflight
 * request with a short deadline so a target that does not answer gets a verdict at once.
 */
import type { TestProject } from "vitest/node";
import { startPrism, type PrismServer } from "../openapi/lib/prism.js";
import "./context.js";
import { preflight } from "./engine/run.js";
import { readSettings } from "./settings.js";

/** Starts what the run needs; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = { ...(project.getProvidedContext().contractSettings ?? readSettings(process.env)) };
  let prism: PrismServer | undefined;
  if (settings.kind === "mock") {
    prism = await startPrism({ spec: settings.specPath });
    settings.baseUrl = prism.url;
  }
  const reason = await preflight(settings);
  project.provide("contract", { settings, ...(reason ? { preflight: reason } : {}) });
  return async () => {
    await prism?.stop();
  };
}
