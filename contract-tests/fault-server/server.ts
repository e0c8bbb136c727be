/**
 * A small, correct in-memory implementation of the document's operations on 127.0.0.1 (plus `GET
 * /v1/browser/requests/{id}`, which the live service has and a document copy may add), which can inject
 * faults. The base URL `${url}/variant/<fault>[+<fault>...]` serves the faults named; `/variant/conforming`
 * serves none. Its own choices where the seed is silent: 401 for a missing or empty key, 403 for a wrong one,
 * 415 for a body that is not JSON, a maximum page size of 100, extra response members, 422 for an invalid
 * schema body, 404 for an unknown browser request id. Two accounts, each with its own records.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { browserRequests, makeId, TYPE_CODES } from "./records.js";
import { gzipSync } from "node:zlib";
import { TRANSPORT_FAULTS, type Fault } from "./faults.js";
import { EXTRA_HEADERS, takes, withExtraMembers, withOtherDateTimes, type Lenient } from "./lenient.js";

/** The key of the first account (the one the suite is given). */
export const FAULT_SERVER_KEY = "fault-server-secret-key-7f3a9c";
/** The key of the second account (for the isolation phase). */
export const FAULT_SERVER_SECOND_KEY = "fault-server-second-key-2b8d41";
/** Another key of the first account, with the characters .NET and PHP serialisers escape (`+` as \u002B, `/` as \/). */
export const FAULT_SERVER_TRICKY_KEY = "sk_live_AbC123+xyz/Q9=";

/** Hostile behaviours (not contract faults): they test that the suite gives a verdict and keeps secrets. */
export const HOSTILE = ["never-answers", "huge-bodies", "deep-bodies", "echo-key"] as const;
/** How deep the `deep-bodies` variant nests its answers (far beyond any recursion limit). */
const DEEP_BODY_LEVELS = 100_000;
/** Bytes of a huge body. */
const HUGE_BODY_BYTES = 50 * 1024 * 1024;

type Faults = ReadonlySet<string>;
type Reply = { status: number; body?: unknown; contentType?: string; headers?: Record<string, string> };
/** The fields each schema was last updated with, per variant and id (a lenient variant keeps them). */
const STORED_FIELDS = new Map<string, unknown[]>();
/** The fields a schema holds before any update (what a lenient update without fields returns). */
const INITIAL_FIELDS = [{ name: "title", type: "string", description: null, fields: [] }];
const FIRST = browserRequests(47);
const ACCOUNTS: Record<string, Array<Record<string, unknown>>> = {
  [FAULT_SERVER_KEY]: FIRST,
  [FAULT_SERVER_TRICKY_KEY]: FIRST,
  [FAULT_SERVER_SECOND_KEY]: browserRequests(6, 1000),
};

/** The key as a .NET or PHP JSON serialiser writes it inside a string. */
const escaped = (key: string) => key.replace(/\+/g, "\\u002B").replace(/\//g, "\\/");
const STATES = ["pending", "running", "completed", "failed"];
const MAX_PAGE_SIZE = 100;

const isInt32 = (v: unknown) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31;
const nullableString = (v: unknown) => v === undefined || v === null || typeof v === "string";
const isHttpUrl = (v: unknown) => typeof v === "string" && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);
const now = () => new Date().toISOString();
const invalid = (faults: Faults, status: number, message: string, lenient: () => Reply): Reply =>
  faults.has("server-error-on-bad-input")
    ? { status: 500, body: { message: "boom" } }
    : faults.has("accepts-invalid-input")
      ? lenient()
      : { status, body: { message } };

