/**
 * The suite's settings, read once from the command line, the environment (CONTRACT_* variables) and the config
 * file (options.ts holds the table of every option) and validated: every error names the flag, variable or
 * config key and the rule, and never prints a secret.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DocumentError } from "../../openapi/lib/document-error.js";
import { SPEC_PATH } from "../../openapi/lib/spec.js";
import { headerValueProblem } from "../../wire/headers.js";
import { specModel } from "../model/model.js";
import {
  DEFAULT_WORKERS,
  parseShare,
  resolveOptions,
  SettingsError,
  type Resolved,
  type ResolvedOptions,
} from "./options.js";
import { runShare } from "./select-operations.js";
import type { Shard } from "../model/link-groups.js";

export { SettingsError } from "./options.js";

/** The validated settings of one run. */
/** An account the suite logs in as: a user name and password, or an OAuth2 client's id and secret. */
export type Login = { username: string; password: string } | { clientId: string; clientSecret: string };

export interface Settings {
  /** `mock` when the suite starts the Prism mock itself (no CONTRACT_BASE_URL), `live` for any other target. */
  kind: "mock" | "live";
  /** Base URL without a trailing slash; empty for the mock until it is started. */
  baseUrl: string;
  apiKey: string;
  /** A key of another account, for the account-isolation phase. */
  secondApiKey: string | undefined;
  /** The accounts the suite logs in as, by user name and password, or as an OAuth2 client (environment only). */
  logins: { first?: Login; second?: Login };
  /** The operation that logs in (--login-operation); inferred when absent. */
  loginOperation?: string;
  /** Where the login's answer holds the token (--token-pointer); inferred when absent. */
  tokenPointer?: string;
  /** The word an apiKey header's credential goes after (--credential-prefix); read from the description otherwise. */
  credentialPrefix?: string;
  /** Values for parameters and body members: `operationId.name` or `name` to a value. */
  params: Record<string, unknown>;
  /** The OpenAPI document the suite reads (CONTRACT_SPEC; default openapi/openapi.yaml). */
  specPath: string;
  strict: boolean;
  /** Infer producers of path identifiers where the document has no links (CONTRACT_INFER_LINKS, default true). */
  inferLinks: boolean;
  reportsDir: string;
  /**
   * The most requests the run may send (CONTRACT_MAX_REQUESTS; default {@link defaultMaxRequests}); the rest is
   * skipped.
   */
  maxRequests: number;
  /** How many requests the suite has in flight at once (CONTRACT_WORKERS; default {@link DEFAULT_WORKERS}). */
  workers: number;
  /** The least share (0..1) of the selected operations the run must reach (CONTRACT_MIN_REACH), if set. */
  minReach?: number;
  /** The most bytes of a response body the suite reads (CONTRACT_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /**
   * Deadline of each request in ms (CONTRACT_TIMEOUT_MS); operations a module knows to be slow get more unless it is
   * set.
   */
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
  /** The baseline of accepted findings (CONTRACT_BASELINE; read when the file exists, written by --update-baseline). */
  baselinePath: string;
  /** Seed of the generated data (CONTRACT_SEED). */
  seed: number;
  /** Selections (CONTRACT_OPERATIONS, CONTRACT_PHASES, CONTRACT_CHECKS); undefined: all. */
  operations?: string[];
  phases?: string[];
  checks?: string[];
  /** Stop after this many failed scenarios (CONTRACT_MAX_FAILURES). */
  maxFailures?: number;
  /** A "still waiting" line after this long without output (CONTRACT_HEARTBEAT_MS). */
  heartbeatMs: number;
  /**
   * How long the Prism mock may take to listen, in ms (CONTRACT_PRISM_START_TIMEOUT_MS); default: 60 s plus 15 s per
   * MB of the document.
   */
  prismStartTimeoutMs?: number;
  /**
   * How many Prism processes serve the embedded mock (CONTRACT_MOCK_PROCESSES); unset: one, or two for a document
   * over 1 MB on a machine with two cores or more (transport/mock-target.ts).
   */
  mockProcesses?: number;
  /** The share of the operations this run takes (--shard i/n, CONTRACT_SHARD; see shard.ts), if split. */
  shard?: Shard;
}

