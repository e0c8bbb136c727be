/**
 * Every option of the contract suite, in ONE table: its flag, environment variable, config-file key, kind,
 * default and description. The table drives the command-line parser, the environment reader, the config
 * file (and its JSON Schema), and `--help`. To add an option, add a row (and read it in settings.ts).
 *
 * Precedence: a flag beats the environment, which beats the config file, which beats the default.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readJsonFile } from "../../openapi/lib/self-contained.js";
import { ALWAYS_RUN, SELECTABLE_PHASES } from "../model/phases.js";

/** A setting that breaks a rule; the message names the flag, variable or config key and the rule. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/** What kind of value an option takes: how it is parsed from text, and its JSON Schema in a config file. */
export type OptionKind =
  | { type: "boolean" }
  /** An integer of at least `min` (and at most `max`, when given). */
  | { type: "integer"; min: number; max?: number }
  | { type: "string" }
  | { type: "path" }
  | { type: "url" }
  /** A comma-separated list on the command line and in the environment, an array of strings in a file. */
  | { type: "list" }
  /** A JSON object, or `@file.json` naming one. */
  | { type: "json" }
  /** A share: a number from 0 to 1, or a percentage from 0% to 100% (a number or a string in a file). */
  | { type: "share" };

/** One row of the table. */
export interface OptionDef {
  /** The flag, without `--`. */
  name: string;
  /** The environment variable; absent when the option is a command-line action only. */
  env?: string;
  /** The config-file key; absent when the option may not be in a file (secrets, actions). */
  key?: string;
  /** False: not a flag (a secret is read from the environment only: a flag shows in `ps` and shell history). */
  flag?: boolean;
  kind: OptionKind;
  /** The default as --help shows it (the effective default may depend on the target: see the description). */
  default: string;
  /** Placeholder of the value in --help. */
  value?: string;
  description: string;
  /** Other names users try (never accepted: an unknown option names this one as the closest). */
  aliases?: string[];
}

/**
 * The default number of requests in flight at once, per target kind, as `npm run bench:workers` measured them on
 * the 2-core machine (median of 3 alternating rounds). Live, the conforming fault server behind 50 ms a request:
 * 1 worker 6.8 s, 4 2.4 s (2.8x), 8 1.9 s (3.5x), 16 1.6 s (4.2x): 8, the fewest past 3x, a load a staging server
 * takes (a 429 or 503 slows the whole run down). Mock, Prism on the same two cores: 4 is the fastest (1.65x one
 * worker), more only queue at Prism.
 */
export const DEFAULT_WORKERS = { mock: 4, live: 8 } as const;

