/**
 * The CRUD fault server: a small in-memory posts service on 127.0.0.1 (its document: crud-document.ts) whose
 * base URL `${url}/variant/<fault>[+<fault>...]` plants the faults named; `/variant/conforming` plants none.
 * Each variant keeps its own posts; `GET /admin/reset` drops and re-creates them (a document a test writes lists
 * it), and every request that arrives meanwhile answers 500. Its own choices where the document is silent (all
 * lenient, all allowed): unknown body members are ignored (refused with a 400 by `lenient-refuses-unknown`),
 * responses carry an undocumented `createdAt`, and an id past the 64-bit edge is a 404 like any other unknown id.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { CRUD_KEY_HEADER } from "./crud-document.js";
import type { PhaseId } from "../model/phases.js";

/** The key the CRUD server accepts. */
export const CRUD_SERVER_KEY = "crud-server-secret-key-5e91d0";

/**
 * Each planted fault, with the check of the suite that must catch it and the phases that reach it (its self-test
 * runs only those; the conforming variant's whole runs guard every other phase against false alarms).
 */
export const CRUD_FAULTS = {
  "read-after-delete-500": { phases: ["lifecycle"], catchers: ["use_after_free"] },
  "unknown-read-500": { phases: ["unknown-ids"], catchers: ["unknown_resource"] },
  "update-without-optional-500": { phases: ["positive"], catchers: ["not_a_server_error"] },
  "delete-keeps": { phases: ["lifecycle", "links"], catchers: ["use_after_free"] },
  "update-not-persisted": { phases: ["lifecycle"], catchers: ["update_persisted"] },
  "list-omits-created": { phases: ["lifecycle"], catchers: ["listed_after_create"] },
  "id-read-as-string": { phases: ["lifecycle"], catchers: ["resource_availability", "response_schema_conformance"] },
  "delete-ignores-missing-key": { phases: ["auth"], catchers: ["ignored_auth"] },
  // A create refused with the documented 400 still stores a post (RESTler's leakage rule).
  "refused-create-stores": { phases: ["lifecycle"], catchers: ["refused_create_leak"] },
  "updated-at-writable": { phases: ["owned-members"], catchers: ["server_owned_member"] },
  "owner-from-body": { phases: ["owned-members"], catchers: ["server_owned_member"] },
  "password-in-response": { phases: ["owned-members"], catchers: ["write_only_exposed"] },
  "quote-500": { phases: ["hostile"], catchers: ["not_a_server_error"] },
  "nul-500": { phases: ["hostile"], catchers: ["not_a_server_error"] },
  "template-evaluated": { phases: ["hostile"], catchers: ["hostile_input"] },
  // Only `body` of the three strings a create sends (title, body, password) is evaluated: a run must put the template
  // into every member to see it.
  "template-evaluated-in-body": { phases: ["hostile"], catchers: ["hostile_input"] },
  // The document marks only title required; the server refuses a create without body and tags (400).
  "create-requires-every-member": { phases: ["lifecycle"], catchers: ["positive_data_acceptance"] },
  "quote-breaks-json": { phases: ["hostile"], catchers: ["content_type_conformance"] },
  "html-escaped": { phases: ["hostile"], catchers: ["hostile_input"] },
  "nul-truncated": { phases: ["hostile"], catchers: ["hostile_input"] },
  "escaped-on-read": { phases: ["hostile"], catchers: ["hostile_input"] },
} as const satisfies Record<string, { phases: readonly PhaseId[]; catchers: readonly string[] }>;

/** A planted fault of the CRUD server. */
export type CrudFault = keyof typeof CRUD_FAULTS;

/** Lenient variants: each takes a freedom the document leaves, and must pass with no error. */
export const CRUD_LENIENT = {
  "lenient-refuses-unknown":
    "a write whose body has a member its request schema does not list (an owner, an updatedAt) is refused with " +
    "the documented 400 (the schemas neither allow nor forbid other members)",
  "lenient-others-create":
    "other clients create posts all the time: every listing first stores one more post of another owner (the run " +
    "must not take it for one a refused create left)",
  "unique-title":
    "a create whose title a post already has is refused with the documented 400 (the document says nothing of " +
    "uniqueness: a client that sends a title twice is refused the second time, its own doing and no finding)",
} as const;

/** A variant of the CRUD server: a planted fault or a lenient freedom. */
export type CrudVariant = CrudFault | keyof typeof CRUD_LENIENT;