function sitemap(body: any, faults: Faults, cache: Map<string, number>): Reply {
  // Lenient: an ill-typed max_cache_age is ignored (as if not sent); a url or an integer outside its format is taken
  // as it is.
  if (
    takes(faults, "lenient-ignores-ill-typed") &&
    typeof body === "object" &&
    body !== null &&
    body.max_cache_age !== undefined &&
    body.max_cache_age !== null &&
    !Number.isInteger(body.max_cache_age)
  ) {
    const { max_cache_age: _ignored, ...rest } = body;
    body = rest;
  }
  // A handler that reads the body's members without checking it is an object (Python's body.get on None or an int).
  if (faults.has("non-object-body-500") && (body === null || typeof body === "number"))
    return { status: 500, body: { message: `'${body === null ? "NoneType" : "int"}' object has no attribute 'get'` } };
  // One that checks a number where the url goes (400) but calls a string method on anything else.
  if (
    faults.has("wrong-type-member-500") &&
    typeof body === "object" &&
    body !== null &&
    (body.url === null || typeof body.url === "boolean" || Array.isArray(body.url))
  )
    return { status: 500, body: { message: "TypeError: body.url.startsWith is not a function" } };
  const formats = takes(faults, "lenient-formats");
  const ok =
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    (formats ? typeof body.url === "string" : isHttpUrl(body.url)) &&
    (body.max_cache_age === undefined ||
      body.max_cache_age === null ||
      (formats ? Number.isInteger(body.max_cache_age) : isInt32(body.max_cache_age)));
  if (!ok) return invalid(faults, 400, "invalid body", () => sitemapResult(String(body?.url), false, faults));
  const url = URL.canParse(body.url) ? new URL(body.url) : undefined;
  if (url?.hostname.endsWith(".invalid") && !faults.has("unreachable-answers-200"))
    return {
      status: 503,
      body: {
        type: "sitemap_request",
        id: makeId("smr_", 7),
        code: "site_unavailable",
        message: "The requested site is unavailable.",
      },
    };
  // A server that reads a nullable member without its null (valid input: null is not given).
  if (faults.has("null-cache-age-500") && body.max_cache_age === null)
    return { status: 500, body: { message: "Nullable object must have a value." } };
  const age = body.max_cache_age ?? 0;
  const cachedAt = cache.get(body.url);
  const fromCache =
    faults.has("always-from-cache") || (age > 0 && cachedAt !== undefined && Date.now() - cachedAt <= age * 1000);
  if (!fromCache) cache.set(body.url, Date.now());
  return sitemapResult(body.url, fromCache, faults);
}

function sitemapResult(site: string, fromCache: boolean, faults: Faults): Reply {
  const origin = URL.canParse(site) ? new URL(site).origin : "https://unknown.example";
  const links =
    faults.has("unreachable-answers-200") && origin.endsWith(".invalid")
      ? []
      : [`${origin}/`, `${origin}/about`, `${origin}/contact`];
  // Lenient: link_count not given (null: the interface makes it nullable), with the links given.
  const linkCount = faults.has("link-count-mismatch")
    ? links.length + 1
    : takes(faults, "lenient-null-counts")
      ? null
      : links.length;
  const result = {
    id: makeId("smr_", 1),
    url: faults.has("wrong-sitemap-url") ? `${origin}/sitemap.xml` : site,
    state: "completed",
    credit_usage: fromCache ? 0 : 1,
    error: null,
    error_reason: null,
    from_cache: fromCache,
    started_at: now(),
    completed_at: now(),
    running_time: "00:00:00.0120000",
    links,
    link_count: linkCount,
    region: "eu-west",
  };
  return { status: 200, body: faults.has("enveloped-responses") ? { data: result } : result };
}

function validFields(fields: unknown, depth = 0): boolean {
  return (
    fields === undefined ||
    (depth < 100 &&
      Array.isArray(fields) &&
      fields.every(
        (f) =>
          typeof f === "object" &&
          f !== null &&
          typeof f.name === "string" &&
          typeof f.type === "string" &&
          f.type in TYPE_CODES &&
          nullableString(f.description) &&
          validFields(f.fields, depth + 1),
      ))
  );
}

function convert(fields: any[] = [], faults: Faults): unknown[] {
  const out = fields.map((f) => ({
    name: f.name,
    type: faults.has("string-field-types") ? f.type : faults.has("colliding-type-codes") ? 0 : TYPE_CODES[f.type],
    description: f.description ?? null,
    fields: convert(f.fields, faults),
  }));
  return faults.has("reordered-fields") ? out.reverse() : out;
}

