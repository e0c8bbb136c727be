/**
 * The accounts fault server (fault-server/accounts.ts) over HTTP, without the suite: every flavour of its document
 * is valid and its examples fit their schemas; the conforming variant keeps each promise of the document (every
 * answer has a documented status and fits its schema) and refuses what it must; each planted fault really
 * misbehaves (and the same demonstration fails on the conforming variant); the lenient variant expires tokens;
 * the freeze holds every request of its variant and only of its variant.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOperationTable, type OperationEntry } from "../../openapi/lib/operations.js";
import { loadSpec, SpecValidator, toPointer } from "../../openapi/lib/spec.js";
import { documentView } from "../../openapi/lib/views.js";
import { type AccountsServer, startAccountsServer } from "../fault-server/accounts.js";
import { ACCOUNTS_AUTH, type AccountsAuth, API_KEY_HEADER, TOKEN_PATH } from "../fault-server/accounts-components.js";
import { accountsDocument, writeAccountsDocument, writeAccountsDocuments } from "../fault-server/accounts-document.js";
import { ACCOUNTS_FAULTS, type AccountsFault } from "../fault-server/accounts-faults.js";
import { ACCOUNTS, ITEMS, OAUTH_CLIENTS } from "../fault-server/accounts-store.js";
import { cleanUp, tempDir } from "./support/spawn.js";

/** Short, yet far above a local answer under a whole `npm test`'s load (unfrozen: under 400 ms; held: 450 up). */
const FREEZE_MS = 600;
const TOKEN_USES = 3;
let server: AccountsServer;
let documents: ReturnType<typeof writeAccountsDocuments>;

/** A document as a client reads it: its operations by id, and its schemas (response view: writeOnly not required). */
interface Reading {
  ops: Map<string, OperationEntry>;
  validator: SpecValidator;
}
const readings = new Map<string, Reading>();
function reading(path: string): Reading {
  if (!readings.has(path)) {
    const view = documentView(loadSpec(path), "response");
    readings.set(path, {
      ops: new Map(buildOperationTable(view).map((o) => [o.operationId, o])),
      validator: new SpecValidator(view),
    });
  }
  return readings.get(path)!;
}

interface Answer {
  status: number;
  text: string;
  body: any;
  ms: number;
}
interface Ask {
  params?: Record<string, string | number>;
  body?: unknown;
  token?: string;
  /** The document whose operation is called and whose place the token goes in (default bearer-login). */
  auth?: AccountsAuth;
  signal?: AbortSignal;
}

/** Calls `opId` at `base` as the flavour's document says (the token where its security scheme puts it). */
async function ask(base: string, opId: string, o: Ask = {}): Promise<Answer> {
  const auth = o.auth ?? "bearer-login";
  const op = reading(documents[auth].links).ops.get(opId)!;
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(o.params?.[name])));
  const headers: Record<string, string> = {};
  if (o.token)
    headers[auth === "apikey-login" ? API_KEY_HEADER : "authorization"] =
      auth === "apikey-login" ? o.token : `${auth === "token-login" ? "Token" : "Bearer"} ${o.token}`;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const started = Date.now();
  const res = await fetch(base + path, {
    method: op.method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: o.signal ?? AbortSignal.timeout(5000),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body, ms: Date.now() - started };
}

/** What `answer` breaks of the document's promises for `opId`: an undocumented status, a body off its schema. */
function broken(opId: string, answer: Answer, auth: AccountsAuth = "bearer-login"): string[] {
  const { ops, validator } = reading(documents[auth].links);
  const response = ops.get(opId)!.responses.find((r) => r.status === String(answer.status));
  if (!response) return [`${opId}: ${answer.status} is not documented`];
  const media = response.content[0];
  if (!media) return answer.text === "" ? [] : [`${opId} ${answer.status}: a body where none is documented`];
  if (answer.body === undefined) return [`${opId} ${answer.status}: the body is not JSON`];
  return validator.validate(media.schemaPointer!, answer.body).map((e) => `${opId} ${e.instancePath} ${e.message}`);
}

const covered = new Set<string>();
/** {@link ask}, holding the answer to the document's promises (for the conforming and lenient variants). */
async function keep(base: string, opId: string, o: Ask = {}): Promise<Answer> {
  const answer = await ask(base, opId, o);
  expect(broken(opId, answer, o.auth)).toEqual([]);
  covered.add(`${o.auth ?? "bearer-login"} ${opId}`);
  return answer;
}

