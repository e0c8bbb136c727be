/**
 * A small, correct in-memory implementation of the three operations on 127.0.0.1, which can inject faults.
 * The base URL `${url}/variant/<fault>[+<fault>...]` serves the faults named; `${url}/variant/conforming`
 * serves none. Its own choices where the seed leaves things open: 401 for a missing key, 403 for a wrong
 * one, a maximum page size of 100, extra response members, 422 for an invalid schema body, 404 for an
 * unknown browser request id in `ids`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { browserRequests, makeId, TYPE_CODES } from "./records.js";
import type { Fault } from "./faults.js";

/** The key the server accepts. */
export const FAULT_SERVER_KEY = "fault-server-secret-key-7f3a9c";

type Faults = ReadonlySet<string>;
type Reply = { status: number; body?: unknown; contentType?: string };
const RECORDS = browserRequests();
const STATES = ["pending", "running", "completed", "failed"];
const MAX_PAGE_SIZE = 100;

const isInt32 = (v: unknown) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31;
const now = () => new Date().toISOString();

function sitemap(body: any, faults: Faults, cache: Map<string, number>): Reply {
  const invalid = typeof body !== "object" || body === null || Array.isArray(body) || typeof body.url !== "string" || !(body.max_cache_age === undefined || body.max_cache_age === null || isInt32(body.max_cache_age));
  if (invalid) return faults.has("server-error-on-bad-input") ? { status: 500, body: { message: "boom" } } : faults.has("accepts-invalid-input") ? sitemapResult(String(body?.url), false, faults) : { status: 400, body: { message: "invalid body" } };
  const url = new URL(body.url);
  if (url.hostname.endsWith(".invalid") && !faults.has("unreachable-answers-200"))
    return { status: 503, body: { type: "sitemap_request", id: makeId("smr_", 7), code: "site_unavailable", message: "The requested site is unavailable." } };
  const age = body.max_cache_age ?? 0;
  const cachedAt = cache.get(body.url);
  const fromCache = faults.has("always-from-cache") || (age > 0 && cachedAt !== undefined && Date.now() - cachedAt <= age * 1000);
  if (!fromCache) cache.set(body.url, Date.now());
  return sitemapResult(body.url, fromCache, faults);
}

function sitemapResult(site: string, fromCache: boolean, faults: Faults): Reply {
  const origin = URL.canParse(site) ? new URL(site).origin : "https://unknown.example";
  const links = faults.has("unreachable-answers-200") && origin.endsWith(".invalid") ? [] : [`${origin}/`, `${origin}/about`, `${origin}/contact`];
  const linkCount = faults.has("link-count-mismatch") ? links.length + 1 : links.length;
  const result = { id: makeId("smr_", 1), url: site, state: "completed", credit_usage: fromCache ? 0 : 1, error: null, error_reason: null, from_cache: fromCache, started_at: now(), completed_at: now(), running_time: "00:00:00.0120000", links, link_count: linkCount, region: "eu-west" };
  return { status: 200, body: faults.has("enveloped-responses") ? { data: result } : result };
}

