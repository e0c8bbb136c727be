/**
 * The accounts server's data: its seeded accounts, OAuth2 clients and menu, one variant's in-memory store, and
 * what a handler is given and returns. The passwords and client secrets are local test values, not secrets.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { AccountsAuth } from "./accounts-components.js";
import { newSecret } from "./accounts-tokens.js";

/** The seeded accounts: two ordinary users and an admin, in every variant. */
export const ACCOUNTS = {
  first: { username: "alice", password: "alice-pass-31", email: "alice@example.com" },
  second: { username: "bob", password: "bob-pass-72", email: "bob@example.com" },
  admin: { username: "admin", password: "admin-pass-99", email: "admin@example.com" },
} as const;

/**
 * The OAuth2 clients of the client-credentials flow (client_id and client_secret in the form, or HTTP Basic):
 * each acts as one of the ordinary accounts.
 */
export const OAUTH_CLIENTS = {
  first: { client_id: "alice-reports", client_secret: "alice-client-secret-4d1f", username: ACCOUNTS.first.username },
  second: { client_id: "bob-reports", client_secret: "bob-client-secret-8e2a", username: ACCOUNTS.second.username },
} as const;

/** The read-only menu every variant serves. */
export const ITEMS = [
  { id: 1, name: "Margherita", price: 8.5 },
  { id: 2, name: "Caesar salad", price: 7 },
  { id: 3, name: "Tiramisu", price: 5.25 },
] as const;

/** A user record as stored. */
export interface User {
  username: string;
  password: string;
  email: string;
  admin: boolean;
  /** When it was registered (ms; 0 for the seeded ones): tokens issued before are an older account's. */
  since: number;
}

/** A book as stored. */
export interface Book {
  book_title: string;
  secret: string;
  author?: string;
  owner: string;
  created_at: string;
}

/** An order as stored. */
export interface Order {
  id: number;
  /** A flat order's one item; an enveloped variant's order lists its items instead. */
  item_id?: number;
  quantity?: number;
  items?: Array<{ item_id: number; quantity: number }>;
  status: "placed" | "cancelled";
  owner: string;
  created_at: string;
}

/** One variant's state: its own accounts, books and orders, its request log, and its freeze. */
export interface Store {
  users: Map<string, User>;
  books: Map<string, Book>;
  orders: Map<number, Order>;
  nextOrder: number;
  /** Uses of each token (by jti), for `lenient-token-expiry`. */
  uses: Map<string, number>;
  /** The secret its tokens are signed with (each variant is its own server: a token works in its variant only). */
  secret: Buffer;
  /** Every request the variant received, as `METHOD /path` (query left out). */
  log: string[];
  /** Requests that carried a masked credential (`***`, a report's mask, in place of a token): none may. */
  masked: number;
  /** Accounts renamed (renameAccount): old name -> new name (their tokens, which name the old one, work on). */
  renamed: Map<string, string>;
  /** `lenient-login-revoked`: the first account's authenticated requests so far. */
  firstUses: number;
  /** While the variant is frozen (`redos-email`), the promise that resolves when it answers again. */
  thaw?: Promise<void>;
}

const now = () => new Date().toISOString();

/** A variant's store as it starts: the three accounts and one seeded book for each ordinary user. */
export function newStore(): Store {
  const users = new Map<string, User>();
  for (const [role, a] of Object.entries(ACCOUNTS))
    users.set(a.username, {
      username: a.username,
      password: a.password,
      email: a.email,
      admin: role === "admin",
      since: 0,
    });
  const books = new Map<string, Book>();
  for (const [title, owner] of [
    ["alice-diary", ACCOUNTS.first.username],
    ["bob-recipes", ACCOUNTS.second.username],
  ] as const)
    books.set(title, { book_title: title, secret: `${owner}'s own secret`, owner, created_at: now() });
  return {
    users,
    books,
    orders: new Map(),
    nextOrder: 1,
    uses: new Map(),
    secret: newSecret(),
    log: [],
    masked: 0,
    renamed: new Map(),
    firstUses: 0,
  };
}

/** Who is calling: the account the token names, and whether it may act as an admin. */
export interface Caller {
  username: string;
  admin: boolean;
}

/** What a handler is given. */
export interface Call {
  store: Store;
  faults: ReadonlySet<string>;
  auth: AccountsAuth;
  headers: IncomingHttpHeaders;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /** The parsed body (JSON, or the form's fields for the token endpoint). */
  body: unknown;
  /** The authenticated caller (operations with security only). */
  caller: Caller;
  /** The server's settings. */
  settings: AccountsSettings;
}

/** The server's settings (startAccountsServer's options, with their defaults). */
export interface AccountsSettings {
  /** How long `redos-email` holds every request. */
  freezeMs: number;
  /** `lenient-token-expiry`: a token's lifetime and how many requests it may make. */
  tokenTtlMs: number;
  tokenUses: number;
}

/** What a handler answers: a JSON body (built with JSON.stringify), or text the server glued itself. */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** True for a handler's answer (an order's `status` is a string, an answer's a number). */
export const isReply = (x: object): x is Reply => typeof (x as { status?: unknown }).status === "number";

/** The users and books family's error body (VAmPI's shape). */
export const fail = (status: number, message: string): Reply => ({ status, body: { status: "fail", message } });
/** The menu and orders family's error body (FastAPI's shape). */
export const detail = (status: number, text: string): Reply => ({ status, body: { detail: text } });

/** True for a JSON object. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** True for a string of `min` to `max` characters (counted as JSON Schema does: code points). */
export const isText = (v: unknown, min = 0, max = Number.POSITIVE_INFINITY): v is string =>
  typeof v === "string" && [...v].length >= min && [...v].length <= max;

/** A date-time for a new record (an undocumented member: the schemas do not forbid others). */
export const createdAt = now;