let serial = 0;
const fresh = (tag: string) => `${tag}-${++serial}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Account {
  username: string;
  password: string;
  token: string;
}
async function login(base: string, username: string, password: string, extra: object = {}): Promise<string> {
  const answer = await ask(base, "loginUser", { body: { username, password, ...extra } });
  expect(answer.status).toBe(200);
  return answer.body.auth_token as string;
}
/** A throwaway account registered and signed in at `base`. */
async function account(base: string, extra: object = {}, call = ask): Promise<Account> {
  const username = fresh("user");
  const password = `pw-${username}`;
  const answer = await call(base, "registerUser", {
    body: { username, password, email: `${username}@example.com`, ...extra },
  });
  expect(answer.status).toBe(201);
  return { username, password, token: await login(base, username, password) };
}
const pair = async (base: string) => [await account(base), await account(base)] as const;
const book = (title = fresh("book")) => ({ book_title: title, secret: `secret of ${title}`, author: "Ann Author" });

/** A token with its JSON parts rewritten and its signature replaced. */
function forged(token: string, header: object, signature: (s: string) => string, claims: object = {}): string {
  const [h, p, s] = token.split(".") as [string, string, string];
  const part = (text: string, more: object) =>
    Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(text, "base64url").toString()), ...more })).toString(
      "base64url",
    );
  return `${part(h, header)}.${part(p, claims)}.${signature(s)}`;
}
const flipped = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);

beforeAll(async () => {
  documents = writeAccountsDocuments(tempDir("accounts-"));
  server = await startAccountsServer({ freezeMs: FREEZE_MS, tokenUses: TOKEN_USES });
});

afterAll(async () => {
  await server?.stop();
  cleanUp();
});

/** Every schema example of a document (3.1 after loading: `example` became `examples`), with its schema's pointer. */
function examplesOf(doc: unknown): Array<{ pointer: string; value: unknown }> {
  const found: Array<{ pointer: string; value: unknown }> = [];
  const walk = (node: unknown, at: string[]) => {
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.examples))
      for (const value of record.examples) found.push({ pointer: toPointer(at), value });
    for (const [k, v] of Object.entries(record)) if (k !== "examples" && k !== "example") walk(v, [...at, k]);
  };
  walk(doc, []);
  return found;
}

const OPERATIONS = [
  "registerUser",
  "loginUser",
  "listUsers",
  "getUser",
  "deleteUser",
  "updatePassword",
  "updateEmail",
  "deleteAccount",
  "renameAccount",
  "listBooks",
  "createBook",
  "getBook",
  "updateBook",
  "deleteBook",
  "listItems",
  "getItem",
  "createOrder",
  "getOrder",
  "deleteOrder",
];

describe("the accounts document", () => {
  const FORMS = ACCOUNTS_AUTH.flatMap((auth) => [[auth, "plain"] as const, [auth, "links"] as const]);
  it.each(FORMS)("%s (%s) loads; every operation is named, summed up and answers with schemas", (auth, form) => {
    const doc = loadSpec(documents[auth][form]);
    const ops = buildOperationTable(doc);
    const login = auth === "bearer-login" || auth === "apikey-login" || auth === "token-login";
    expect(ops.map((o) => o.operationId).sort()).toEqual(OPERATIONS.filter((o) => login || o !== "loginUser").sort());
    for (const op of ops) {
      expect(op.summary, op.operationId).toBeTruthy();
      expect(
        op.responses.some((r) => /^4\d\d$/.test(r.status)),
        op.operationId,
      ).toBe(true);
      for (const r of op.responses)
        if (r.status !== "204") expect(r.content[0]?.schemaPointer, `${op.operationId} ${r.status}`).toBeDefined();
    }
    const validator = new SpecValidator(doc);
    const examples = examplesOf(doc);
    expect(examples.length).toBeGreaterThan(25);
    for (const e of examples) expect(validator.validate(e.pointer, e.value), e.pointer).toEqual([]);
    expect(validator.validate("/components/schemas/NewUser/properties/username", "ab")).not.toEqual([]);
    const links = ops.flatMap((o) => o.responses.flatMap((r) => r.links));
    expect(links.length).toBe(form === "links" ? 9 : 0);
    for (const link of links) {
      const target = ops.find((o) => o.operationId === link.operationId)!;
      expect(Object.keys(link.parameters).every((p) => target.parameters.some((q) => q.name === p))).toBe(true);
    }
  });

  it("says how each flavour obtains and sends its token", () => {
    const schemes = Object.fromEntries(
      ACCOUNTS_AUTH.map((auth) => [auth, Object.values(loadSpec(documents[auth].plain).components.securitySchemes)[0]]),
    );
    expect(schemes["bearer-login"]).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(schemes["apikey-login"]).toMatchObject({ type: "apiKey", in: "header", name: API_KEY_HEADER });
    expect(schemes["oauth2-password"]).toMatchObject({ flows: { password: { tokenUrl: TOKEN_PATH } } });
    expect(schemes["oauth2-client-credentials"]).toMatchObject({
      flows: { clientCredentials: { tokenUrl: TOKEN_PATH } },
    });
    // The defaults: bearer-login, no links.
    const written = writeAccountsDocument(tempDir("accounts-one-"));
    expect(written).toMatch(/accounts-bearer-login\.openapi\.json$/);
    expect(JSON.parse(readFileSync(written, "utf8"))).toEqual(accountsDocument());
    expect(accountsDocument()).toEqual(accountsDocument({ auth: "bearer-login", links: false }));
  });

  it("leaves the register body without an example of its own (members only), the e-mail without limits", async () => {
    const doc = loadSpec(documents["bearer-login"].plain);
    const media = doc.paths["/users/register"].post.requestBody.content["application/json"];
    const schema = doc.components.schemas.NewUser;
    expect([media.example, media.examples, schema.example, schema.examples]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(schema.properties.email).not.toHaveProperty("format");
    expect(schema.properties.email).not.toHaveProperty("maxLength");
    expect(schema.properties.password).toMatchObject({ writeOnly: true });
    expect(schema.properties.password).not.toHaveProperty("maxLength");
    expect(schema.properties.username).not.toHaveProperty("pattern");
    // A body composed of the member examples registers (once: the examples name one user).
    const composed = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]: [string, any]) => [k, v.examples[0]]),
    );
    expect((await keep(server.flavourUrl("bearer-login"), "registerUser", { body: composed })).status).toBe(201);
  });
});

describe("the conforming variant", () => {
  const base = () => server.baseUrl();

  it("signs the seeded accounts in; a wrong password is a 401, a body without one a 400", async () => {
    for (const a of Object.values(ACCOUNTS))
      expect((await keep(base(), "loginUser", { body: { username: a.username, password: a.password } })).body).toEqual({
        auth_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
    const { first } = ACCOUNTS;
    expect(
      (await keep(base(), "loginUser", { body: { username: first.username, password: "wrong-one" } })).status,
    ).toBe(401);
    expect((await keep(base(), "loginUser", { body: { username: first.username } })).status).toBe(400);
  });

  it("registers ignoring unknown members (admin stays false); refuses a taken, a short or a non-JSON one", async () => {
    const a = await account(base(), { admin: true, role: "root" }, keep);
    const read = await keep(base(), "getUser", { params: { username: a.username }, token: a.token });
    expect(read.body).toEqual({ username: a.username, email: `${a.username}@example.com`, admin: false });
    const again = { username: a.username, password: "another-1", email: "x@example.com" };
    expect((await keep(base(), "registerUser", { body: again })).status).toBe(409);
    expect((await keep(base(), "registerUser", { body: { ...again, username: "ab" } })).status).toBe(400);
    const res = await fetch(`${base()}/users/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    const text = await res.text();
    expect(broken("registerUser", { status: res.status, text, body: JSON.parse(text), ms: 0 })).toEqual([]);
    expect(res.status).toBe(400);
    expect((await fetch(`${server.url}/variant/no-such-fault/users`)).status).toBe(404);
  });

  it("lets the caller rename their account: its books follow, its token works on, a taken name is a 409", async () => {
    const [a, b] = await pair(base());
    const own = await bookOf(base(), a);
    const renamed = fresh("renamed");
    expect((await keep(base(), "renameAccount", { body: { username: b.username }, token: a.token })).status).toBe(409);
    expect((await keep(base(), "renameAccount", { body: { username: "x" }, token: a.token })).status).toBe(400);
    expect((await keep(base(), "renameAccount", { body: { username: renamed }, token: a.token })).status).toBe(204);
    expect((await keep(base(), "getUser", { params: { username: renamed }, token: a.token })).status).toBe(200);
    expect((await keep(base(), "getUser", { params: { username: a.username }, token: a.token })).status).toBe(404);
    expect((await keep(base(), "getBook", { params: own, token: a.token })).body.owner).toBe(renamed);
    await login(base(), renamed, a.password);
  });

  it("lets users change their own password and e-mail, and refuses another account (403), unchanged", async () => {
    const [a, b] = await pair(base());
    const at = { username: a.username };
    expect(
      (await keep(base(), "updatePassword", { params: at, body: { password: "b-took-it" }, token: b.token })).status,
    ).toBe(403);
    expect(
      (await keep(base(), "updateEmail", { params: at, body: { email: "b@took.it" }, token: b.token })).status,
    ).toBe(403);
    expect((await keep(base(), "getUser", { params: at, token: b.token })).body.email).toBe(
      `${a.username}@example.com`,
    );
    expect((await keep(base(), "getUser", { params: { username: b.username }, token: b.token })).body.email).toBe(
      `${b.username}@example.com`,
    );
    await login(base(), a.username, a.password);
    expect(
      (await keep(base(), "updatePassword", { params: at, body: { password: "short" }, token: a.token })).status,
    ).toBe(400);
    expect(
      (await keep(base(), "updatePassword", { params: at, body: { password: "a-new-one" }, token: a.token })).status,
    ).toBe(204);
    await login(base(), a.username, "a-new-one");
    expect(
      (await keep(base(), "updateEmail", { params: at, body: { email: "new@example.com" }, token: a.token })).status,
    ).toBe(204);
    expect((await keep(base(), "getUser", { params: at, token: a.token })).body.email).toBe("new@example.com");
    const nobody = { username: fresh("nobody") };
    expect((await keep(base(), "getUser", { params: nobody, token: a.token })).status).toBe(404);
    expect((await keep(base(), "updateEmail", { params: nobody, body: { email: "x" }, token: a.token })).status).toBe(
      404,
    );
    expect(
      (await keep(base(), "updatePassword", { params: nobody, body: { password: "xxxxxxx" }, token: a.token })).status,
    ).toBe(404);
    const users = (await keep(base(), "listUsers", { token: a.token })).body.users.map((u: any) => u.username);
    expect(users).toEqual(
      expect.arrayContaining([ACCOUNTS.first.username, ACCOUNTS.admin.username, a.username, b.username]),
    );
  });

  it("keeps each book to its owner: another account gets 404 reading, 403 changing it; no secret listed", async () => {
    const [a, b] = await pair(base());
    const created = await keep(base(), "createBook", { body: { ...book(), owner: b.username }, token: a.token });
    expect(created.status).toBe(201);
    expect(created.body.owner).toBe(a.username);
    const at = { book_title: created.body.book_title };
    expect((await keep(base(), "createBook", { body: book(at.book_title), token: a.token })).status).toBe(409);
    expect((await keep(base(), "createBook", { body: book(at.book_title), token: b.token })).status).toBe(409);
    expect((await keep(base(), "createBook", { body: { book_title: fresh("b") }, token: a.token })).status).toBe(400);
    expect((await keep(base(), "getBook", { params: at, token: b.token })).status).toBe(404);
    expect((await keep(base(), "updateBook", { params: at, body: { secret: "b's" }, token: b.token })).status).toBe(
      403,
    );
    expect((await keep(base(), "deleteBook", { params: at, token: b.token })).status).toBe(403);
    expect((await keep(base(), "getBook", { params: at, token: a.token })).body.secret).toBe(created.body.secret);
    const listed = (await keep(base(), "listBooks", { token: b.token })).body.books;
    expect(listed).toContainEqual({ book_title: at.book_title, owner: a.username });
    expect(listed.some((x: object) => "secret" in x)).toBe(false);
    expect(
      (await keep(base(), "updateBook", { params: at, body: { secret: "new" }, token: a.token })).body.secret,
    ).toBe("new");
    expect((await keep(base(), "deleteBook", { params: at, token: a.token })).status).toBe(204);
    for (const op of ["getBook", "deleteBook"])
      expect((await keep(base(), op, { params: at, token: a.token })).status).toBe(404);
    expect((await keep(base(), "updateBook", { params: at, body: { secret: "x" }, token: a.token })).status).toBe(404);
  });

  it("serves the menu and keeps each order to the account that placed it", async () => {
    const [a, b] = await pair(base());
    expect((await keep(base(), "listItems", { token: a.token })).body).toEqual({ items: ITEMS });
    expect((await keep(base(), "getItem", { params: { itemId: 2 }, token: a.token })).body).toEqual(ITEMS[1]);
    expect((await keep(base(), "getItem", { params: { itemId: 99 }, token: a.token })).status).toBe(404);
    const order = await keep(base(), "createOrder", {
      body: { item_id: 1, quantity: 10, owner: b.username },
      token: a.token,
    });
    expect(order.body).toMatchObject({ item_id: 1, quantity: 10, status: "placed", owner: a.username });
    for (const [body, status] of [
      [{ item_id: 999, quantity: 1 }, 404],
      [{ item_id: 1, quantity: 11 }, 422],
      [{ item_id: "1", quantity: 1 }, 422],
      [[1], 400],
    ] as const)
      expect((await keep(base(), "createOrder", { body, token: a.token })).status).toBe(status);
    const at = { orderId: order.body.id };
    for (const op of ["getOrder", "deleteOrder"])
      expect((await keep(base(), op, { params: at, token: b.token })).status).toBe(404);
    expect((await keep(base(), "getOrder", { params: at, token: a.token })).status).toBe(200);
    expect((await keep(base(), "deleteOrder", { params: at, token: a.token })).status).toBe(204);
    expect((await keep(base(), "getOrder", { params: at, token: a.token })).status).toBe(404);
  });

  it("lets only an admin delete a user (an ordinary caller gets the documented 401)", async () => {
    const [a, b] = await pair(base());
    const at = { username: b.username };
    expect((await keep(base(), "deleteUser", { params: at, token: a.token })).status).toBe(401);
    const admin = await login(base(), ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    expect((await keep(base(), "deleteUser", { params: at, token: admin })).status).toBe(204);
    expect((await keep(base(), "getUser", { params: at, token: admin })).status).toBe(404);
    expect((await keep(base(), "deleteUser", { params: at, token: admin })).status).toBe(404);
  });

  it("stores and returns hostile strings exactly as sent", async () => {
    const hostile = [
      `O'Brien "the \\ one"`,
      "{{7*7}} ${7*7}",
      "nul\u0000here",
      "ünïcödé 🙂 中文",
      "<b>x</b>",
      "a/b?c#d%2F",
    ];
    for (const text of hostile) {
      const username = `${text}-${++serial}`;
      const registered = await keep(base(), "registerUser", {
        body: { username, password: `${text}-pw`, email: text },
      });
      expect(registered.body).toEqual({ username, email: text, admin: false });
      const token = await login(base(), username, `${text}-pw`);
      expect((await keep(base(), "getUser", { params: { username }, token })).body.username).toBe(username);
      const listed = (await keep(base(), "listUsers", { token })).body.users;
      expect(listed).toContainEqual({ username, email: text, admin: false });
      const sent = { book_title: username, secret: text, author: text };
      expect((await keep(base(), "createBook", { body: sent, token })).body).toMatchObject(sent);
      expect((await keep(base(), "getBook", { params: { book_title: username }, token })).body).toMatchObject(sent);
    }
  });

  it("refuses forged tokens, tokens of another variant and none, with the documented 401", async () => {
    const token = await login(base(), ACCOUNTS.first.username, ACCOUNTS.first.password);
    const other = await login(server.baseUrl("foreign-book-read"), ACCOUNTS.first.username, ACCOUNTS.first.password);
    const tokens = [
      forged(token, { alg: "none" }, () => ""),
      forged(token, { alg: "None" }, () => ""),
      forged(token, {}, flipped),
      forged(token, {}, (s) => s, { sub: ACCOUNTS.second.username }),
      forged(token, { alg: "HS512" }, (s) => s),
      `${token}x`,
      "not-a-jwt",
      other,
      undefined,
    ];
    for (const t of tokens) expect((await keep(base(), "listBooks", { token: t })).status).toBe(401);
    expect((await keep(base(), "listItems", {})).body).toEqual({ detail: expect.any(String) });
    expect((await keep(base(), "listBooks", { token })).status).toBe(200);
  });

  it("refuses a deleted account's token, also once its name is registered again", async () => {
    const a = await account(base());
    expect((await keep(base(), "deleteAccount", { token: a.token })).status).toBe(204);
    expect((await keep(base(), "listBooks", { token: a.token })).status).toBe(401);
    const again = { username: a.username, password: "again-pw", email: "again@example.com" };
    expect((await keep(base(), "registerUser", { body: again })).status).toBe(201);
    expect((await keep(base(), "listBooks", { token: a.token })).status).toBe(401);
    expect((await keep(base(), "listBooks", { token: await login(base(), a.username, "again-pw") })).status).toBe(200);
  });

  it("was called at every operation above, and logged each request", () => {
    expect(OPERATIONS.filter((op) => !covered.has(`bearer-login ${op}`))).toEqual([]);
    expect(server.requests(base())).toContain("POST /users/register");
    expect(server.holds(base()).users).toEqual(expect.arrayContaining(Object.values(ACCOUNTS).map((a) => a.username)));
  });
});