/** The fixed seed of every generated sample (repeatable runs). */
export const GENERATION_SEED = 20_251_121;

/**
 * Generated valid requests per operation on the embedded mock, by default: Prism answers every valid request with
 * the same example, so two (each optional parameter sent in one of them) tell what ten did
 * (engine/mock-plan.ts).
 */
const MOCK_EXAMPLES = 2;

/** The key the suite sends to the mock (Prism accepts any non-empty key). */
export const MOCK_API_KEY = "contract-mock-key-0000";

/** The project's committed baseline of the staging service (the staging workflow names it with CONTRACT_BASELINE). */
export const DEFAULT_BASELINE_PATH = fileURLToPath(new URL("../baseline.json", import.meta.url));

/** The baseline a run reads (when it exists) and `--update-baseline` writes, unless CONTRACT_BASELINE names another. */
const BASELINE_FILE = "contract-baseline.json";

/** The least default request budget: generous for the mock, safe for a live (billed) target. */
export const DEFAULT_MAX_REQUESTS = { mock: 5000, live: 400 } as const;

/**
 * The default budget per selected operation, so a large document is reached whole (see README, settings). A
 * whole mock run spent 17 to 20 requests per operation on public documents (GitHub's 1,223 operations:
 * 21,194) before the mock's plan (engine/mock-plan.ts: 9,547 since), 16 on the project's three (module
 * scenarios); a live run of a document with accounts and resources spends up to about 40 (the security phases:
 * hostile strings, server-owned members, another account's writes).
 */
const REQUESTS_PER_OPERATION = { mock: 40, live: 60 } as const;

/**
 * The default request budget of a run of `operations` selected operations: the larger of the floor and the
 * per-operation share.
 */
function defaultMaxRequests(kind: Settings["kind"], operations: number): number {
  return Math.max(DEFAULT_MAX_REQUESTS[kind], REQUESTS_PER_OPERATION[kind] * operations);
}

/**
 * The document shipped with the package (openapi/openapi.yaml next to its package.json), wherever this code runs from
 * (sources or the bundled CLI).
 */
function packagedDocument(): string {
  if (existsSync(SPEC_PATH)) return SPEC_PATH;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "openapi", "openapi.yaml");
    if (existsSync(join(dir, "package.json")) && existsSync(file)) return file;
  }
  return SPEC_PATH;
}

/** The options of one run: `get(name)` is the value or undefined, `label(name)` names where it came from. */
class Options {
  constructor(private readonly map: ResolvedOptions) {}
  get(name: string): Resolved | undefined {
    return this.map.get(name);
  }
  text(name: string): string | undefined {
    const v = this.map.get(name)?.value;
    return v === undefined ? undefined : String(v);
  }
  label(name: string, fallback: string): string {
    return this.map.get(name)?.label ?? fallback;
  }
}

