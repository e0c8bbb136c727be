/** Reads and validates the suite's settings from the environment (CONTRACT_* variables). */
import { resolve } from "node:path";

/** The validated settings of one run. */
export interface Settings {
  /** `mock` when run.ts started the Prism mock, `live` for any other target. */
  kind: "mock" | "live";
  /** Base URL without a trailing slash and without /v1. */
  baseUrl: string;
  apiKey: string;
  /** A schema the suite may overwrite; undefined on a live target means the schema checks are skipped. */
  schemaId: string | undefined;
  sitemapUrl: string;
  unavailableUrl: string;
  strict: boolean;
  reportsDir: string;
}

/** A setting that breaks a rule; the message names the variable and the rule. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/** The key the suite sends to the mock (Prism accepts any non-empty key). */
export const MOCK_API_KEY = "contract-mock-key";

function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback?: string): string {
  const raw = env[name]?.trim() || fallback;
  if (!raw) throw new SettingsError(`${name} is required: set it to an http(s) URL`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SettingsError(`${name} must use http or https, got ${JSON.stringify(url.protocol)}`);
  return raw;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "" || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw new SettingsError(`${name} must be 1 or 0 (true or false), got ${JSON.stringify(env[name])}`);
}

function baseUrl(env: NodeJS.ProcessEnv): string {
  const raw = httpUrl(env, "CONTRACT_BASE_URL");
  const url = new URL(raw);
  if (url.search || url.hash) throw new SettingsError("CONTRACT_BASE_URL must not carry a query string or fragment");
  if (/\/v1\/?$/.test(url.pathname)) throw new SettingsError("CONTRACT_BASE_URL must not end in /v1: the suite adds it to every path");
  return raw.replace(/\/+$/, "");
}

/** Parses the environment; throws SettingsError naming the variable and rule on bad input. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, mockSchemaId?: string): Settings {
  const kind = env.CONTRACT_TARGET_KIND === "mock" ? "mock" : "live";
  const apiKey = env.CONTRACT_API_KEY ?? (kind === "mock" ? MOCK_API_KEY : "");
  if (kind === "live" && apiKey.trim() === "")
    throw new SettingsError("CONTRACT_API_KEY is required (non-empty) when CONTRACT_BASE_URL points at a live server");
  if (/[\r\n]/.test(apiKey)) throw new SettingsError("CONTRACT_API_KEY must be a single line");
  const schemaId = env.CONTRACT_SCHEMA_ID?.trim() || (kind === "mock" ? mockSchemaId : undefined);
  if (schemaId !== undefined && /[/?#\s]/.test(schemaId))
    throw new SettingsError("CONTRACT_SCHEMA_ID must be a single path segment (no '/', '?', '#' or spaces)");
  return {
    kind,
    baseUrl: baseUrl(env),
    apiKey,
    schemaId,
    sitemapUrl: httpUrl(env, "CONTRACT_SITEMAP_URL", "https://example.com"),
    unavailableUrl: httpUrl(env, "CONTRACT_UNAVAILABLE_URL", "https://unavailable.invalid/"),
    strict: flag(env, "CONTRACT_STRICT"),
    reportsDir: resolve(env.CONTRACT_REPORTS_DIR?.trim() || "reports"),
  };
}