function schema(id: string, body: any, faults: Faults, variant: string): Reply {
  // Lenient: an optional member of the wrong JSON type is ignored, as if it had not been sent.
  if (takes(faults, "lenient-ignores-ill-typed") && typeof body === "object" && body !== null && !Array.isArray(body)) {
    body = Object.fromEntries(
      Object.entries(body).filter(
        ([k, v]) =>
          !(["id", "name", "description"].includes(k) && !nullableString(v)) && !(k === "fields" && !Array.isArray(v)),
      ),
    );
  }
  const ok =
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    ["id", "name", "description"].every((k) => nullableString(body[k])) &&
    validFields(body.fields);
  if (!ok)
    return invalid(faults, 422, "invalid schema", () => ({
      status: 200,
      body: { id, name: null, description: null, fields: [] },
    }));
  if (!id.startsWith("dsc_")) return { status: 404, body: { message: "no such schema" } };
  // Lenient: fields omitted from the body are kept (the interface does not say whether they are kept or cleared).
  const key = `${variant}/${id}`;
  const keep = takes(faults, "lenient-keeps-fields") && body.fields === undefined;
  const fields = keep ? (STORED_FIELDS.get(key) ?? INITIAL_FIELDS) : body.fields;
  if (!keep && body.fields !== undefined) STORED_FIELDS.set(key, body.fields);
  const result = {
    id: faults.has("wrong-schema-id") ? "dsc_someOtherSchema" : id,
    name: body.name ?? null,
    // A lost write: the description is stored (or not) but answered as null after it was sent.
    description: faults.has("description-dropped") ? null : (body.description ?? null),
    fields: convert(fields, faults),
    updated_at: now(),
  };
  return {
    status: faults.has("undocumented-status") ? 201 : 200,
    body: faults.has("enveloped-responses") ? { data: result } : result,
  };
}

