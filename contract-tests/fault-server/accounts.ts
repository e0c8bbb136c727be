/**
 * The accounts fault server: a small multi-account API on 127.0.0.1 in the style of the deliberately vulnerable
 * APIs (OWASP VAmPI's users and books, a restaurant's menu and orders; its document: accounts-document.ts).
 * `${url}/variant/<name>[+<name>...]` plants the faults named (accounts-faults.ts) behind the bearer-login
 * flavour; `${url}/<flavour>/variant/...` behind another (ACCOUNTS_AUTH); `/variant/conforming` plants none.
 * Each variant is its own server: its own accounts, books, orders, request log and freeze. Where the document is
 * silent it is lenient: unknown body members are ignored, books and orders carry an undocumented `created_at`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authenticate } from "./accounts-auth.js";
import { ACCOUNTS_AUTH, type AccountsAuth } from "./accounts-components.js";
import { ACCOUNTS_FAULTS, ACCOUNTS_LENIENT, type AccountsVariant } from "./accounts-faults.js";
import { ROUTES, type Route } from "./accounts-routes.js";
import {
  ACCOUNTS,
  type AccountsSettings,
  type Call,
  detail,
  fail,
  isObject,
  isReply,
  newStore,
  type Reply,
  type Store,
} from "./accounts-store.js";

/** The server's options (all for tests that need them short). */
export interface AccountsServerOptions {
  /** How long `redos-email` holds every request of its variant (default 3000 ms). */
  freezeMs?: number;
  /** `lenient-token-expiry`: a token's lifetime (default 30 s) and how many requests it may make (default 20). */
  tokenTtlMs?: number;
  tokenUses?: number;
}

/** A running accounts server. */
export interface AccountsServer {
  url: string;
  /** The base URL of the bearer-login variant with the faults (and lenient freedoms) named; none: conforming. */
  baseUrl(...variant: AccountsVariant[]): string;
  /** The base URL of a variant behind another flavour of the document (how tokens are obtained and sent). */
  flavourUrl(auth: AccountsAuth, ...variant: AccountsVariant[]): string;
  /** The requests the variant at `baseUrl` received, as `METHOD /path` (query left out). */
  requests(baseUrl: string): string[];
  /** What the variant at `baseUrl` holds now: usernames, book titles, order ids (clean-up is seen here). */
  holds(baseUrl: string): { users: string[]; books: string[]; orders: number[] };
  /** The seeded accounts' records as the variant holds them now (a run must leave its login accounts as they were). */
  seeded(baseUrl: string): Array<{ username: string; password: string; email: string; admin: boolean }>;
  /** How many requests carried a masked credential (`***`) in place of a token: a client must send none. */
  masked(baseUrl: string): number;
  stop(): Promise<void>;
}

const KNOWN = new Set<string>([...Object.keys(ACCOUNTS_FAULTS), ...Object.keys(ACCOUNTS_LENIENT)]);
const VARIANT = new RegExp(`^(?:/(${ACCOUNTS_AUTH.join("|")}))?/variant/([^/?]+)(/[^?]*)?(?:\\?.*)?$`);
const MAX_BODY = 1024 * 1024;
/** Longer than this, and not ending like a domain: what sends `redos-email`'s regex backtracking. */
const REDOS_LENGTH = 256;

/** Every string in a JSON value. */
function strings(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 20 || typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap((v) => strings(v, depth + 1));
}

/** `template-evaluated`: every `{{a*b}}` and `${a*b}` in the body's strings replaced by its product. */
function evaluated(value: unknown, depth = 0): unknown {
  if (typeof value === "string")
    return value.replace(/\{\{\s*(\d+)\s*\*\s*(\d+)\s*\}\}|\$\{\s*(\d+)\s*\*\s*(\d+)\s*\}/g, (_m, a, b, c, d) =>
      String(Number(a ?? c) * Number(b ?? d)),
    );
  if (depth > 20 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => evaluated(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, evaluated(v, depth + 1)]));
}

async function readBody(req: IncomingMessage, route: Route): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new RangeError("too large");
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const type = req.headers["content-type"] ?? "";
  if (route.body === "form")
    return /^application\/x-www-form-urlencoded\b/i.test(type)
      ? Object.fromEntries(new URLSearchParams(text))
      : undefined;
  if (text === "" || route.body === "none") return undefined;
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) throw new TypeError("not JSON");
  return JSON.parse(text) as unknown;
}