function httpUrl(o: Options, name: string, env: string, fallback?: string): string {
  const raw = o.text(name)?.trim() || fallback;
  const label = o.label(name, env);
  if (!raw) throw new SettingsError(`${label} is required: set it to an http(s) URL`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(
      `${label} must be an absolute http(s) URL, ` +
        `got ${JSON.stringify(raw.replace(/\/\/[^/]*@/, "//***@").slice(0, 80))}`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SettingsError(`${label} must use http or https, got ${JSON.stringify(url.protocol)}`);
  // Credentials in a URL end up in logs, reports and curl lines: refused without echoing them.
  if (url.username || url.password)
    throw new SettingsError(`${label} must not contain credentials (user:password@); pass the key as CONTRACT_API_KEY`);
  return raw;
}

const integer = (o: Options, name: string, fallback: number): number =>
  (o.get(name)?.value as number | undefined) ?? fallback;

/** Keys are header values: printable Latin-1, no control characters. The message never shows the key. */
function key(o: Options, name: string, env: string, required: boolean): string | undefined {
  const raw = o.text(name);
  if (raw === undefined || raw === "") {
    if (required)
      throw new SettingsError(`${env} is required (non-empty) when CONTRACT_BASE_URL points at a live server`);
    return undefined;
  }
  const problem = headerValueProblem(raw);
  if (problem) throw new SettingsError(`${env} ${problem}`);
  return raw;
}

/**
 * The accounts to log in as, from the environment: a user name with its password, or an OAuth2 client with its
 * secret, for the first account and the second. One without the other is an invalid setting naming both.
 */
function loginsOf(o: Options): Settings["logins"] {
  const pair = (a: string, b: string, envA: string, envB: string): [string, string] | undefined => {
    const x = o.text(a);
    const y = o.text(b);
    if (!x && !y) return undefined;
    if (!x || !y) throw new SettingsError(`${x ? envB : envA} is required (non-empty) with ${x ? envA : envB}`);
    for (const [value, env] of [
      [x, envA],
      [y, envB],
    ] as const) {
      const problem = headerValueProblem(value);
      if (problem) throw new SettingsError(`${env} ${problem}`);
    }
    return [x, y];
  };
  const account = (prefix: string, env: string): Login | undefined => {
    const user = pair(`${prefix}username`, `${prefix}password`, `CONTRACT_${env}USERNAME`, `CONTRACT_${env}PASSWORD`);
    if (user) return { username: user[0], password: user[1] };
    const client = pair(
      `${prefix}client-id`,
      `${prefix}client-secret`,
      `CONTRACT_${env}CLIENT_ID`,
      `CONTRACT_${env}CLIENT_SECRET`,
    );
    return client ? { clientId: client[0], clientSecret: client[1] } : undefined;
  };
  const first = account("", "");
  const second = account("second-", "SECOND_");
  return { ...(first ? { first } : {}), ...(second ? { second } : {}) };
}

/**
 * CONTRACT_REPORTS_DIR: a directory, or a path the suite can create one at (its nearest existing ancestor
 * is a directory). Checked before the first request, so a file there fails at once, not after the run.
 */
function reportsDir(o: Options): string {
  const dir = resolve(o.text("reports-dir")?.trim() || "reports");
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(at)) {
      if (!statSync(at).isDirectory())
        throw new SettingsError(
          `${o.label("reports-dir", "CONTRACT_REPORTS_DIR")} must name a directory ` +
            `(or where one can be made), but ${at} is a file`,
        );
      return dir;
    }
    if (dirname(at) === at) return dir;
  }
}

function params(o: Options): Record<string, unknown> {
  const given = o.get("params");
  const label = o.label("params", "CONTRACT_PARAMS");
  // No prototype: a parameter named __proto__ keeps its configured value (Object.assign would set the prototype).
  const out: Record<string, unknown> = Object.create(null);
  let parsed: unknown = given?.value;
  if (typeof parsed === "string") {
    let raw = parsed.trim();
    if (raw.startsWith("@")) {
      const file = resolve(raw.slice(1));
      if (!existsSync(file)) throw new SettingsError(`${label} names a file that does not exist: ${file}`);
      raw = readFileSync(file, "utf8");
    }
    try {
      parsed = raw ? JSON.parse(raw) : {};
    } catch {
      throw new SettingsError(
        `${label} must be a JSON object such as {"updateDataSchema.id": "dsc_..."} (or @file.json)`,
      );
    }
  }
  if (parsed !== undefined) {
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      throw new SettingsError(`${label} must be a JSON object of parameter names to values`);
    Object.assign(out, parsed);
  }
  // The older single setting: the schema the suite may overwrite.
  const schemaId = o.text("schema-id")?.trim();
  if (schemaId) out["updateDataSchema.id"] ??= schemaId;
  for (const [name, value] of Object.entries(out)) {
    if (value === "." || value === "..")
      throw new SettingsError(
        `${label} ${name} must not be "${value}": a dot segment would send requests to another path`,
      );
    if (typeof value === "string" && /[\u0000-\u001f\u007f]/.test(value))
      throw new SettingsError(`${label} ${name} must not contain control characters`);
  }
  return out;
}