/** The table. Order is the order of --help. */
export const OPTIONS: readonly OptionDef[] = [
  {
    name: "base-url",
    env: "CONTRACT_BASE_URL",
    key: "baseUrl",
    kind: { type: "url" },
    default: "(the Prism mock of the document)",
    value: "<url>",
    description:
      "The server to check, without the document's common path prefix " +
      "(e.g. no /v1). No credentials, query or fragment.",
    aliases: ["url", "target", "server", "base"],
  },
  {
    name: "api-key",
    env: "CONTRACT_API_KEY",
    flag: false,
    kind: { type: "string" },
    default: "(mock: a placeholder)",
    description:
      "The credential (environment only). Required for a live target; never " +
      "printed: reports and curl lines say $CONTRACT_API_KEY.",
  },
  {
    name: "second-api-key",
    env: "CONTRACT_SECOND_API_KEY",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description:
      "A key of another account (environment only), for the isolation phase; without it that phase is skipped.",
  },
  {
    name: "username",
    env: "CONTRACT_USERNAME",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description:
      "A user name (environment only): with CONTRACT_PASSWORD the suite logs in by itself, through the document's " +
      "login operation (--login-operation, or inferred) or its OAuth2 password flow, and sends the token it gets as " +
      "the security scheme says. Replaces CONTRACT_API_KEY.",
  },
  {
    name: "password",
    env: "CONTRACT_PASSWORD",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description: "The password of CONTRACT_USERNAME (environment only; never printed, nor any token it gets).",
  },
  {
    name: "second-username",
    env: "CONTRACT_SECOND_USERNAME",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description:
      "Another account's user name (environment only), with CONTRACT_SECOND_PASSWORD: logged in like the first, " +
      "for the isolation and authorization phases.",
  },
  {
    name: "second-password",
    env: "CONTRACT_SECOND_PASSWORD",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description: "The password of CONTRACT_SECOND_USERNAME (environment only).",
  },
  {
    name: "client-id",
    env: "CONTRACT_CLIENT_ID",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description:
      "An OAuth2 client (environment only), with CONTRACT_CLIENT_SECRET: the suite gets a token from the document's " +
      "client-credentials flow (its tokenUrl).",
  },
  {
    name: "client-secret",
    env: "CONTRACT_CLIENT_SECRET",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description: "The secret of CONTRACT_CLIENT_ID (environment only).",
  },
  {
    name: "second-client-id",
    env: "CONTRACT_SECOND_CLIENT_ID",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description: "Another account's OAuth2 client (environment only), with CONTRACT_SECOND_CLIENT_SECRET.",
  },
  {
    name: "second-client-secret",
    env: "CONTRACT_SECOND_CLIENT_SECRET",
    flag: false,
    kind: { type: "string" },
    default: "(unset)",
    description: "The secret of CONTRACT_SECOND_CLIENT_ID (environment only).",
  },
  {
    name: "login-operation",
    env: "CONTRACT_LOGIN_OPERATION",
    key: "loginOperation",
    kind: { type: "string" },
    default: "(inferred)",
    value: "<operationId>",
    description:
      "The operation that logs in with CONTRACT_USERNAME and CONTRACT_PASSWORD; by default the open POST whose body " +
      "takes a user name and a password and whose answer holds a token.",
    aliases: ["login", "auth-operation", "signin"],
  },
  {
    name: "token-pointer",
    env: "CONTRACT_TOKEN_POINTER",
    key: "tokenPointer",
    kind: { type: "string" },
    default: "(inferred)",
    value: "<json-pointer>",
    description:
      "Where the login's answer holds the token, as a JSON pointer (/auth_token); by default the member the " +
      "answer's schema, else the answer, names like a token (access_token, token, jwt...).",
    aliases: ["token-path", "token"],
  },
  {
    name: "credential-prefix",
    env: "CONTRACT_CREDENTIAL_PREFIX",
    key: "credentialPrefix",
    kind: { type: "string" },
    default: "(from the scheme's description)",
    value: "<word>",
    description:
      "The word an apiKey header's credential is written after, a space between (Token: `Authorization: Token " +
      "<jwt>`), where the scheme's description does not show it (a description that writes `Token <jwt>` or " +
      "`Token xxxxx.yyyyy.zzzzz` is read by itself).",
    aliases: ["token-prefix", "auth-prefix", "key-prefix"],
  },
  {
    name: "spec",
    env: "CONTRACT_SPEC",
    key: "spec",
    kind: { type: "path" },
    default: "openapi/openapi.yaml (the package's document)",
    value: "<file>",
    description:
      "The OpenAPI document (3.x or Swagger 2.0, YAML or JSON) the target is checked against; the mock serves it too.",
    aliases: ["document", "schema", "openapi"],
  },
  {
    name: "params",
    env: "CONTRACT_PARAMS",
    key: "params",
    kind: { type: "json" },
    default: "{}",
    value: "<json|@file>",
    description:
      'Values for parameters and body members, as {"operationId.name": value} or {"name": value}; on a live ' +
      "target a path parameter of an operation that changes data comes from here or from a resource the run " +
      "created.",
  },
  {
    name: "schema-id",
    env: "CONTRACT_SCHEMA_ID",
    key: "schemaId",
    kind: { type: "string" },
    default: "(unset)",
    value: "<id>",
    description: 'Older form of params {"updateDataSchema.id": <id>}.',
  },
  {
    name: "strict",
    env: "CONTRACT_STRICT",
    key: "strict",
    kind: { type: "boolean" },
    default: "false",
    description:
      "Undocumented members and envelopes are errors, and so is every acceptance of input the document " +
      "rules out (not only where the operation documents a refusal), format and pattern included.",
  },
  {
    name: "infer-links",
    env: "CONTRACT_INFER_LINKS",
    key: "inferLinks",
    kind: { type: "boolean" },
    default: "true",
    description:
      "Infer where path identifiers come from when the document has no links for them: a create's response (a " +
      "member named like the parameter or id, or a Location header) and a listing's items on the same " +
      "collection, matched by name and schema. The report names each inferred link.",
  },
  {
    name: "operations",
    env: "CONTRACT_OPERATIONS",
    key: "operations",
    kind: { type: "list" },
    default: "(every operation)",
    value: "<list>",
    description:
      "Only these operations: operationIds, path globs (/v1/browser/*, ** for any depth, " +
      "optionally after a method: 'GET /v1/*') or tag:<tag>, comma-separated.",
    aliases: ["only", "include", "operation", "endpoints", "filter"],
  },
  {
    name: "phases",
    env: "CONTRACT_PHASES",
    key: "phases",
    kind: { type: "list" },
    default: "(every phase)",
    value: "<list>",
    description:
      `Only these phases: ${SELECTABLE_PHASES.join(", ")} (a phase no scenario of the run has is refused, naming ` +
      `those it has; ${ALWAYS_RUN.join(", ")} runs whatever the selection).`,
  },
  {
    name: "checks",
    env: "CONTRACT_CHECKS",
    key: "checks",
    kind: { type: "list" },
    default: "(every check)",
    value: "<list>",
    description: "Only these checks (ids as in reports, e.g. response_schema_conformance).",
  },
  {
    name: "seed",
    env: "CONTRACT_SEED",
    key: "seed",
    kind: { type: "integer", min: 0 },
    default: "20251121",
    value: "<n>",
    description: "Seed of the generated data: the same seed sends the same requests.",
    aliases: ["random-seed", "hypothesis-seed"],
  },
  {
    name: "max-requests",
    env: "CONTRACT_MAX_REQUESTS",
    key: "maxRequests",
    kind: { type: "integer", min: 1 },
    default: "400 live, 5000 mock, or 25 live / 40 mock per selected operation where that is more",
    value: "<n>",
    description:
      "The request budget: sending stops at this many requests, the rest is skipped with the reason. A whole " +
      "mock run spends 17 to 20 requests per operation on public documents, so the default reaches every " +
      "operation of a large document (GitHub's 1,223).",
    aliases: ["budget", "requests", "limit"],
  },
  {
    name: "workers",
    env: "CONTRACT_WORKERS",
    key: "workers",
    kind: { type: "integer", min: 1, max: 64 },
    default: `${DEFAULT_WORKERS.live} live, ${DEFAULT_WORKERS.mock} mock`,
    value: "<n>",
    description:
      "How many requests the suite has in flight at once (1 sends one at a time); the defaults are measured " +
      "(npm run bench:workers).",
    aliases: ["concurrency", "parallel", "jobs"],
  },
  {
    name: "min-reach",
    env: "CONTRACT_MIN_REACH",
    key: "minReach",
    kind: { type: "share" },
    default: "(none: any reach passes)",
    value: "<share|N%>",
    description:
      "Fail the run (exit 1) when the share of the selected operations it reached (an operation with at least " +
      "one request answered with a status line) is below this: a number from 0 to 1 (0.8) or a percentage (80%).",
    aliases: ["reach", "coverage", "min-coverage"],
  },
  {
    name: "max-failures",
    env: "CONTRACT_MAX_FAILURES",
    key: "maxFailures",
    kind: { type: "integer", min: 1 },
    default: "(no limit)",
    value: "<n>",
    description: "Stop after this many failed scenarios; the rest is skipped with the reason.",
    aliases: ["exitfirst", "fail-fast", "bail"],
  },
  {
    name: "examples",
    env: "CONTRACT_EXAMPLES",
    key: "examples",
    kind: { type: "integer", min: 0 },
    default: "4 live, 2 mock",
    value: "<n>",
    description: "Generated valid requests per operation.",
  },
  {
    name: "timeout-ms",
    env: "CONTRACT_TIMEOUT_MS",
    key: "timeoutMs",
    kind: { type: "integer", min: 100 },
    default: "30000 (more for operations a module knows to be slow)",
    value: "<ms>",
    description: "Deadline of each request; when set it applies to every operation.",
  },
  {
    name: "preflight-timeout-ms",
    env: "CONTRACT_PREFLIGHT_TIMEOUT_MS",
    key: "preflightTimeoutMs",
    kind: { type: "integer", min: 100 },
    default: "10000",
    value: "<ms>",
    description: "Deadline of the keyless first request that decides whether the target answers at all.",
  },
  {
    name: "prism-start-timeout-ms",
    env: "CONTRACT_PRISM_START_TIMEOUT_MS",
    key: "prismStartTimeoutMs",
    kind: { type: "integer", min: 1000 },
    default: "60000 + 15000 per MB of the document",
    value: "<ms>",
    description:
      "How long the Prism mock may take to load the document and listen " +
      "(a line every 10 s says how long it has been loading).",
  },
  {
    name: "mock-processes",
    env: "CONTRACT_MOCK_PROCESSES",
    key: "mockProcesses",
    kind: { type: "integer", min: 1, max: 16 },
    default: "1, or 2 for a document over 1 MB on 2 cores or more",
    value: "<n>",
    description:
      "How many Prism processes serve the embedded mock; requests go to each in turn. Prism answers a request on " +
      "one core, so a large document's run is bound by it (measured: npm run bench:corpus).",
  },
  {
    name: "shard",
    env: "CONTRACT_SHARD",
    key: "shard",
    kind: { type: "string" },
    default: "(the whole run)",
    value: "<i/n>",
    description:
      "Run shard i of n: a fixed share of the operations (operations joined by links stay " +
      "together), reports in reports/shard-i-of-n/; npm run contract:merge joins the shards.",
    aliases: ["split", "partition"],
  },
  {
    name: "max-body-bytes",
    env: "CONTRACT_MAX_BODY_BYTES",
    key: "maxBodyBytes",
    kind: { type: "integer", min: 1024 },
    default: "8388608",
    value: "<n>",
    description: "Bytes of a response body read; a larger body is reported by body_size_limit.",
  },
  {
    name: "heartbeat-ms",
    env: "CONTRACT_HEARTBEAT_MS",
    key: "heartbeatMs",
    kind: { type: "integer", min: 100 },
    default: "10000",
    value: "<ms>",
    description: "While a request is outstanding, a 'still waiting' line after this long without output.",
  },
  {
    name: "sitemap-url",
    env: "CONTRACT_SITEMAP_URL",
    key: "sitemapUrl",
    kind: { type: "url" },
    default: "https://example.com",
    value: "<url>",
    description: "A site whose sitemap the server can read (the sitemap module).",
  },
  {
    name: "unavailable-url",
    env: "CONTRACT_UNAVAILABLE_URL",
    key: "unavailableUrl",
    kind: { type: "url" },
    default: "https://unavailable.invalid/",
    value: "<url>",
    description: "A site that cannot be reached (the sitemap module).",
  },
  {
    name: "reports-dir",
    env: "CONTRACT_REPORTS_DIR",
    key: "reportsDir",
    kind: { type: "path" },
    default: "reports",
    value: "<dir>",
    description:
      "Where the JSON, JUnit, markdown and text reports go: a directory, or where " +
      "one can be made (a file there exits 2 before the first request).",
  },
  {
    name: "baseline",
    env: "CONTRACT_BASELINE",
    key: "baseline",
    kind: { type: "path" },
    default: "contract-baseline.json",
    value: "<file>",
    description: "The baseline of accepted findings: read when it exists; --update-baseline writes it.",
  },
  {
    name: "update-baseline",
    kind: { type: "boolean" },
    default: "false",
    description:
      "Accept every error of this run: write them to the baseline (the " +
      "file the next run reads), then judge the run against it.",
  },
  {
    name: "replay",
    kind: { type: "path" },
    default: "(off)",
    value: "<report.json>",
    description: "Re-send only the failing requests of an earlier contract-report.json and say which still fail.",
  },
  {
    name: "dry-run",
    kind: { type: "boolean" },
    default: "false",
    description: "Print the settings (with where each came from) and the planned scenarios; send nothing.",
  },
  {
    name: "config",
    env: "CONTRACT_CONFIG",
    kind: { type: "path" },
    default: 'contract.config.json, else the "contract" key of package.json',
    value: "<file>",
    description: "The config file (JSON; schema in contract.config.schema.json of the package).",
  },
  { name: "help", kind: { type: "boolean" }, default: "false", description: "This help." },
];

