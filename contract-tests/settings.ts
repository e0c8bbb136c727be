/**
 * The suite's settings, read once from the environment (CONTRACT_* variables) and validated: every error
 * names the variable and the rule, and never prints a secret.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOperationTable } from "../openapi/lib/operations.js";
import { DocumentError, loadSpec, SPEC_PATH } from "../openapi/lib/spec.js";
import { headerValueProblem } from "../src/values.js";

/** The validated settings of one run. */
export interface Settings {
  /** `mock` when the suite starts the Prism mock itself (no CONTRACT_BASE_URL), `live` for any other target. */
  kind: "mock" | "live";
  /** Base URL without a trailing slash; empty for the mock until it is started. */
  baseUrl: string;
  apiKey: string;
  /** A key of another account, for the account-isolation phase. */
  secondApiKey: string | undefined;
  /** Values for parameters and body members: `operationId.name` or `name` to a value. */
  params: Record<string, unknown>;
  /** The OpenAPI document the suite reads (CONTRACT_SPEC; default openapi/openapi.yaml). */
  specPath: string;
  strict: boolean;
  reportsDir: string;
  /** The most requests the run may send (CONTRACT_MAX_REQUESTS); the rest is skipped. */
  maxRequests: number;
  /** The most bytes of a response body the suite reads (CONTRACT_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** Deadline of each request in ms (CONTRACT_TIMEOUT_MS); operations a module knows to be slow get more unless it is set. */
  timeoutMs: number;
  /** CONTRACT_TIMEOUT_MS was set: it applies to every operation. */
  timeoutExplicit: boolean;
  /** Deadline of the preflight request in ms (CONTRACT_PREFLIGHT_TIMEOUT_MS). */
  preflightTimeoutMs: number;
  /** Generated valid requests per operation (CONTRACT_EXAMPLES). */
  examples: number;
  /** Site whose sitemap the server can read, and one that cannot be reached (the sitemap module's inputs). */
  sitemapUrl: string;
  unavailableUrl: string;
  /** The baseline of accepted findings (CONTRACT_BASELINE), if any. */
  baselinePath: string | undefined;
}

/** A setting that breaks a rule; the message names the variable and the rule. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/** The key the suite sends to the mock (Prism accepts any non-empty key). */
export const MOCK_API_KEY = "contract-mock-key-0000";

/** The baseline `--update-baseline` writes when CONTRACT_BASELINE is not set. */
export const DEFAULT_BASELINE_PATH = fileURLToPath(new URL("./baseline.json", import.meta.url));

/** Defaults of the request budget: generous for the mock, safe for a live (billed) target. */
export const DEFAULT_MAX_REQUESTS = { mock: 5000, live: 400 } as const;

function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback?: string): string {
  const raw = env[name]?.trim() || fallback;
  if (!raw) throw new SettingsError(`${name} is required: set it to an http(s) URL`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw.replace(/\/\/[^/]*@/, "//***@").slice(0, 80))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SettingsError(`${name} must use http or https, got ${JSON.stringify(url.protocol)}`);
  // Credentials in a URL end up in logs, reports and curl lines: refused without echoing them.
  if (url.username || url.password) throw new SettingsError(`${name} must not contain credentials (user:password@); pass the key as CONTRACT_API_KEY`);
  return raw;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "" || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw new SettingsError(`${name} must be 1 or 0 (true or false), got ${JSON.stringify(env[name]?.slice(0, 20))}`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new SettingsError(`${name} must be an integer of at least ${min}, got ${JSON.stringify(raw.slice(0, 20))}`);
  return Number(raw);
}

/** Keys are header values: printable Latin-1, no control characters. The message never shows the key. */
function key(env: NodeJS.ProcessEnv, name: string, required: boolean): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") {
    if (required) throw new SettingsError(`${name} is required (non-empty) when CONTRACT_BASE_URL points at a live server`);
    return undefined;
  }
  const problem = headerValueProblem(raw);
  if (problem) throw new SettingsError(`${name} ${problem}`);
  return raw;
}