function validFields(fields: unknown): boolean {
  return fields === undefined || (Array.isArray(fields) && fields.every((f) => typeof f === "object" && f !== null && typeof f.name === "string" && typeof f.type === "string" && f.type in TYPE_CODES && (f.description === undefined || f.description === null || typeof f.description === "string") && validFields(f.fields)));
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

function schema(id: string, body: any, faults: Faults): Reply {
  const ok = typeof body === "object" && body !== null && !Array.isArray(body) && ["name", "description"].every((k) => body[k] === undefined || body[k] === null || typeof body[k] === "string") && validFields(body.fields);
  if (!ok) return faults.has("server-error-on-bad-input") ? { status: 500 } : faults.has("accepts-invalid-input") ? { status: 200, body: { id, name: null, description: null, fields: [] } } : { status: 422, body: { message: "invalid schema" } };
  if (!id.startsWith("dsc_")) return { status: 404, body: { message: "no such schema" } };
  const result = { id: faults.has("wrong-schema-id") ? "dsc_someOtherSchema" : id, name: body.name ?? null, description: body.description ?? null, fields: convert(body.fields, faults), updated_at: now() };
  return { status: faults.has("undocumented-status") ? 201 : 200, body: faults.has("enveloped-responses") ? { data: result } : result };
}

function intParam(raw: string | null, fallback: number): number | undefined {
  if (raw === null) return fallback;
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

function listing(q: URLSearchParams, faults: Faults): Reply {
  const page = intParam(q.get("page"), 1);
  const size = intParam(q.get("pageSize"), faults.has("wrong-defaults") ? 20 : 30);
  const status = q.get("status")?.split(",");
  const ids = q.get("ids")?.split(",");
  const bad = page === undefined || size === undefined || page < 1 || size < 1 || size > MAX_PAGE_SIZE || status?.some((s) => !STATES.includes(s)) || ids?.some((id) => !/^brq_[A-Za-z0-9]+$/.test(id));
  if (bad && faults.has("server-error-on-bad-input")) return { status: 500 };
  if (bad && !faults.has("accepts-invalid-input")) return { status: 400, body: { message: "Invalid query parameters" } };
  if (faults.has("rejects-valid-input") && (status?.length ?? 0) > 1) return { status: 400 };
  // Its own choice where the seed is silent: a well-formed id that does not exist is a 404.
  if (!bad && ids?.some((id) => !RECORDS.some((r) => r.id === id))) return { status: 404, body: { message: "unknown browser request id" } };
  const p = Math.max(1, page ?? 1);
  const s = Math.min(MAX_PAGE_SIZE, Math.max(1, size ?? 30));
  const matching = RECORDS.filter((r) => (faults.has("ignores-status-filter") || !status || status.includes(r.state as string)) && (faults.has("ignores-ids-filter") || !ids || ids.includes(r.id as string)));
  const start = Math.max(0, (p - 1) * s - (faults.has("overlapping-pages") && p > 1 ? 1 : 0));
  let results = matching.slice(start, start + s - (faults.has("short-pages") && matching.length > start ? 1 : 0));
  if (faults.has("wrong-id-prefix")) results = results.map((r) => ({ ...r, id: String(r.id).replace("brq_", "req_") }));
  if (faults.has("missing-required-field")) results = results.map(({ video: _video, ...r }) => r);
  const totalPages = faults.has("wrong-total-pages") && matching.length > 0 ? 0 : Math.ceil(matching.length / s);
  const data = { total_pages: totalPages, total_records: matching.length, results, page: p, page_size: s };
  return { status: 200, body: { data, error: faults.has("error-not-null") ? "" : null }, contentType: faults.has("html-content-type") ? "text/html; charset=utf-8" : undefined };
}

function authorise(req: IncomingMessage, faults: Faults): Reply | undefined {
  const key = req.headers["x-api-key"];
  if (key === undefined || key === "") return faults.has("ignores-auth") ? undefined : { status: 401, body: { message: "missing API key" } };
  if (key !== FAULT_SERVER_KEY && !faults.has("wrong-key-accepted")) return { status: 403, body: "Forbidden", contentType: "text/plain" };
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<{ json?: unknown; malformed: boolean }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return { malformed: false };
  try {
    return { json: JSON.parse(text), malformed: false };
  } catch {
    return { malformed: true };
  }
}

async function handle(req: IncomingMessage, cache: Map<string, number>): Promise<Reply> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const m = /^\/variant\/([^/]+)(\/v1\/.*)$/.exec(url.pathname);
  if (!m) return { status: 404, body: { message: "use /variant/<faults>/v1/..." } };
  const faults: Faults = new Set(m[1]!.split("+"));
  const path = m[2]!;
  const denied = authorise(req, faults);
  if (denied) return denied;
  const { json, malformed } = await readBody(req);
  if (malformed && req.method !== "GET") return faults.has("server-error-on-bad-input") ? { status: 500 } : faults.has("accepts-invalid-input") ? { status: 200, body: {} } : { status: 400, body: { message: "malformed JSON" } };
  if (req.method === "POST" && path === "/v1/site/map") return sitemap(json, faults, cache);
  const schemaPath = /^\/v1\/schemas\/([^/]+)$/.exec(path);
  if (req.method === "PUT" && schemaPath) return schema(decodeURIComponent(schemaPath[1]!), json, faults);
  if (req.method === "GET" && path === "/v1/browser/requests") return listing(url.searchParams, faults);
  return { status: 404, body: { message: "not found" } };
}

/** A running fault server. */
export interface FaultServer {
  url: string;
  /** The base URL serving `faults` (none: the conforming server). */
  baseUrl(...faults: Array<Fault | "enveloped-responses">): string;
  stop(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and an OS-chosen port. */
export async function startFaultServer(): Promise<FaultServer> {
  const caches = new Map<string, Map<string, number>>();
  const server = createServer((req, res: ServerResponse) => {
    const variant = /^\/variant\/([^/]+)/.exec(req.url ?? "")?.[1] ?? "";
    if (!caches.has(variant)) caches.set(variant, new Map());
    handle(req, caches.get(variant)!).then(
      (r) => {
        const text = r.body === undefined ? "" : typeof r.body === "string" ? r.body : JSON.stringify(r.body);
        res.writeHead(r.status, text ? { "content-type": r.contentType ?? "application/json" } : {});
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
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