/** The members each write's request schema lists (`lenient-refuses-unknown` refuses any other). */
const LISTED: Readonly<Record<string, readonly string[]>> = {
  POST: ["title", "body", "tags", "password"],
  PUT: ["title", "body", "tags", "password"],
  PATCH: ["title", "body"],
};

type Post = {
  id: number;
  title: string;
  body?: string;
  tags?: string[];
  /** The server's: the holder of the key, and the time of the last write. */
  owner: string;
  updatedAt: string;
  password?: string;
};
type Reply = { status: number; body?: unknown; raw?: string };
interface Store {
  posts: Map<number, Post>;
  deleted: Set<number>;
  next: number;
  /** Every request the variant received, as `METHOD /path`. */
  log: string[];
  /** A reset (`GET /admin/reset`) is dropping and re-creating the posts: every other request fails meanwhile. */
  resetting?: boolean;
}

/** How long a reset takes (its document: a GET that drops and re-creates the posts, which a test writes). */
const RESET_MS = 120;

const MAX_ID = 2n ** 63n - 1n;
/** The owner of every post the key creates. */
const OWNER = "key-holder";
const message = (status: number, text: string): Reply => ({ status, body: { message: text } });
const shown = ({ password, ...p }: Post, faults: ReadonlySet<string>, read = false) => ({
  ...p,
  ...(read && faults.has("id-read-as-string") ? { id: String(p.id) } : {}),
  ...(password !== undefined && faults.has("password-in-response") ? { password } : {}),
  createdAt: "2026-01-01T00:00:00Z",
});
/** The server's time of a write, or (`updated-at-writable`) the readOnly one the body sent. */
const stamp = (b: Record<string, unknown>, faults: ReadonlySet<string>) =>
  faults.has("updated-at-writable") && typeof b.updatedAt === "string" ? b.updatedAt : new Date().toISOString();
const isText = (v: unknown, max: number, min = 0) => typeof v === "string" && v.length >= min && v.length <= max;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The text members of a post, which the string faults act on. */
const TEXTS = ["title", "body"] as const;
const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const TEMPLATE = /\{\{\s*(\d+)\s*\*\s*(\d+)\s*\}\}|\$\{\s*(\d+)\s*\*\s*(\d+)\s*\}|<%=\s*(\d+)\s*\*\s*(\d+)\s*%>/g;

/** `quote-500`, `nul-500`: a text member a store fails on (pasted into SQL; a NUL in a C string). */
function stringFailure(b: Record<string, unknown>, faults: ReadonlySet<string>): Reply | undefined {
  const texts = TEXTS.map((k) => b[k]).filter((v): v is string => typeof v === "string");
  if (faults.has("quote-500") && texts.some((t) => t.includes("'")))
    return message(500, 'sqlite3.OperationalError: near "s": syntax error');
  if (faults.has("nul-500") && texts.some((t) => t.includes("\0")))
    return message(500, "ValueError: A string literal cannot contain NUL (0x00) characters.");
  return undefined;
}