/** Where a value came from. */
export type Source = "flag" | "env" | "file" | "default";

/** One option's value and where it came from; `label` names the place in error messages. */
export interface Resolved {
  value: unknown;
  source: Source;
  label: string;
}

/** The options of one invocation, by name (only those given somewhere). */
export type ResolvedOptions = Map<string, Resolved>;

const byName = new Map(OPTIONS.map((o) => [o.name, o]));

/** Edit distance of two strings (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The known name closest to `name` (case, `-` and `_` ignored first), for a "did you mean" hint. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, "");
  // A name that begins with what was typed (an abbreviation) is the likeliest meaning.
  const extended = known.filter((k) => norm(name).length >= 3 && norm(k).startsWith(norm(name)));
  if (extended.length) return extended.sort((a, b) => a.length - b.length)[0];
  let best: string | undefined;
  let bestScore = Infinity;
  for (const k of known) {
    const score = distance(norm(name), norm(k)) * 10 + distance(name.toLowerCase(), k.toLowerCase());
    if (score < bestScore) [best, bestScore] = [k, score];
  }
  return best;
}

const show = (raw: string) => JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);

/** Reads a share (a number 0..1, or a text `0.8` or `80%`) as a number 0..1; throws SettingsError naming `label`. */
export function parseShare(value: unknown, label: string): number {
  const rule = `${label} must be a share from 0 to 1 (e.g. 0.8) or a percentage from 0% to 100% (e.g. 80%)`;
  if (typeof value === "number") {
    if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
    throw new SettingsError(`${rule}, got ${String(value).slice(0, 20)}`);
  }
  const text = String(value).trim();
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*(%?)$/.exec(text);
  const share = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!m || !(share >= 0 && share <= 1)) throw new SettingsError(`${rule}, got ${show(text.slice(0, 20))}`);
  return share;
}