const list = (o: Options, name: string): string[] | undefined => {
  const v = o.get(name)?.value as string[] | undefined;
  return v?.length ? v : undefined;
};

/**
 * Parses the environment alone (no flags, no config file); throws SettingsError naming the variable and rule on bad
 * input.
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return settingsFrom(resolveOptions({ env, configFile: false }));
}

/**
 * The settings of resolved options (flags, environment, config file); throws SettingsError naming the option and
 * rule.
 */
export function settingsFrom(resolved: ResolvedOptions): Settings {
  const o = new Options(resolved);
  const live = Boolean(o.text("base-url")?.trim());
  const kind = live ? "live" : "mock";
  let baseUrl = "";
  const baseLabel = o.label("base-url", "CONTRACT_BASE_URL");
  if (live) {
    const raw = httpUrl(o, "base-url", "CONTRACT_BASE_URL");
    const url = new URL(raw);
    if (url.search || url.hash) throw new SettingsError(`${baseLabel} must not carry a query string or fragment`);
    baseUrl = raw.replace(/\/+$/, "");
  }
  const specLabel = o.label("spec", "CONTRACT_SPEC");
  const specPath = resolve(o.text("spec")?.trim() || packagedDocument());
  if (!existsSync(specPath)) throw new SettingsError(`${specLabel} names a file that does not exist: ${specPath}`);
  // Read once per process: the plan, the preflight and the reports reuse the same model.
  let model: ReturnType<typeof specModel>;
  try {
    model = specModel(specPath);
  } catch (err) {
    if (err instanceof DocumentError) throw new SettingsError(`${specLabel}: ${err.message}`);
    throw err;
  }
  const doc = model.source;
  if (model.operations.length === 0)
    throw new SettingsError(`${specLabel}: ${specPath} has no operations under "paths": there is nothing to check`);
  // The document's paths are appended to the base URL: a base ending in the segment every path starts with
  // (e.g. /v1) would double it.
  const paths = Object.keys(doc.paths ?? {});
  const last = new URL(baseUrl || "http://localhost/").pathname.replace(/\/+$/, "").split("/").pop();
  if (last && paths.length > 0 && paths.every((p) => p.split("/")[1] === last)) {
    throw new SettingsError(
      `${baseLabel} must not end in /${last}: every path of the document starts ` +
        `with /${last}, and the suite appends the paths to it`,
    );
  }
  const maxFailures = o.get("max-failures")?.value as number | undefined;
  const shardText = o.text("shard")?.trim();
  const shard = shardText ? parseShard(shardText, o.label("shard", "CONTRACT_SHARD")) : undefined;
  const prismStartTimeoutMs = o.get("prism-start-timeout-ms")?.value as number | undefined;
  const mockProcesses = o.get("mock-processes")?.value as number | undefined;
  const minReach = o.get("min-reach");
  const operations = list(o, "operations");
  // The budget scales with what the run takes: its shard's operations, narrowed by --operations.
  const inferLinks = (o.get("infer-links")?.value as boolean | undefined) ?? true;
  const selected = runShare(model, { shard, inferLinks, operations }).selected.length;
  const logins = loginsOf(o);
  const tokenPointer = o.text("token-pointer")?.trim();
  const credentialPrefix = o.text("credential-prefix")?.trim();
  if (credentialPrefix && !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(credentialPrefix))
    throw new SettingsError(
      `${o.label("credential-prefix", "CONTRACT_CREDENTIAL_PREFIX")} must be one word a header can carry (e.g. ` +
        `Token), got ${JSON.stringify(credentialPrefix.slice(0, 40))}`,
    );
  if (tokenPointer && !tokenPointer.startsWith("/"))
    throw new SettingsError(
      `${o.label("token-pointer", "CONTRACT_TOKEN_POINTER")} must be a JSON pointer starting with "/" ` +
        "(e.g. /auth_token), " +
        `got ${JSON.stringify(tokenPointer.slice(0, 40))}`,
    );
  return {
    kind,
    baseUrl,
    apiKey: key(o, "api-key", "CONTRACT_API_KEY", live && !logins.first) ?? (logins.first ? "" : MOCK_API_KEY),
    secondApiKey: key(o, "second-api-key", "CONTRACT_SECOND_API_KEY", false),
    logins,
    ...(o.text("login-operation")?.trim() ? { loginOperation: o.text("login-operation")!.trim() } : {}),
    ...(tokenPointer ? { tokenPointer } : {}),
    ...(credentialPrefix ? { credentialPrefix } : {}),
    params: params(o),
    specPath,
    strict: (o.get("strict")?.value as boolean | undefined) ?? false,
    inferLinks,
    // A shard writes to its own folder unless told otherwise, where `npm run contract:merge` looks.
    reportsDir:
      o.text("reports-dir")?.trim() || !shard
        ? reportsDir(o)
        : resolve(`reports/shard-${shard.index}-of-${shard.count}`),
    maxRequests: integer(o, "max-requests", defaultMaxRequests(kind, selected)),
    workers: integer(o, "workers", DEFAULT_WORKERS[kind]),
    ...(minReach ? { minReach: parseShare(minReach.value, minReach.label) } : {}),
    maxBodyBytes: integer(o, "max-body-bytes", 8 * 1024 * 1024),
    timeoutMs: integer(o, "timeout-ms", 30_000),
    timeoutExplicit: o.get("timeout-ms") !== undefined,
    preflightTimeoutMs: integer(o, "preflight-timeout-ms", 10_000),
    examples: integer(o, "examples", live ? 4 : MOCK_EXAMPLES),
    sitemapUrl: httpUrl(o, "sitemap-url", "CONTRACT_SITEMAP_URL", "https://example.com"),
    unavailableUrl: httpUrl(o, "unavailable-url", "CONTRACT_UNAVAILABLE_URL", "https://unavailable.invalid/"),
    baselinePath: resolve(o.text("baseline")?.trim() || BASELINE_FILE),
    seed: integer(o, "seed", GENERATION_SEED),
    ...(operations ? { operations } : {}),
    ...(list(o, "phases") ? { phases: list(o, "phases") } : {}),
    ...(list(o, "checks") ? { checks: list(o, "checks") } : {}),
    ...(maxFailures !== undefined ? { maxFailures } : {}),
    heartbeatMs: integer(o, "heartbeat-ms", 10_000),
    ...(prismStartTimeoutMs !== undefined ? { prismStartTimeoutMs } : {}),
    ...(mockProcesses !== undefined ? { mockProcesses } : {}),
    ...(shard ? { shard } : {}),
  };
}

/** A parameter's configured value: `operationId.name` first, then `name`. */
export function configuredValue(
  settings: Pick<Settings, "params">,
  operationId: string,
  name: string,
): { found: boolean; value?: unknown } {
  for (const key of [`${operationId}.${name}`, name])
    if (Object.hasOwn(settings.params, key)) return { found: true, value: settings.params[key] };
  return { found: false };
}

/** Reads `i/n` (1 ≤ i ≤ n); `name` is the flag or variable it came from, for the message. */
export function parseShard(raw: string, name = "CONTRACT_SHARD"): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count || count > 1000)
    throw new SettingsError(
      `${name} must be i/n with 1 ≤ i ≤ n ≤ 1000 (e.g. 2/4), got ${JSON.stringify(raw.slice(0, 20))}`,
    );
  return { index, count };
}