/** What a store with a planted string fault keeps of a text member: evaluated, HTML-escaped, or cut at a NUL. */
function stored(text: string, faults: ReadonlySet<string>, member: string): string {
  let out = text;
  if (faults.has("template-evaluated") || (faults.has("template-evaluated-in-body") && member === "body"))
    out = out.replace(TEMPLATE, (...m: string[]) => {
      const [a, b] = m.slice(1, 7).filter((x) => x !== undefined);
      return String(Number(a) * Number(b));
    });
  if (faults.has("html-escaped")) out = out.replace(/[&<>"']/g, (c) => HTML[c]!);
  if (faults.has("nul-truncated")) out = out.split("\0")[0]!;
  return out;
}

/** A post's text members as a store with a planted string fault keeps them. */
function storedTexts(b: Record<string, unknown>, faults: ReadonlySet<string>): Record<string, unknown> {
  const out = { ...b };
  for (const k of TEXTS) if (typeof out[k] === "string") out[k] = stored(out[k] as string, faults, k);
  return out;
}

/** A read of a post: `escaped-on-read` escapes quotes with a backslash; `quote-breaks-json` glues the JSON by hand. */
function readReply(p: Post, faults: ReadonlySet<string>): Reply {
  const read = shown(p, faults, true) as Record<string, unknown>;
  if (faults.has("escaped-on-read"))
    for (const k of TEXTS) if (typeof read[k] === "string") read[k] = (read[k] as string).replace(/['"]/g, "\\$&");
  if (!faults.has("quote-breaks-json")) return { status: 200, body: read };
  const texts = TEXTS.filter((k) => typeof read[k] === "string").map((k) => `, "${k}": "${read[k] as string}"`);
  const tags = read.tags === undefined ? "" : `, "tags": ${JSON.stringify(read.tags)}`;
  return {
    status: 200,
    raw:
      `{"id": ${JSON.stringify(read.id)}${texts.join("")}${tags}, "owner": ${JSON.stringify(read.owner)}, ` +
      `"updatedAt": ${JSON.stringify(read.updatedAt)}, "createdAt": "${read.createdAt}"}`,
  };
}

/** Why a body breaks NewPost (or PostPatch, when `patch`), or undefined. */
function invalid(body: unknown, patch: boolean): string | undefined {
  if (!isObject(body)) return "the body must be an object";
  if (patch ? body.title !== undefined && !isText(body.title, 80, 1) : !isText(body.title, 80, 1))
    return "title must be a string of 1 to 80 characters";
  if (body.body !== undefined && !isText(body.body, 500)) return "body must be a string of at most 500 characters";
  if (patch) return undefined;
  if (body.password !== undefined && !isText(body.password, 64, 8))
    return "password must be a string of 8 to 64 characters";
  const tags = body.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.length > 5 || !tags.every((t) => isText(t, 20, 1))))
    return "tags must be at most 5 strings of 1 to 20 characters";
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) throw new TypeError("not JSON");
  return JSON.parse(text) as unknown;
}

async function handle(req: IncomingMessage, path: string, store: Store, faults: ReadonlySet<string>): Promise<Reply> {
  const url = new URL(path, "http://x");
  const method = req.method ?? "GET";
  // A request that arrives while a reset drops the table: what a database does then.
  if (store.resetting) return message(500, "sqlite3.OperationalError: no such table: posts");
  if (url.pathname === "/admin/reset") {
    if (method !== "GET") return message(405, "method not allowed");
    if (req.headers[CRUD_KEY_HEADER.toLowerCase()] !== CRUD_SERVER_KEY) return message(401, "no valid key");
    store.resetting = true;
    store.posts.clear();
    await new Promise((resolve) => setTimeout(resolve, RESET_MS));
    store.resetting = false;
    return { status: 200, body: { message: "the posts were dropped and re-created" } };
  }
  const item = /^\/posts\/([^/]+)$/.exec(url.pathname);
  if (url.pathname !== "/posts" && !item) return message(404, "no such path");
  const allowed = item ? ["GET", "PUT", "PATCH", "DELETE"] : ["GET", "POST"];
  if (!allowed.includes(method)) return message(405, "method not allowed");
  const keyed = req.headers[CRUD_KEY_HEADER.toLowerCase()] === CRUD_SERVER_KEY;
  if (!keyed && !(method === "DELETE" && faults.has("delete-ignores-missing-key"))) return message(401, "no valid key");
  let body: unknown;
  try {
    body = await readBody(req);
  } catch {
    return message(400, "the body is not JSON");
  }
  const unknown = isObject(body) ? Object.keys(body).find((k) => !LISTED[method]?.includes(k)) : undefined;
  if (unknown !== undefined && faults.has("lenient-refuses-unknown")) return message(400, `unknown member ${unknown}`);
  if (!item) {
    if (method === "POST") {
      const why = invalid(body, false);
      if (why && faults.has("refused-create-stores")) {
        const b = isObject(body) ? body : {};
        const title = typeof b.title === "string" ? b.title : "";
        store.posts.set(store.next, { id: store.next++, title, owner: OWNER, updatedAt: new Date().toISOString() });
      }
      if (why) return message(400, why);
      if (faults.has("create-requires-every-member") && ["body", "tags"].some((k) => !Object.hasOwn(body as object, k)))
        return message(400, "body and tags are required");
      const title = (body as Record<string, unknown>).title;
      if (faults.has("unique-title") && [...store.posts.values()].some((p) => p.title === title))
        return message(400, "a post already has this title");
      const planted = stringFailure(body as Record<string, unknown>, faults);
      if (planted) return planted;
      const b = storedTexts(body as Record<string, unknown>, faults);
      const owner = faults.has("owner-from-body") && typeof b.owner === "string" ? b.owner : OWNER;
      const p: Post = { id: store.next++, title: b.title as string, owner, updatedAt: stamp(b, faults) };
      for (const k of ["body", "tags", "password"] as const)
        if (b[k] !== undefined) (p as Record<string, unknown>)[k] = b[k];
      store.posts.set(p.id, p);
      return { status: 201, body: shown(p, faults) };
    }
    if (faults.has("lenient-others-create"))
      store.posts.set(store.next, {
        id: store.next++,
        title: "another client's post",
        owner: "another-client",
        updatedAt: new Date().toISOString(),
      });
    const raw = url.searchParams.get("limit");
    const limit = raw === null ? 20 : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(limit >= 1 && limit <= 100)) return message(400, "limit must be an integer from 1 to 100");
    let posts = [...store.posts.values()].reverse();
    if (faults.has("list-omits-created")) posts = posts.slice(1);
    return { status: 200, body: { items: posts.slice(0, limit).map((p) => shown(p, faults)) } };
  }
  const text = decodeURIComponent(item[1]!);
  if (!/^\d+$/.test(text) || BigInt(text) < 1n) return message(400, "postId must be a positive integer");
  const id = BigInt(text) > MAX_ID ? 0 : Number(text);
  const found = store.posts.get(id);
  if (!found) {
    if (method === "GET" && store.deleted.has(id) && faults.has("read-after-delete-500")) return message(500, "boom");
    if (method === "GET" && !store.deleted.has(id) && faults.has("unknown-read-500")) return message(500, "boom");
    if (method === "DELETE" || method === "GET") return message(404, "no such post");
  }
  if (method === "GET") return readReply(found!, faults);
  if (method === "DELETE") {
    if (!faults.has("delete-keeps")) {
      store.posts.delete(id);
      store.deleted.add(id);
    }
    return { status: 204 };
  }
  const patch = method === "PATCH";
  const why = invalid(body, patch);
  if (why) return message(400, why);
  if (!found) return message(404, "no such post");
  const planted = stringFailure(body as Record<string, unknown>, faults);
  if (planted) return planted;
  const b = storedTexts(body as Record<string, unknown>, faults);
  if (!patch && b.body === undefined && faults.has("update-without-optional-500")) return message(500, "boom");
  const next: Post = patch
    ? { ...found, updatedAt: stamp(b, faults) }
    : { id, title: b.title as string, owner: found.owner, updatedAt: stamp(b, faults) };
  for (const k of patch ? ["title", "body"] : ["body", "tags", "password"])
    if (b[k] !== undefined) (next as Record<string, unknown>)[k] = b[k];
  if (!faults.has("update-not-persisted")) store.posts.set(id, next);
  return { status: 200, body: shown(next, faults) };
}