/** Parses a text value (flag or environment) of `kind`; throws SettingsError naming `label`. */
function fromText(kind: OptionKind, raw: string, label: string): unknown {
  const text = raw.trim();
  switch (kind.type) {
    case "boolean": {
      const t = text.toLowerCase();
      if (t === "" || t === "0" || t === "false") return false;
      if (t === "1" || t === "true") return true;
      throw new SettingsError(`${label} must be 1 or 0 (true or false), got ${show(raw.slice(0, 20))}`);
    }
    case "integer":
      if (!/^\d+$/.test(text) || Number(text) < kind.min || (kind.max !== undefined && Number(text) > kind.max))
        throw new SettingsError(
          `${label} must be an integer ` +
            `${kind.max === undefined ? `of at least ${kind.min}` : `from ${kind.min} to ${kind.max}`}, ` +
            `got ${show(text.slice(0, 20))}`,
        );
      return Number(text);
    case "share":
      return parseShare(text, label);
    case "list":
      return text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return kind.type === "string" ? raw : text;
  }
}

/** The JSON Schema of a config file, from the table. */
export function configSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = { $schema: { type: "string", description: "The schema of this file." } };
  for (const o of OPTIONS.filter((x) => x.key)) {
    const k = o.kind;
    const schema =
      k.type === "boolean"
        ? { type: "boolean" }
        : k.type === "integer"
          ? { type: "integer", minimum: k.min, ...(k.max === undefined ? {} : { maximum: k.max }) }
          : k.type === "list"
            ? { type: "array", items: { type: "string", minLength: 1 } }
            : k.type === "json"
              ? { oneOf: [{ type: "object" }, { type: "string", pattern: "^@" }] }
              : k.type === "share"
                ? { type: ["number", "string"] }
                : k.type === "url"
                  ? { type: "string", pattern: "^https?://" }
                  : { type: "string", minLength: 1 };
    properties[o.key!] = {
      ...schema,
      description: `${o.description} Default: ${o.default}.${o.env ? ` Environment: ${o.env}.` : ""}`,
    };
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: 'webauto-contract configuration (contract.config.json, or the "contract" key of package.json)',
    type: "object",
    additionalProperties: false,
    properties,
  };
}