function intParam(raw: string | null, fallback: number): number | undefined {
  if (raw === null) return fallback;
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

function shape(records: Array<Record<string, unknown>>, faults: Faults): Array<Record<string, unknown>> {
  let out = records;
  if (faults.has("wrong-id-prefix")) out = out.map((r) => ({ ...r, id: String(r.id).replace("brq_", "req_") }));
  if (faults.has("missing-required-field")) out = out.map(({ video: _video, ...r }) => r);
  // State rules of the document (seed 2.5): a pending request has not completed; a wait action outputs nothing.
  if (faults.has("pending-completed-at"))
    out = out.map((r) => (r.state === "pending" ? { ...r, completed_at: "2025-08-22T11:05:47.1020000+00:00" } : r));
  if (faults.has("wait-output"))
    out = out.map((r) =>
      Array.isArray(r.actions)
        ? {
            ...r,
            actions: r.actions.map((a: Record<string, unknown>) =>
              a.type === "wait"
                ? { ...a, output: `https://storage.example.com/brq/dom/${String(r.id)}/${String(a.id)}_raw.txt` }
                : a,
            ),
          }
        : r,
    );
  return out;
}

function listing(
  q: URLSearchParams,
  faults: Faults,
  records: Array<Record<string, unknown>>,
  everyone: Array<Record<string, unknown>>,
): Reply {
  const page = intParam(q.get("page"), 1);
  const size = intParam(q.get("pageSize"), faults.has("wrong-defaults") ? 20 : 30);
  // Lenient: an empty filter is read as no filter.
  const filter = (name: string) =>
    q.get(name) === "" && takes(faults, "lenient-empty-filters") ? undefined : q.get(name)?.split(",");
  const status = filter("status");
  const ids = filter("ids");
  const bad =
    page === undefined ||
    size === undefined ||
    page < 1 ||
    size < 1 ||
    size > MAX_PAGE_SIZE ||
    status?.some((s) => !STATES.includes(s)) ||
    ids?.some((id) => !/^brq_[A-Za-z0-9]+$/.test(id));
  // A page number beyond int64 (valid: the document sets no maximum) overflows this variant's parser.
  if (faults.has("int64-page-500") && /^\d+$/.test(q.get("page") ?? "") && BigInt(q.get("page")!) >= 2n ** 63n)
    return { status: 500, body: { message: "System.OverflowException: Value was either too large or too small" } };
  // A page size far beyond any real page (no maximum is documented, so it is valid input) crashes this variant.
  if (faults.has("large-page-size-500") && size !== undefined && size > 10_000)
    return { status: 500, body: { message: "System.OutOfMemoryException" } };
  if (bad && faults.has("server-error-on-bad-input")) return { status: 500, body: { message: "boom" } };
  if (bad && !faults.has("accepts-invalid-input"))
    return { status: 400, body: { message: "Invalid query parameters" } };
  if (faults.has("rejects-valid-input") && (status?.length ?? 0) > 1) return { status: 400 };
  if (faults.has("rejects-boundary-page-size") && size === 1) return { status: 400 };
  if (faults.has("existing-ids-404") && ids) return { status: 404, body: { message: "unknown browser request id" } };
  // Its own choice where the seed is silent: a well-formed id that does not exist is a 404.
  const visible = faults.has("leaks-other-accounts") ? everyone : records;
  if (!bad && ids?.some((id) => !visible.some((r) => r.id === id)))
    return { status: 404, body: { message: "unknown browser request id" } };
  const p = Math.max(1, page ?? 1);
  const s = Math.min(MAX_PAGE_SIZE, Math.max(1, size ?? 30));
  // A variant that applies only the first state of status=a,b.
  const states = faults.has("first-status-only") ? status?.slice(0, 1) : status;
  const matching = visible.filter(
    (r) =>
      (faults.has("ignores-status-filter") || !states || states.includes(r.state as string)) &&
      (faults.has("ignores-ids-filter") || !ids || ids.includes(r.id as string)),
  );
  const start = Math.max(0, (p - 1) * s - (faults.has("overlapping-pages") && p > 1 ? 1 : 0));
  const results = shape(
    matching.slice(start, start + s - (faults.has("short-pages") && matching.length > start ? 1 : 0)),
    faults,
  );
  const totalPages = faults.has("wrong-total-pages") && matching.length > 0 ? 0 : Math.ceil(matching.length / s);
  const data = { total_pages: totalPages, total_records: matching.length, results, page: p, page_size: s };
  return {
    status: 200,
    body: { data, error: faults.has("error-not-null") ? "" : null },
    contentType: faults.has("html-content-type") ? "text/html; charset=utf-8" : undefined,
  };
}

/** `GET /v1/browser/requests/{id}`: the record, or 404 (the live service's get-by-id). */
function byId(id: string, faults: Faults, records: Array<Record<string, unknown>>): Reply {
  const record = records.find((r) => r.id === id);
  if (!/^brq_[A-Za-z0-9]+$/.test(id))
    return faults.has("server-error-on-bad-input")
      ? { status: 500, body: { message: "boom" } }
      : { status: 400, body: { message: "malformed id" } };
  // A documented 500 (the copy of the document lists one) for an existing record: a failure, not an answer.
  if (record && faults.has("documented-500"))
    return {
      status: 500,
      body: { error: "(sqlite3.OperationalError) no such table: browser_requests", success: false },
    };
  if (!record)
    return faults.has("by-id-unknown-200")
      ? { status: 200, body: shape([records[0]!], faults)[0] }
      : { status: 404, body: { message: "unknown browser request id" } };
  const shaped = { ...shape([record], faults)[0] };
  if (faults.has("by-id-missing-field")) delete shaped.state;
  return { status: 200, body: shaped };
}

/**
 * Where a variant takes the credential: `credential-<where>` in its name; the document's X-API-Key header by default.
 */
const CREDENTIAL_PLACES = ["header", "bearer", "basic", "query", "cookie"] as const;
type CredentialPlace = (typeof CREDENTIAL_PLACES)[number];

function credentialPlace(faults: ReadonlySet<string>): CredentialPlace {
  return CREDENTIAL_PLACES.find((p) => faults.has(`credential-${p}`)) ?? "header";
}

/**
 * The credential of a request, read only where the variant takes it (so a suite that puts it elsewhere is
 * refused): the `X-API-Key` header, `Authorization: Bearer`, `Authorization: Basic` (user name = key), or an
 * `api_key` query parameter or cookie. `""` when present but empty, undefined when absent.
 */
function presentedKey(req: IncomingMessage, place: CredentialPlace): string | undefined {
  if (place === "header") {
    const header = req.headers["x-api-key"];
    return typeof header === "string" ? header : undefined;
  }
  if (place === "bearer" || place === "basic") {
    const authorization = req.headers.authorization;
    if (authorization === undefined) return undefined;
    const [scheme = "", value = ""] = authorization.split(/ (.*)/s);
    if (scheme.toLowerCase() !== place) return "";
    return place === "bearer"
      ? value.trim()
      : Buffer.from(value.trim(), "base64")
          .toString("utf8")
          .replace(/:[\s\S]*$/, "");
  }
  if (place === "query") return new URL(req.url ?? "/", "http://localhost").searchParams.get("api_key") ?? undefined;
  const cookie = /(?:^|;\s*)api_key=([^;]*)/.exec(req.headers.cookie ?? "");
  return cookie ? decodeURIComponent(cookie[1]!) : undefined;
}

function authorise(req: IncomingMessage, faults: Faults, path: string): Reply | string {
  const key = presentedKey(req, credentialPlace(faults));
  const byIdPath = /^\/v1\/browser\/requests\/[^/]+$/.test(path);
  if (key === undefined || (key === "" && !faults.has("empty-key-accepted")))
    return faults.has("ignores-auth") || (byIdPath && faults.has("by-id-ignores-auth"))
      ? FAULT_SERVER_KEY
      : { status: 401, body: { message: "missing API key" } };
  if (key === "" && faults.has("empty-key-accepted")) return FAULT_SERVER_KEY;
  if (typeof key === "string" && key in ACCOUNTS) return key;
  if (faults.has("wrong-key-accepted")) return FAULT_SERVER_KEY;
  return { status: 403, body: "Forbidden", contentType: "text/plain" };
}

async function readBody(req: IncomingMessage): Promise<{ json?: unknown; malformed: boolean; present: boolean }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return { malformed: false, present: false };
  try {
    return { json: JSON.parse(text), malformed: false, present: true };
  } catch {
    return { malformed: true, present: true };
  }
}

