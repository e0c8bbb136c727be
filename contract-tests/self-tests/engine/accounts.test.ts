/**
 * The suite as an attacker, against the accounts server (a users-and-books API with a menu and orders, bearer
 * tokens from a login, two ordinary users): given only the document, the base URL and two accounts' user names
 * and passwords, it logs in by itself, registers throwaway accounts for what changes an account, and catches each
 * planted fault (another account's writes, server-owned members, hostile strings, forged and revoked tokens, a
 * server that stops answering), while the conforming server passes, its login accounts untouched, nothing the run
 * created left behind, and no password or token in any report.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../../cli/contract-run.js";
import { finishRun } from "../../cli/finish.js";
import { readSettings } from "../../config/settings.js";
import { startAccountsServer, type AccountsServer } from "../../fault-server/accounts.js";
import type { AccountsAuth } from "../../fault-server/accounts-components.js";
import { writeAccountsDocument } from "../../fault-server/accounts-document.js";
import { ACCOUNTS_FAULTS, type AccountsFault, type AccountsVariant } from "../../fault-server/accounts-faults.js";
import { ACCOUNTS, OAUTH_CLIENTS } from "../../fault-server/accounts-store.js";
import type { ScenarioResult } from "../../model/types.js";
import { LoginError } from "../../engine/session.js";
import { cleanUp, tempDir } from "../support/spawn.js";
import { errorsOf } from "../support/fault-runs.js";

const dir = tempDir("contract-accounts-");
let server: AccountsServer;
const SEEDED = { users: ["alice", "bob", "admin"], books: ["alice-diary", "bob-recipes"], orders: [] };

/** The phases that reach each fault (a whole run reaches them all; these keep the test within its time). */
const PHASES_OF: Record<AccountsFault, string> = {
  "foreign-password-change": "authorization",
  "email-update-ignores-path": "authorization",
  "foreign-book-update": "authorization",
  "foreign-book-delete": "authorization",
  "foreign-book-read": "authorization",
  "duplicate-title-overwrites": "authorization",
  "duplicate-title-500": "authorization",
  "register-admin": "owned-members",
  "owner-from-body": "owned-members",
  "email-update-merges-body": "owned-members",
  "password-in-response": "examples",
  "sql-quote-500": "hostile",
  "quote-breaks-json": "hostile",
  "template-evaluated": "hostile",
  "nul-500": "hostile",
  "redos-email": "edges",
  "redos-email-forever": "edges",
  "jwt-signature-ignored": "auth",
  "jwt-alg-none": "auth",
  "deleted-account-token": "positive",
  "deleted-account-token-500": "positive",
  "order-behind-item-422": "positive",
  "book-list-leaks-secrets": "examples",
  "foreign-order-read": "authorization",
  "foreign-order-delete": "authorization",
  "list-books-without-token": "auth",
};

/** Checks a fault's runs may report besides those that must catch it (the same bug seen from another side). */
const ALSO: Partial<Record<AccountsFault, string[]>> = {
  "quote-breaks-json": ["listed_after_create"],
  "list-books-without-token": ["forged_credential"],
  "deleted-account-token-500": ["status_code_conformance"],
  "jwt-signature-ignored": ["negative_data_rejection"],
  "jwt-alg-none": ["negative_data_rejection"],
  // The password a record carries breaks the password's own schema when the suite registered a short one.
  "password-in-response": ["response_schema_conformance"],
  // The 422 refuses a valid order: valid input rejected, besides its body breaking the 422's schema.
  "order-behind-item-422": ["positive_data_acceptance"],
};

interface Plan {
  name: string;
  variant: AccountsVariant[];
  auth?: AccountsAuth;
  links?: boolean;
  /** The document wraps every request body in an envelope (served by the `enveloped` variant). */
  envelope?: boolean;
  env?: Record<string, string>;
}

const runs = new Map<string, { results: ScenarioResult[]; files: string[]; base: string }>();

async function runPlan(p: Plan): Promise<void> {
  const auth = p.auth ?? "bearer-login";
  const spec = writeAccountsDocument(join(dir, p.name.replace(/\W+/g, "-")), {
    links: p.links ?? true,
    auth,
    envelope: p.envelope === true,
  });
  const base = server.flavourUrl(auth, ...p.variant);
  const reports = join(dir, "reports", p.name.replace(/\W+/g, "-"));
  const settings = readSettings({
    CONTRACT_SPEC: spec,
    CONTRACT_BASE_URL: base,
    ...(auth === "oauth2-client-credentials"
      ? {
          CONTRACT_CLIENT_ID: OAUTH_CLIENTS.first.client_id,
          CONTRACT_CLIENT_SECRET: OAUTH_CLIENTS.first.client_secret,
          CONTRACT_SECOND_CLIENT_ID: OAUTH_CLIENTS.second.client_id,
          CONTRACT_SECOND_CLIENT_SECRET: OAUTH_CLIENTS.second.client_secret,
        }
      : {
          CONTRACT_USERNAME: ACCOUNTS.first.username,
          CONTRACT_PASSWORD: ACCOUNTS.first.password,
          CONTRACT_SECOND_USERNAME: ACCOUNTS.second.username,
          CONTRACT_SECOND_PASSWORD: ACCOUNTS.second.password,
        }),
    CONTRACT_REPORTS_DIR: reports,
    CONTRACT_BASELINE: join(dir, "no-baseline.json"),
    ...p.env,
  });
  const { run, results } = await runContract(settings);
  const { paths } = finishRun(settings, results, run.target.requestsSent(), run.target.scrubber);
  runs.set(p.name, { results, base, files: Object.values(paths).map((f) => readFileSync(f, "utf8")) });
}