/** The config file of this run, if any: its path (for messages and relative paths) and its object. */
function readConfig(
  explicit: Resolved | undefined,
  cwd: string,
): { path: string; label: string; data: Record<string, unknown> } | undefined {
  const parse = (path: string, label: string) => readJsonFile(path, `${label} ${path}`, (m) => new SettingsError(m));
  if (explicit) {
    const path = resolve(cwd, String(explicit.value));
    if (!existsSync(path)) throw new SettingsError(`${explicit.label} names a file that does not exist: ${path}`);
    return { path, label: path, data: parse(path, explicit.label) as Record<string, unknown> };
  }
  const file = resolve(cwd, "contract.config.json");
  if (existsSync(file))
    return {
      path: file,
      label: "contract.config.json",
      data: parse(file, "contract.config.json") as Record<string, unknown>,
    };
  const pkg = resolve(cwd, "package.json");
  if (existsSync(pkg)) {
    const data = parse(pkg, "package.json") as Record<string, unknown> | null;
    if (data && typeof data === "object" && "contract" in data)
      return { path: pkg, label: 'package.json "contract"', data: data.contract as Record<string, unknown> };
  }
  return undefined;
}

let validateConfig: ReturnType<Ajv2020["compile"]> | undefined;

/** Checks a config object against the schema; throws SettingsError naming the key and the rule. */
function checkConfig(data: unknown, label: string): asserts data is Record<string, unknown> {
  validateConfig ??= new Ajv2020({ allErrors: true, strict: false }).compile(configSchema());
  if (validateConfig(data)) return;
  const err = validateConfig.errors![0]!;
  const keys = OPTIONS.filter((o) => o.key).map((o) => o.key!);
  if (err.keyword === "additionalProperties") {
    const extra = String((err.params as { additionalProperty: string }).additionalProperty);
    const secret = OPTIONS.find(
      (o) => o.name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()) === extra && o.flag === false,
    );
    throw new SettingsError(
      secret
        ? `${label}: "${extra}" may not be in a file (a committed file would hold it): set ${secret.env}`
        : `${label}: unknown key "${extra}"; did you mean "${closest(extra, keys)}"?`,
    );
  }
  const at = err.instancePath.replace(/^\//, "").split("/")[0] || "(root)";
  throw new SettingsError(`${label}: ${at} ${err.message}`);
}