async function handle(req: IncomingMessage, cache: Map<string, number>): Promise<Reply> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const m = /^\/variant\/([^/]+)(\/v1\/.*)$/.exec(url.pathname);
  if (!m) return { status: 404, body: { message: "use /variant/<faults>/v1/..." } };
  const faults: Faults = new Set(m[1]!.split("+"));
  const path = m[2]!;
  const account = authorise(req, faults, path);
  if (typeof account !== "string") return account;
  const { json, malformed, present } = await readBody(req);
  if (faults.has("echo-key")) {
    // Every answer quotes the caller's key JSON-escaped: in a 401-style body and inside the data.
    const reply = await route(req, url, faults, path, account, json, malformed, present, cache);
    const text =
      reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    const note = `"note":"served for ${escaped(account)}"`;
    return {
      ...reply,
      body: text.startsWith("{") ? `{${note},${text.slice(1)}` : `{${note}}`,
      contentType: "application/json",
    };
  }
  return lenientOutput(await route(req, url, faults, path, account, json, malformed, present, cache), faults);
}

/**
 * A successful answer with the freedoms of output a lenient variant takes: other date-time forms, undocumented
 * headers and members.
 */
function lenientOutput(reply: Reply, faults: Faults): Reply {
  if (reply.status < 200 || reply.status >= 300 || typeof reply.body !== "object" || reply.body === null) return reply;
  let body = reply.body;
  if (takes(faults, "lenient-date-times")) body = withOtherDateTimes(body);
  if (!takes(faults, "lenient-extra-output")) return { ...reply, body };
  return { ...reply, body: withExtraMembers(body), headers: { ...EXTRA_HEADERS, ...reply.headers } };
}