/** The planted injection faults that answer before the handler does (500s), if any. */
function injected(call: Call): Reply | undefined {
  const values = [...Object.values(call.params), ...strings(call.body)];
  if (call.faults.has("nul-500") && values.some((s) => s.includes("\0")))
    return { status: 500, body: { message: "ValueError: A string literal cannot contain NUL (0x00) characters." } };
  const body = isObject(call.body) ? call.body : {};
  const named = [call.params.username, call.params.book_title, body.username, body.book_title];
  if (call.faults.has("sql-quote-500") && named.some((s) => typeof s === "string" && s.includes("'")))
    return { status: 500, body: { message: 'sqlite3.OperationalError: near "s": syntax error' } };
  return undefined;
}

/** One variant as a request sees it. */
interface Variant {
  store: Store;
  faults: ReadonlySet<string>;
  auth: AccountsAuth;
  /** Starts `redos-email`'s freeze of the variant. */
  freeze(): void;
}

/**
 * The status of a refusal of a request without a token: the documented 401; 403 where a variant's route guard answers
 * it (`missing-token-403`: listUsers, which documents only 401; `lenient-403-without-token`: the two updates of a
 * user, which document 403 beside 401).
 */
function missingTokenStatus(op: string, faults: ReadonlySet<string>, missing: true | undefined): 401 | 403 {
  if (!missing) return 401;
  if (op === "listUsers" && faults.has("missing-token-403")) return 403;
  if ((op === "updatePassword" || op === "updateEmail") && faults.has("lenient-403-without-token")) return 403;
  return 401;
}

/** The route `path` and `method` name, or the refusal (404 for no such path, 405 for another method). */
function routeOf(method: string, path: string): { route: Route; match: RegExpExecArray } | Reply {
  const found = ROUTES.flatMap((route) => {
    const match = route.pattern.exec(path);
    return match ? [{ route, match }] : [];
  });
  const same = found.find((f) => f.route.method === method);
  if (same) return same;
  return found[0] ? refusal(found[0].route)(405, "Method not allowed.") : fail(404, "No such path.");
}

/** A 401's challenge (RFC 6750 3) where the token is a bearer one. */
const challenge = (auth: AccountsAuth): Record<string, string> =>
  auth === "apikey-login"
    ? {}
    : { "www-authenticate": `${auth === "token-login" ? "Token" : "Bearer"} realm="accounts"` };

const refusal = (route: Route) => (route.family === "orders" ? detail : fail);

/** Answers one request of a variant (its freeze is waited for by the caller). */
async function serve(req: IncomingMessage, path: string, v: Variant, settings: AccountsSettings): Promise<Reply> {
  const found = routeOf(req.method ?? "GET", path);
  if (isReply(found)) return found;
  const { route, match } = found;
  const refuse = refusal(route);
  const params: Record<string, string> = {};
  try {
    route.params.forEach((name, i) => {
      params[name] = decodeURIComponent(match[i + 1]!);
    });
  } catch {
    return refuse(404, "No such path.");
  }
  let body: unknown;
  try {
    body = await readBody(req, route);
  } catch (err) {
    return err instanceof RangeError ? refuse(413, "The body is too large.") : refuse(400, "The body is not JSON.");
  }
  if (v.faults.has("enveloped") && route.body !== "form" && route.body !== "none" && body !== undefined) {
    // The member the document wraps this body in: its members inside, or the documented 400.
    const key = route.op === "createOrder" ? "order" : /Book$/.test(route.op) ? "book" : "user";
    const inner = isObject(body) ? body[key] : undefined;
    if (!isObject(inner) || Object.keys(body as object).length !== 1)
      return refuse(400, `The body must wrap its members in "${key}".`);
    body = inner;
  }
  if (v.faults.has("template-evaluated")) body = evaluated(body);
  const { store, faults, auth } = v;
  const call: Call = {
    store,
    faults,
    auth,
    headers: req.headers,
    settings,
    params,
    body,
    caller: { username: "", admin: false },
  };
  if (route.secured && !(route.op === "listBooks" && v.faults.has("list-books-without-token"))) {
    const caller = authenticate(call);
    if ("status" in caller)
      return caller.status === 500
        ? { status: 500, body: { message: caller.message } }
        : {
            ...refuse(missingTokenStatus(route.op, v.faults, caller.missing), caller.message),
            headers: challenge(v.auth),
          };
    call.caller = caller;
  }
  const planted = injected(call);
  if (planted) return planted;
  const email = isObject(body) ? body.email : undefined;
  if (typeof email === "string" && email.length > REDOS_LENGTH && !/\.[A-Za-z]{2,}$/.test(email)) v.freeze();
  return route.handle(call);
}