/**
 * Reads every option from the command line, the environment and the config file (in that precedence).
 * Unknown flags and unknown CONTRACT_* variables are errors naming the closest known one.
 */
export function resolveOptions({
  argv = [],
  env = {},
  cwd = process.cwd(),
  configFile = true,
}: {
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  configFile?: boolean;
} = {}): ResolvedOptions {
  const out: ResolvedOptions = new Map();
  // The command line.
  const flags = OPTIONS.filter((o) => o.flag !== false);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h") {
      out.set("help", { value: true, source: "flag", label: "-h" });
      continue;
    }
    const m = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!m) throw new SettingsError(`unexpected argument ${show(arg)}: options start with -- (see --help)`);
    const name = m[1]!;
    const def = byName.get(name);
    if (!def || def.flag === false) {
      if (def)
        throw new SettingsError(
          `--${name} is not a flag: a key on the command line shows in ps and shell history; set ${def.env}`,
        );
      const names = flags.flatMap((f) => [f.name, ...(f.aliases ?? [])]);
      const near = closest(name, names);
      const suggested = flags.find((f) => f.name === near || f.aliases?.includes(near ?? ""))?.name;
      throw new SettingsError(`unknown option --${name}; did you mean --${suggested}? (see --help)`);
    }
    let raw = m[2];
    if (raw === undefined && def.kind.type !== "boolean") {
      raw = argv[++i];
      if (raw === undefined) throw new SettingsError(`--${name} needs a value ${def.value ?? ""}`.trim());
    }
    out.set(name, { value: fromText(def.kind, raw ?? "true", `--${name}`), source: "flag", label: `--${name}` });
  }
  // The environment.
  const envNames = OPTIONS.filter((o) => o.env).map((o) => o.env!);
  for (const name of Object.keys(env)) {
    if (name.startsWith("CONTRACT_") && !envNames.includes(name))
      throw new SettingsError(
        `unknown environment variable ${name}; did you mean ${closest(name, envNames)}? (see --help)`,
      );
  }
  for (const def of OPTIONS) {
    if (!def.env || out.has(def.name)) continue;
    const raw = env[def.env];
    // An empty variable is unset (a CI variable that is not configured expands to "").
    if (raw === undefined || raw.trim() === "") continue;
    out.set(def.name, { value: fromText(def.kind, raw, def.env), source: "env", label: def.env });
  }
  // The config file.
  if (configFile) {
    const config = readConfig(out.get("config"), cwd);
    if (config) {
      checkConfig(config.data, config.label);
      for (const def of OPTIONS) {
        if (!def.key || out.has(def.name) || !(def.key in config.data)) continue;
        let value = config.data[def.key];
        // Paths in a file are relative to the file.
        if (def.kind.type === "path") value = resolve(dirname(config.path), String(value));
        if (def.kind.type === "json" && typeof value === "string")
          value = `@${resolve(dirname(config.path), value.slice(1))}`;
        out.set(def.name, { value, source: "file", label: `${config.label}: ${def.key}` });
      }
    }
  }
  return out;
}