/** The method each path takes (its own choice for others: 405 with Allow, as RFC 9110 says). */
const PATH_METHODS: Array<[RegExp, string]> = [
  [/^\/v1\/site\/map$/, "POST"],
  [/^\/v1\/schemas\/[^/]+$/, "PUT"],
  [/^\/v1\/browser\/requests(\/[^/]+)?$/, "GET"],
];

async function route(
  req: IncomingMessage,
  url: URL,
  faults: Faults,
  path: string,
  account: string,
  json: unknown,
  malformed: boolean,
  present: boolean,
  cache: Map<string, number>,
): Promise<Reply> {
  const allowed = PATH_METHODS.find(([re]) => re.test(path))?.[1];
  if (allowed && req.method !== allowed && req.method !== "HEAD")
    return { status: 405, body: { message: `use ${allowed}` }, headers: { allow: allowed } };
  if (
    present &&
    req.method !== "GET" &&
    !/json/i.test(req.headers["content-type"] ?? "") &&
    !faults.has("ignores-content-type") &&
    !takes(faults, "lenient-text-plain")
  )
    return { status: 415, body: { message: "send application/json" } };
  if (malformed && req.method !== "GET")
    return invalid(faults, 400, "malformed JSON", () => ({ status: 200, body: {} }));
  if (!present && req.method !== "GET" && !faults.has("accepts-invalid-input"))
    return invalid(faults, 400, "a body is required", () => ({ status: 200, body: {} }));
  // Crashes on any text outside ASCII, in the URL or the body.
  const nonAscii = /[\u0080-\uffff]/;
  if (
    faults.has("non-ascii-500") &&
    (nonAscii.test(decodeURIComponent(url.pathname + url.search)) || nonAscii.test(JSON.stringify(json ?? null)))
  )
    return { status: 500, body: { message: "'ascii' codec can't encode character" } };
  // Every listing fails (a missing table): the base of every scenario fails, valid or not.
  if (faults.has("base-request-500") && path === "/v1/browser/requests")
    return { status: 500, body: { message: "no such table: browser_requests" } };
  const records = ACCOUNTS[account]!;
  if (req.method === "POST" && path === "/v1/site/map") return sitemap(json, faults, cache);
  const schemaPath = /^\/v1\/schemas\/([^/]+)$/.exec(path);
  if (req.method === "PUT" && schemaPath)
    return schema(decodeURIComponent(schemaPath[1]!), json, faults, [...faults].sort().join("+"));
  if (req.method === "GET" && path === "/v1/browser/requests")
    return listing(url.searchParams, faults, records, [...new Set(Object.values(ACCOUNTS).flat())]);
  const byIdPath = /^\/v1\/browser\/requests\/([^/]+)$/.exec(path);
  if (req.method === "GET" && byIdPath) return byId(decodeURIComponent(byIdPath[1]!), faults, records);
  return { status: 404, body: { message: "not found" } };
}

/** Streams a 50 MB JSON body without holding it in memory. */
function sendHuge(res: ServerResponse): void {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"data":"');
  let sent = 0;
  const more = () => {
    while (sent < HUGE_BODY_BYTES) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", more);
    }
    res.end('"}');
  };
  res.on("error", () => {});
  more();
}

/**
 * Writes an answer with a fault of the wire after its status line and headers: a body that is not in its
 * declared Content-Encoding, a connection closed mid-body, a Content-Length longer or shorter than the body, a
 * byte that is not UTF-8 in JSON, or a body that stops after its first bytes and never ends.
 */