const status = async (answer: Promise<Answer>) => (await answer).status;
/** A new book of `a`'s at `base`, by its title. */
async function bookOf(base: string, a: Account): Promise<{ book_title: string; secret: string }> {
  const created = await ask(base, "createBook", { body: book(), token: a.token });
  expect(created.status).toBe(201);
  return created.body;
}
/** A new order of `a`'s at `base`, by its id. */
async function orderOf(base: string, a: Account): Promise<{ orderId: number }> {
  const created = await ask(base, "createOrder", { body: { item_id: 1, quantity: 1 }, token: a.token });
  expect(created.status).toBe(201);
  return { orderId: created.body.id };
}
const longEmail = "a".repeat(300);

/** How each planted fault shows (each must also fail on the conforming variant). */
const SHOWN: Record<AccountsFault, (base: string) => Promise<void>> = {
  "foreign-password-change": async (base) => {
    const [a, b] = await pair(base);
    const params = { username: a.username };
    expect(await status(ask(base, "updatePassword", { params, body: { password: "b-took-it" }, token: b.token }))).toBe(
      204,
    );
    expect(await status(ask(base, "loginUser", { body: { username: a.username, password: a.password } }))).toBe(401);
  },
  "email-update-ignores-path": async (base) => {
    const [a, b] = await pair(base);
    const params = { username: a.username };
    expect(
      await status(ask(base, "updateEmail", { params, body: { email: "moved@example.com" }, token: b.token })),
    ).toBe(204);
    const emailOf = async (x: Account) =>
      (await ask(base, "getUser", { params: { username: x.username }, token: x.token })).body.email;
    expect([await emailOf(a), await emailOf(b)]).toEqual([`${a.username}@example.com`, "moved@example.com"]);
  },
  "foreign-book-update": async (base) => {
    const [a, b] = await pair(base);
    const params = { book_title: (await bookOf(base, a)).book_title };
    expect(await status(ask(base, "updateBook", { params, body: { secret: "b's now" }, token: b.token }))).toBe(200);
    expect((await ask(base, "getBook", { params, token: a.token })).body.secret).toBe("b's now");
  },
  "foreign-book-delete": async (base) => {
    const [a, b] = await pair(base);
    const params = { book_title: (await bookOf(base, a)).book_title };
    expect(await status(ask(base, "deleteBook", { params, token: b.token }))).toBe(204);
    expect(await status(ask(base, "getBook", { params, token: a.token }))).toBe(404);
  },
  "foreign-book-read": async (base) => {
    const [a, b] = await pair(base);
    const own = await bookOf(base, a);
    const read = await ask(base, "getBook", { params: { book_title: own.book_title }, token: b.token });
    expect([read.status, read.body?.secret]).toEqual([200, own.secret]);
  },
  "duplicate-title-overwrites": async (base) => {
    const [a, b] = await pair(base);
    const own = await bookOf(base, a);
    expect(await status(ask(base, "createBook", { body: book(own.book_title), token: b.token }))).toBe(201);
    expect(await status(ask(base, "getBook", { params: { book_title: own.book_title }, token: a.token }))).toBe(404);
    expect(await status(ask(base, "createBook", { body: book(own.book_title), token: b.token }))).toBe(409);
  },
  "duplicate-title-500": async (base) => {
    const [a, b] = await pair(base);
    const own = await bookOf(base, a);
    expect(await status(ask(base, "createBook", { body: book(own.book_title), token: b.token }))).toBe(500);
    expect(await status(ask(base, "createBook", { body: book(own.book_title), token: a.token }))).toBe(409);
  },
  "register-admin": async (base) => {
    const a = await account(base, { admin: true });
    expect((await ask(base, "getUser", { params: { username: a.username }, token: a.token })).body.admin).toBe(true);
  },
  "owner-from-body": async (base) => {
    const [a, b] = await pair(base);
    const created = await ask(base, "createBook", { body: { ...book(), owner: b.username }, token: a.token });
    const ordered = await ask(base, "createOrder", {
      body: { item_id: 1, quantity: 1, owner: b.username },
      token: a.token,
    });
    expect([created.body.owner, ordered.body.owner]).toEqual([b.username, b.username]);
  },
  "password-in-response": async (base) => {
    const a = await account(base);
    expect((await ask(base, "getUser", { params: { username: a.username }, token: a.token })).body.password).toBe(
      a.password,
    );
  },
  "sql-quote-500": async (base) => {
    const a = await account(base);
    const body = { username: fresh("O'Brien"), password: "password-1", email: "ob@example.com" };
    expect(await status(ask(base, "registerUser", { body }))).toBe(500);
    expect(await status(ask(base, "getUser", { params: { username: "O'Brien" }, token: a.token }))).toBe(500);
    expect(await status(ask(base, "createBook", { body: book(fresh("it's")), token: a.token }))).toBe(500);
  },
  "quote-breaks-json": async (base) => {
    const a = await account(base);
    const username = fresh('say "hi"');
    expect(
      await status(ask(base, "registerUser", { body: { username, password: "password-1", email: "q@example.com" } })),
    ).toBe(201);
    const read = await ask(base, "getUser", { params: { username }, token: a.token });
    const listed = await ask(base, "listUsers", { token: a.token });
    expect([read.status, read.body, listed.status, listed.body]).toEqual([200, undefined, 200, undefined]);
  },
  "template-evaluated": async (base) => {
    const a = await account(base);
    const created = await ask(base, "createBook", {
      body: { ...book(), secret: "{{7*7}}", author: "${7*7}" },
      token: a.token,
    });
    const read = await ask(base, "getBook", { params: { book_title: created.body.book_title }, token: a.token });
    expect([read.body.secret, read.body.author]).toEqual(["49", "49"]);
  },
  "nul-500": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "createBook", { body: { ...book(), secret: "a\u0000b" }, token: a.token }))).toBe(
      500,
    );
  },
  "redos-email": async (base) => {
    const a = await account(base);
    const culprit = ask(base, "updateEmail", {
      params: { username: a.username },
      body: { email: longEmail },
      token: a.token,
    });
    await sleep(100);
    const other = await ask(base, "listItems", { token: a.token });
    expect(other.ms).toBeGreaterThanOrEqual(FREEZE_MS - 150);
    expect([other.status, (await culprit).status]).toEqual([200, 204]);
  },
  "redos-email-forever": async (base) => {
    const a = await account(base);
    const body = { email: longEmail };
    const culprit = ask(base, "updateEmail", {
      params: { username: a.username },
      body,
      token: a.token,
      signal: AbortSignal.timeout(FREEZE_MS),
    });
    await expect(culprit).rejects.toThrow();
    await expect(ask(base, "listItems", { token: a.token, signal: AbortSignal.timeout(300) })).rejects.toThrow();
  },
  "jwt-signature-ignored": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "listBooks", { token: forged(a.token, {}, flipped) }))).toBe(200);
  },
  "jwt-alg-none": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "listBooks", { token: forged(a.token, { alg: "none" }, () => "") }))).toBe(200);
  },
  "deleted-account-token": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "deleteAccount", { token: a.token }))).toBe(204);
    expect(await status(ask(base, "listBooks", { token: a.token }))).toBe(200);
  },
  "deleted-account-token-500": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "deleteAccount", { token: a.token }))).toBe(204);
    expect(await status(ask(base, "listBooks", { token: a.token }))).toBe(500);
  },
  "order-behind-item-422": async (base) => {
    const a = await account(base);
    const behind = await ask(base, "createOrder", { body: { item_id: ITEMS[0].id, quantity: 10 }, token: a.token });
    expect([behind.status, broken("createOrder", behind).length > 0]).toEqual([422, true]);
    const unknown = await ask(base, "createOrder", { body: { item_id: 999, quantity: 10 }, token: a.token });
    expect([unknown.status, broken("createOrder", unknown)]).toEqual([404, []]);
    expect(
      await status(ask(base, "createOrder", { body: { item_id: ITEMS[0].id, quantity: 9 }, token: a.token })),
    ).toBe(201);
  },
  "book-list-leaks-secrets": async (base) => {
    const [a, b] = await pair(base);
    const own = await bookOf(base, a);
    const listed = (await ask(base, "listBooks", { token: b.token })).body.books;
    expect(listed.find((x: any) => x.book_title === own.book_title).secret).toBe(own.secret);
  },
  "foreign-order-read": async (base) => {
    const [a, b] = await pair(base);
    expect(await status(ask(base, "getOrder", { params: await orderOf(base, a), token: b.token }))).toBe(200);
  },
  "foreign-order-delete": async (base) => {
    const [a, b] = await pair(base);
    const params = await orderOf(base, a);
    expect(await status(ask(base, "deleteOrder", { params, token: b.token }))).toBe(204);
    expect(await status(ask(base, "getOrder", { params, token: a.token }))).toBe(404);
  },
  "email-update-merges-body": async (base) => {
    const a = await account(base);
    const params = { username: a.username };
    expect(
      await status(ask(base, "updateEmail", { params, body: { email: "m@example.com", admin: true }, token: a.token })),
    ).toBe(204);
    expect((await ask(base, "getUser", { params, token: a.token })).body.admin).toBe(true);
  },
  "list-books-without-token": async (base) => {
    expect(await status(ask(base, "listBooks"))).toBe(200);
  },
  "missing-token-403": async (base) => {
    expect(await status(ask(base, "listUsers"))).toBe(403);
  },
  "unknown-user-403": async (base) => {
    const a = await account(base);
    expect(await status(ask(base, "getUser", { params: { username: "nobody-here-42" }, token: a.token }))).toBe(403);
  },
};