/** A running CRUD fault server. */
export interface CrudServer {
  url: string;
  /** The base URL of a variant with the faults named (none: the conforming variant). */
  baseUrl(...faults: CrudVariant[]): string;
  /** The posts a variant holds now (the suite's clean-up is seen here). */
  posts(...faults: CrudVariant[]): number[];
  /** The requests a variant received, as `METHOD /path` (query left out). */
  requests(...faults: CrudVariant[]): string[];
  stop(): Promise<void>;
}

/** Starts the CRUD fault server on a free port of 127.0.0.1. */
export async function startCrudServer(): Promise<CrudServer> {
  const stores = new Map<string, Store>();
  const storeOf = (variant: string): Store => {
    const s: Store = stores.get(variant) ?? { posts: new Map(), deleted: new Set(), next: 1, log: [] };
    stores.set(variant, s);
    return s;
  };
  const server = createServer((req, res) => {
    const m = /^\/variant\/([^/]+)(\/.*)$/.exec(req.url ?? "");
    if (!m) return void res.writeHead(404).end();
    const faults = new Set(m[1]!.split("+"));
    const store = storeOf(m[1]!);
    store.log.push(`${req.method} ${m[2]!.split("?")[0]}`);
    handle(req, m[2]!, store, faults).then(
      (r) => {
        const text = r.raw ?? (r.body === undefined ? "" : JSON.stringify(r.body));
        res.writeHead(r.status, text ? { "content-type": "application/json" } : {});
        res.end(text);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const name = (faults: CrudVariant[]) => (faults.length ? faults.join("+") : "conforming");
  return {
    url,
    baseUrl: (...faults) => `${url}/variant/${name(faults)}`,
    posts: (...faults) => [...storeOf(name(faults)).posts.keys()],
    requests: (...faults) => [...storeOf(name(faults)).log],
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