function writeFaulty(
  res: ServerResponse,
  fault: (typeof TRANSPORT_FAULTS)[number],
  status: number,
  headers: Record<string, string>,
  text: string,
): void {
  const body = Buffer.from(text);
  const coding = { "bad-gzip": "gzip", "bad-deflate": "deflate", "bad-br": "br" } as Record<string, string>;
  res.on("error", () => {});
  if (coding[fault]) return void res.writeHead(status, { ...headers, "content-encoding": coding[fault]! }).end(body);
  if (fault === "non-utf8-json") {
    // A top-level member (undocumented: a warning at most) whose value holds the byte 0xFF, never valid UTF-8.
    const bad = Buffer.concat([Buffer.from('{"note":"caf'), Buffer.from([0xff]), Buffer.from('",'), body.subarray(1)]);
    return void res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8" }).end(bad);
  }
  if (fault === "short-content-length")
    return void res.writeHead(status, { ...headers, "content-length": String(Math.floor(body.length / 2)) }).end(body);
  // long-content-length: 100 bytes more are declared than sent, and the connection is closed after the body.
  const long = fault === "long-content-length";
  res.writeHead(status, {
    ...headers,
    "content-length": String(body.length + (long ? 100 : 0)),
    ...(long ? { connection: "close" } : {}),
  });
  if (long) return void res.end(body);
  res.write(body.subarray(0, Math.floor(body.length / 2)));
  // cut-body: the connection is reset mid-body; stalled-body: it stays open and nothing more comes.
  if (fault === "cut-body") setTimeout(() => res.socket?.destroy(), 10);
}

/** A running fault server. */
export interface FaultServer {
  url: string;
  /** The base URL serving `faults` (none: the conforming server). */
  baseUrl(
    ...faults: Array<
      Fault | Lenient | "lenient" | "enveloped-responses" | (typeof HOSTILE)[number] | `credential-${CredentialPlace}`
    >
  ): string;
  stop(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and an OS-chosen port. */
export async function startFaultServer(): Promise<FaultServer> {
  const caches = new Map<string, Map<string, number>>();
  const server = createServer((req, res: ServerResponse) => {
    const variant = /^\/variant\/([^/]+)/.exec(req.url ?? "")?.[1] ?? "";
    const api = /^\/variant\/[^/]+\/v1\//.test(req.url ?? "");
    // Accepts the connection and a request with a key, never answers it (a keyless preflight is refused at once).
    const parts = new Set(variant.split("+"));
    if (api && parts.has("never-answers") && presentedKey(req, credentialPlace(parts))) return;
    if (api && parts.has("huge-bodies")) return void sendHuge(res);
    // Every keyed API request is answered 200 with a body nested DEEP_BODY_LEVELS deep (the keyless preflight is
    // refused at once).
    if (api && parts.has("deep-bodies") && presentedKey(req, credentialPlace(parts))) {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(`{"data":${"[".repeat(DEEP_BODY_LEVELS)}${"]".repeat(DEEP_BODY_LEVELS)}}`);
    }
    if (!caches.has(variant)) caches.set(variant, new Map());
    handle(req, caches.get(variant)!).then(
      (r) => {
        const text = r.body === undefined ? "" : typeof r.body === "string" ? r.body : JSON.stringify(r.body);
        const headers = { ...r.headers, ...(text ? { "content-type": r.contentType ?? "application/json" } : {}) };
        const listingAnswer = /^\/variant\/[^/]+\/v1\/browser\/requests(\?|$)/.test(req.url ?? "");
        const fault = listingAnswer ? TRANSPORT_FAULTS.find((f) => parts.has(f)) : undefined;
        if (fault) return writeFaulty(res, fault, r.status, headers, text);
        // Lenient: a body compressed as the request accepts it (a correct gzip encoding, RFC 9110 8.4.1.3).
        if (text && takes(parts, "lenient-compressed") && /\bgzip\b/.test(req.headers["accept-encoding"] ?? ""))
          return void res.writeHead(r.status, { ...headers, "content-encoding": "gzip" }).end(gzipSync(text));
        res.writeHead(r.status, headers);
        res.end(text);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: (...faults) => `${url}/variant/${faults.length ? faults.join("+") : "conforming"}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