describe("each planted fault", () => {
  it.each(Object.keys(ACCOUNTS_FAULTS) as AccountsFault[])(
    "%s misbehaves, and the conforming variant does not",
    async (fault) => {
      await SHOWN[fault](server.baseUrl(fault));
      await expect(SHOWN[fault](server.baseUrl())).rejects.toThrow();
      const expected = ACCOUNTS_FAULTS[fault];
      expect(expected.catches.length + ("strict" in expected ? expected.strict.length : 0)).toBeGreaterThan(0);
    },
  );
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
});

describe("the flavours", () => {
  it("apikey-login: the login answers `token`, sent in X-Auth-Token (a bearer header is not documented)", async () => {
    const auth = "apikey-login";
    const base = server.flavourUrl(auth);
    const { first } = ACCOUNTS;
    const token = (
      await keep(base, "loginUser", { auth, body: { username: first.username, password: first.password } })
    ).body.token;
    expect((await keep(base, "listBooks", { auth, token })).status).toBe(200);
    expect((await ask(base, "listBooks", { token })).status).toBe(401);
  });

  it("oauth2-password: the token endpoint answers a bearer token for a user's password (RFC 6749 4.3)", async () => {
    const auth = "oauth2-password";
    const base = server.flavourUrl(auth);
    const { first } = ACCOUNTS;
    const res = await fetch(
      base + TOKEN_PATH,
      form({ grant_type: "password", username: first.username, password: first.password }),
    );
    const answer = await res.json();
    expect([res.status, answer.token_type, answer.expires_in]).toEqual([200, "bearer", 3600]);
    const read = await keep(base, "getBook", {
      auth,
      params: { book_title: "alice-diary" },
      token: answer.access_token,
    });
    expect(read.status).toBe(200);
    const wrong = await fetch(
      base + TOKEN_PATH,
      form({ grant_type: "password", username: first.username, password: "nope" }),
    );
    expect([wrong.status, (await wrong.json()).error]).toEqual([400, "invalid_grant"]);
    const other = await fetch(base + TOKEN_PATH, form({ grant_type: "implicit" }));
    expect([other.status, (await other.json()).error]).toEqual([400, "unsupported_grant_type"]);
  });

  it("oauth2-client-credentials: a client's id and secret, in the form or as Basic, act as its account", async () => {
    const auth = "oauth2-client-credentials";
    const base = server.flavourUrl(auth);
    const { client_id, client_secret } = OAUTH_CLIENTS.second;
    const grant = { grant_type: "client_credentials" };
    for (const init of [form({ ...grant, client_id, client_secret }), form(grant, basic(client_id, client_secret))]) {
      const res = await fetch(base + TOKEN_PATH, init);
      const token = (await res.json()).access_token;
      expect(res.status).toBe(200);
      expect((await keep(base, "getBook", { auth, params: { book_title: "bob-recipes" }, token })).status).toBe(200);
    }
    const wrong = await fetch(base + TOKEN_PATH, form(grant, basic(client_id, "not-it")));
    expect([wrong.status, (await wrong.json()).error]).toEqual([401, "invalid_client"]);
    const json = await fetch(base + TOKEN_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
  });
});

describe("lenient-token-expiry", () => {
  it(`refuses a token after ${TOKEN_USES} uses with the documented 401; a new login works again`, async () => {
    const base = server.baseUrl("lenient-token-expiry");
    const a = await account(base, {}, keep);
    for (let i = 0; i < TOKEN_USES; i++) expect((await keep(base, "listBooks", { token: a.token })).status).toBe(200);
    expect((await keep(base, "listBooks", { token: a.token })).status).toBe(401);
    expect((await keep(base, "listBooks", { token: await login(base, a.username, a.password) })).status).toBe(200);
  });

  it("refuses a token after its lifetime (the exp it says)", async () => {
    const short = await startAccountsServer({ tokenTtlMs: 300 });
    try {
      const base = short.baseUrl("lenient-token-expiry");
      const token = await login(base, ACCOUNTS.first.username, ACCOUNTS.first.password);
      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
      expect(claims.exp - claims.iat).toBeCloseTo(0.3, 3);
      await sleep(400);
      expect((await keep(base, "listBooks", { token })).status).toBe(401);
    } finally {
      await short.stop();
    }
  });
});

describe("redos-email's freeze", () => {
  it("holds every request of its variant, the culprit's too, until it ends; other variants answer", async () => {
    const base = server.baseUrl("redos-email");
    const a = await account(base);
    const domain = await ask(base, "updateEmail", {
      params: { username: a.username },
      body: { email: `${longEmail}@example.com` },
      token: a.token,
    });
    expect([domain.status, domain.ms < FREEZE_MS - 200]).toEqual([204, true]);
    const culprit = ask(base, "updateEmail", {
      params: { username: a.username },
      body: { email: longEmail },
      token: a.token,
    });
    await sleep(100);
    const [held, elsewhere] = await Promise.all([
      ask(base, "listItems", { token: a.token }),
      ask(server.baseUrl(), "listItems"),
    ]);
    expect(elsewhere.ms).toBeLessThan(FREEZE_MS - 200);
    expect(held.ms).toBeGreaterThanOrEqual(FREEZE_MS - 150);
    expect((await culprit).ms).toBeGreaterThanOrEqual(FREEZE_MS - 20);
    expect((await ask(base, "listItems", { token: a.token })).ms).toBeLessThan(FREEZE_MS - 200);
  });
});