/** The command line's exit codes and what each means (run.ts returns them; --help and the README list them). */
export const EXIT_CODES: ReadonlyArray<readonly [number, string]> = [
  [0, "pass"],
  [1, "findings"],
  [2, "invalid setting"],
  [3, "internal error"],
  [4, "incomplete (the request budget or an unanswering target cut the run short)"],
];

/** The --help text, from the table. */
export function helpText(command = "webauto-contract"): string {
  const lines = [
    `usage: ${command} [options]`,
    "",
    "Checks a server (or the Prism mock of the document) against an " +
      "OpenAPI document and reports every promise it breaks.",
    "Precedence: flags > environment variables > config file " +
      '(contract.config.json, or "contract" in package.json) > defaults.',
    "Lists are comma-separated (an array in the config file). " +
      `Exit codes: ${EXIT_CODES.map(([code, what]) => `${code} ${what}`).join(", ")}.`,
    "",
  ];
  for (const o of OPTIONS) {
    const flag = o.flag === false ? `(${o.env} only)` : `--${o.name}${o.value ? ` ${o.value}` : ""}`;
    lines.push(
      `  ${flag}`,
      `      ${o.description}`,
      `      default: ${o.default}${o.env ? `   env: ${o.env}` : ""}${o.key ? `   config: ${o.key}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