const PLANS: Plan[] = [
  // Each conforming plan on a store of its own (a flavour is one): two runs of one seed would meet each other's ids.
  { name: "conforming", variant: [] },
  { name: "conforming without links, an API key from a login", variant: [], links: false, auth: "apikey-login" },
  {
    name: "conforming, OAuth2 password flow",
    variant: [],
    auth: "oauth2-password",
    env: { CONTRACT_PHASES: "auth,positive,authorization" },
  },
  {
    name: "conforming, OAuth2 client",
    variant: [],
    auth: "oauth2-client-credentials",
    env: { CONTRACT_PHASES: "examples,auth" },
  },
  { name: "tokens that expire", variant: ["lenient-token-expiry"], env: { CONTRACT_PHASES: "examples,positive,auth" } },
  // Every body in an envelope (`{"user": {...}}`), an order's items in an array (`order.items[].item_id`).
  { name: "conforming, enveloped bodies", variant: ["enveloped"], envelope: true, links: false },
  {
    name: "enveloped, an order behind a real item answers a broken 422",
    variant: ["enveloped", "order-behind-item-422"],
    envelope: true,
    env: { CONTRACT_PHASES: "positive" },
  },
  {
    name: "enveloped, server-owned members taken from inside the envelope",
    variant: ["enveloped", "owner-from-body", "register-admin"],
    envelope: true,
    env: { CONTRACT_PHASES: "owned-members" },
  },
  {
    name: "e-mails kept unique",
    variant: ["unique-email"],
    env: { CONTRACT_PHASES: "positive,owned-members,lifecycle" },
  },
  ...(Object.keys(ACCOUNTS_FAULTS) as AccountsFault[]).map((fault) => ({
    name: fault,
    variant: [fault] as AccountsVariant[],
    env: {
      CONTRACT_PHASES: PHASES_OF[fault],
      // A freeze shorter than a deadline is only slowness: the deadline is shorter than the server's freeze.
      ...(fault.startsWith("redos-email") ? { CONTRACT_TIMEOUT_MS: "1000" } : {}),
      ...("strict" in ACCOUNTS_FAULTS[fault] ? { CONTRACT_STRICT: "1" } : {}),
    },
  })),
];

beforeAll(async () => {
  server = await startAccountsServer({ freezeMs: 2500, tokenUses: 12 });
  const queue = [...PLANS];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) await runPlan(p);
    }),
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
  cleanUp();
});