function write(res: ServerResponse, reply: Reply): void {
  const text = reply.raw ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
  res.writeHead(reply.status, { ...(text ? { "content-type": "application/json" } : {}), ...reply.headers });
  res.end(text);
}

/** Starts the accounts fault server on a free port of 127.0.0.1. */
export async function startAccountsServer(options: AccountsServerOptions = {}): Promise<AccountsServer> {
  const settings: AccountsSettings = {
    freezeMs: options.freezeMs ?? 3000,
    tokenTtlMs: options.tokenTtlMs ?? 30_000,
    tokenUses: options.tokenUses ?? 20,
  };
  const stores = new Map<string, Store>();
  const storeOf = (key: string) => {
    const store = stores.get(key) ?? newStore();
    stores.set(key, store);
    return store;
  };
  const timers = new Set<NodeJS.Timeout>();
  /** Holds every request of the variant from now until its freeze ends (never, for `redos-email-forever`). */
  const freezer = (store: Store, faults: ReadonlySet<string>) => () => {
    if (store.thaw || !(faults.has("redos-email") || faults.has("redos-email-forever"))) return;
    store.thaw = new Promise((resolve) => {
      if (faults.has("redos-email-forever")) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        store.thaw = undefined;
        resolve();
      }, settings.freezeMs);
      timers.add(timer);
    });
  };
  const server = createServer((req, res) => {
    const m = VARIANT.exec(req.url ?? "");
    const names = m?.[2]?.split("+") ?? [];
    if (!m || !(m[2] === "conforming" || names.every((n) => KNOWN.has(n))))
      return write(res, fail(404, "No such variant."));
    const auth = (m[1] ?? "bearer-login") as AccountsAuth;
    const store = storeOf(`${auth}/${m[2]}`);
    const path = m[3] ?? "/";
    store.log.push(`${req.method} ${path}`);
    const faults = new Set(names);
    const variant: Variant = { store, faults, auth, freeze: freezer(store, faults) };
    // A frozen variant holds what arrives and what is under way, the culprit included.
    const answer = async () => {
      await store.thaw;
      const reply = await serve(req, path, variant, settings);
      await store.thaw;
      return reply;
    };
    answer().then(
      (reply) => write(res, reply),
      () => write(res, { status: 500, body: { message: "Internal server error" } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const name = (variant: AccountsVariant[]) => (variant.length ? variant.join("+") : "conforming");
  const keyOf = (baseUrl: string) => {
    const m = VARIANT.exec(baseUrl.slice(url.length));
    if (!baseUrl.startsWith(url) || !m) throw new Error(`${baseUrl} is not a base URL of this server`);
    return `${m[1] ?? "bearer-login"}/${m[2]}`;
  };
  return {
    url,
    baseUrl: (...variant) => `${url}/variant/${name(variant)}`,
    flavourUrl: (auth, ...variant) => `${url}/${auth}/variant/${name(variant)}`,
    requests: (baseUrl) => [...storeOf(keyOf(baseUrl)).log],
    holds: (baseUrl) => {
      const s = storeOf(keyOf(baseUrl));
      return { users: [...s.users.keys()], books: [...s.books.keys()], orders: [...s.orders.keys()] };
    },
    seeded: (baseUrl) => {
      const s = storeOf(keyOf(baseUrl));
      return Object.values(ACCOUNTS).map((a) => {
        const u = s.users.get(a.username);
        return u
          ? { username: u.username, password: u.password, email: u.email, admin: u.admin }
          : { username: `${a.username} (gone)`, password: "", email: "", admin: false };
      });
    },
    masked: (baseUrl) => storeOf(keyOf(baseUrl)).masked,
    stop: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