function params(env: NodeJS.ProcessEnv): Record<string, unknown> {
  let raw = env.CONTRACT_PARAMS?.trim() ?? "";
  const out: Record<string, unknown> = {};
  if (raw.startsWith("@")) {
    const file = resolve(raw.slice(1));
    if (!existsSync(file)) throw new SettingsError(`CONTRACT_PARAMS names a file that does not exist: ${file}`);
    raw = readFileSync(file, "utf8");
  }
  if (raw) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new SettingsError('CONTRACT_PARAMS must be a JSON object such as {"updateDataSchema.id": "dsc_..."} (or @file.json)');
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new SettingsError("CONTRACT_PARAMS must be a JSON object of parameter names to values");
    Object.assign(out, parsed);
  }
  // The older single setting: the schema the suite may overwrite.
  const schemaId = env.CONTRACT_SCHEMA_ID?.trim();
  if (schemaId) out["updateDataSchema.id"] ??= schemaId;
  for (const [name, value] of Object.entries(out)) {
    if (value === "." || value === "..") throw new SettingsError(`CONTRACT_PARAMS ${name} must not be "${value}": a dot segment would send requests to another path`);
    if (typeof value === "string" && /[\u0000-\u001f\u007f]/.test(value)) throw new SettingsError(`CONTRACT_PARAMS ${name} must not contain control characters`);
  }
  return out;
}

/** Parses the environment; throws SettingsError naming the variable and rule on bad input. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const live = Boolean(env.CONTRACT_BASE_URL?.trim());
  const kind = live ? "live" : "mock";
  let baseUrl = "";
  if (live) {
    const raw = httpUrl(env, "CONTRACT_BASE_URL");
    const url = new URL(raw);
    if (url.search || url.hash) throw new SettingsError("CONTRACT_BASE_URL must not carry a query string or fragment");
    baseUrl = raw.replace(/\/+$/, "");
  }
  const specPath = resolve(env.CONTRACT_SPEC?.trim() || SPEC_PATH);
  if (!existsSync(specPath)) throw new SettingsError(`CONTRACT_SPEC names a file that does not exist: ${specPath}`);
  let doc: Record<string, any>;
  try {
    doc = loadSpec(specPath);
  } catch (err) {
    if (err instanceof DocumentError) throw new SettingsError(`CONTRACT_SPEC: ${err.message}`);
    throw err;
  }
  if (buildOperationTable(doc).length === 0) throw new SettingsError(`CONTRACT_SPEC: ${specPath} has no operations under "paths": there is nothing to check`);
  // The document's paths are appended to the base URL: a base ending in the segment every path starts with
  // (e.g. /v1) would double it.
  const paths = Object.keys(doc.paths ?? {});
  const last = new URL(baseUrl || "http://localhost/").pathname.replace(/\/+$/, "").split("/").pop();
  if (last && paths.length > 0 && paths.every((p) => p.split("/")[1] === last)) {
    throw new SettingsError(`CONTRACT_BASE_URL must not end in /${last}: every path of the document starts with /${last}, and the suite appends the paths to it`);
  }
  const baseline = env.CONTRACT_BASELINE?.trim();
  return {
    kind,
    baseUrl,
    apiKey: key(env, "CONTRACT_API_KEY", live) ?? MOCK_API_KEY,
    secondApiKey: key(env, "CONTRACT_SECOND_API_KEY", false),
    params: params(env),
    specPath,
    strict: flag(env, "CONTRACT_STRICT"),
    reportsDir: resolve(env.CONTRACT_REPORTS_DIR?.trim() || "reports"),
    maxRequests: integer(env, "CONTRACT_MAX_REQUESTS", DEFAULT_MAX_REQUESTS[kind], 1),
    maxBodyBytes: integer(env, "CONTRACT_MAX_BODY_BYTES", 8 * 1024 * 1024, 1024),
    timeoutMs: integer(env, "CONTRACT_TIMEOUT_MS", 30_000, 100),
    timeoutExplicit: Boolean(env.CONTRACT_TIMEOUT_MS?.trim()),
    preflightTimeoutMs: integer(env, "CONTRACT_PREFLIGHT_TIMEOUT_MS", 10_000, 100),
    examples: integer(env, "CONTRACT_EXAMPLES", live ? 4 : 10, 0),
    sitemapUrl: httpUrl(env, "CONTRACT_SITEMAP_URL", "https://example.com"),
    unavailableUrl: httpUrl(env, "CONTRACT_UNAVAILABLE_URL", "https://unavailable.invalid/"),
    baselinePath: baseline ? resolve(baseline) : undefined,
  };
}

/** A parameter's configured value: `operationId.name` first, then `name`. */
export function configuredValue(settings: Pick<Settings, "params">, operationId: string, name: string): { found: boolean; value?: unknown } {
  for (const key of [`${operationId}.${name}`, name]) if (Object.hasOwn(settings.params, key)) return { found: true, value: settings.params[key] };
  return { found: false };
}