describe("a run given two accounts' user names and passwords", () => {
  it("logs in by itself and passes the conforming server, with and without links, leaving nothing behind", () => {
    for (const name of ["conforming", "conforming without links, an API key from a login"]) {
      const { results, base } = runs.get(name)!;
      expect(errorsOf(results), name).toEqual([]);
      expect(results.filter((r) => r.error).map((r) => r.error)).toEqual([]);
      // What changes an account went as a throwaway account: the login accounts are there, all the run made is gone.
      expect(server.holds(base), name).toEqual(SEEDED);
      expect(
        results.some((r) => r.phase === "authorization" && r.status === "passed"),
        name,
      ).toBe(true);
    }
  });

  it("logs in, registers its throwaway accounts and orders real items through enveloped bodies", () => {
    const { results, base } = runs.get("conforming, enveloped bodies")!;
    expect(errorsOf(results)).toEqual([]);
    expect(server.holds(base)).toEqual(SEEDED);
    const sent = server.requests(base);
    // Its throwaway accounts registered and changed through `{"user": {...}}`; orders placed and read back.
    expect(sent.filter((r) => r === "POST /users/register").length).toBeGreaterThan(1);
    expect(sent.some((r) => /^PUT \/users\/cs[^/]+\/password$/.test(r))).toBe(true);
    expect(sent.some((r) => /^GET \/orders\/\d+$/.test(r))).toBe(true);
    expect(results.filter((r) => /answered status (400|404)/.test(r.skipReason ?? "")).map((r) => r.id)).toEqual([]);
    // A nested reference (`order.items[].item_id`) comes from the menu, and the report says it was inferred.
    expect(results.filter((r) => r.operation === "createOrder").flatMap((r) => r.notes ?? [])).toContain(
      "inferred: listItems body `/items/0/id` -> createOrder body `order.items[].item_id`",
    );
  });

  it("reaches the fault behind an enveloped order with a real item from the menu (order.items[].item_id)", () => {
    const errors = errorsOf(runs.get("enveloped, an order behind a real item answers a broken 422")!.results);
    expect(errors).toContain("response_schema_conformance");
    expect(errors.filter((c) => c !== "response_schema_conformance" && c !== "positive_data_acceptance")).toEqual([]);
  });

  it("sends the members a server owns inside the envelope the writes wrap the resource in", () => {
    const { results } = runs.get("enveloped, server-owned members taken from inside the envelope")!;
    const errors = errorsOf(results);
    expect(errors).toContain("server_owned_member");
    expect(errors.filter((c) => c !== "server_owned_member")).toEqual([]);
    const found = results.flatMap((r) => (r.findings ?? []).map((f) => `${r.operation}: ${f.title}`));
    for (const op of ["createBook", "createOrder", "registerUser"])
      expect(
        found.some((f) => f.startsWith(`${op}: Server-owned member`)),
        op,
      ).toBe(true);
  });

  it("sends a fresh e-mail in every register where the server keeps e-mails unique: no finding of its own doing", () => {
    const { results, base } = runs.get("e-mails kept unique")!;
    expect(errorsOf(results)).toEqual([]);
    expect(server.requests(base).filter((r) => r === "POST /users/register").length).toBeGreaterThan(1);
  });

  it("logs in through an OAuth2 password flow and an OAuth2 client's credentials", () => {
    for (const name of ["conforming, OAuth2 password flow", "conforming, OAuth2 client"]) {
      const { results } = runs.get(name)!;
      expect(errorsOf(results), name).toEqual([]);
      // The auth phase ran as the account it logged in (no probe skipped for want of a credential).
      expect(results.filter((r) => r.phase === "auth" && r.status === "passed").length, name).toBeGreaterThan(5);
      expect(
        results
          .filter((r) => /needs another account|a second account/.test(r.skipReason ?? ""))
          .map((r) => `${r.id}: ${r.skipReason}`),
        name,
      ).toEqual([]);
      expect(
        results.some((r) => Object.keys(r.answered ?? {}).length > 0),
        name,
      ).toBe(true);
    }
  });

  it("logs in again once when a token that worked expires, and passes", () => {
    const { results, base } = runs.get("tokens that expire")!;
    expect(errorsOf(results)).toEqual([]);
    const logins = server.requests(base).filter((r) => r === "POST /users/login").length;
    expect(logins).toBeGreaterThan(2);
  });

  it("never writes a password or a token it got into a report", () => {
    for (const [name, { files }] of runs)
      for (const text of files) {
        for (const secret of [ACCOUNTS.first.password, ACCOUNTS.second.password, OAUTH_CLIENTS.first.client_secret])
          expect(text.includes(secret), `${name}: a password in a report`).toBe(false);
        expect(/eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]*/.test(text), `${name}: a JWT in a report`).toBe(false);
      }
  });

  it("refuses to start when the login refuses the credentials, naming the operation, never the password", async () => {
    const spec = writeAccountsDocument(join(dir, "refused"), { links: true });
    const settings = readSettings({
      CONTRACT_SPEC: spec,
      CONTRACT_BASE_URL: server.baseUrl(),
      CONTRACT_USERNAME: ACCOUNTS.first.username,
      CONTRACT_PASSWORD: "not-the-password-9",
      CONTRACT_REPORTS_DIR: join(dir, "refused-reports"),
    });
    const error = await runContract(settings).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LoginError);
    expect((error as Error).message).toMatch(/logging in through loginUser failed: status 401/);
    expect((error as Error).message).not.toContain("not-the-password-9");
  });
});

describe("each planted fault of the accounts server", () => {
  for (const [fault, expected] of Object.entries(ACCOUNTS_FAULTS) as Array<
    [AccountsFault, (typeof ACCOUNTS_FAULTS)[AccountsFault]]
  >)
    it(`${fault}: ${expected.what.slice(0, 80)}`, () => {
      const { results } = runs.get(fault)!;
      const errors = errorsOf(results);
      const catches = [...expected.catches, ...("strict" in expected ? expected.strict : [])];
      for (const check of catches) expect(errors, `${fault} is caught by ${check}`).toContain(check);
      const allowed = new Set([...catches, ...(ALSO[fault] ?? [])]);
      expect(
        errors.filter((c) => !allowed.has(c)),
        `${fault}: no other error`,
      ).toEqual([]);
    });
});
