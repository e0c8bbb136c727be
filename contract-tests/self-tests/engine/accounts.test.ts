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
import {
  ACCOUNTS_FAULTS,
  ACCOUNTS_PHASES,
  type AccountsFault,
  type AccountsVariant,
} from "../../fault-server/accounts-faults.js";
import { ACCOUNTS, OAUTH_CLIENTS } from "../../fault-server/accounts-store.js";
import type { ScenarioResult } from "../../model/types.js";
import { LoginError } from "../../engine/session.js";
import { Accounts } from "../../engine/accounts.js";
import { specModel } from "../../model/model.js";
import { wireRules } from "../../model/wire.js";
import { createTarget } from "../../transport/target.js";
import { cleanUp, tempDir } from "../support/spawn.js";
import { errorFindings, errorsOf, findingsPerFault } from "../support/fault-runs.js";

const dir = tempDir("contract-accounts-");
let server: AccountsServer;
const SEEDED = { users: ["alice", "bob", "admin"], books: ["alice-diary", "bob-recipes"], orders: [] };

/** Checks a fault's runs may report besides those that must catch it (the same bug seen from another side). */
const ALSO: Partial<Record<AccountsFault, string[]>> = {
  "quote-breaks-json": ["listed_after_create"],
  "list-books-without-token": ["forged_credential"],
  "deleted-account-token-500": ["status_code_conformance"],
  "jwt-signature-ignored": ["negative_data_rejection"],
  "jwt-alg-none": ["negative_data_rejection"],
  // The password a record carries breaks the password's own schema when the suite registered a short one.
  "password-in-response": ["response_schema_conformance"],
  // The 422 refuses a valid order (the finding); its body breaking the 422's schema is noted under it.
  "order-behind-item-422": ["response_schema_conformance"],
};

interface Plan {
  name: string;
  variant: AccountsVariant[];
  auth?: AccountsAuth;
  links?: boolean;
  /** The document wraps every request body in an envelope (served by the `enveloped` variant). */
  envelope?: boolean;
  env?: Record<string, string>;
  /** Only the first account's user name and password (the run registers its second). */
  oneAccount?: true;
  /** A document without its register operation. */
  noRegister?: true;
}

const runs = new Map<string, { results: ScenarioResult[]; files: string[]; base: string }>();

async function runPlan(p: Plan): Promise<void> {
  const auth = p.auth ?? "bearer-login";
  const spec = writeAccountsDocument(join(dir, p.name.replace(/\W+/g, "-")), {
    links: p.links ?? true,
    auth,
    ...(p.noRegister ? { register: false } : {}),
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
          ...(p.oneAccount
            ? {}
            : {
                CONTRACT_SECOND_USERNAME: ACCOUNTS.second.username,
                CONTRACT_SECOND_PASSWORD: ACCOUNTS.second.password,
              }),
        }),
    CONTRACT_REPORTS_DIR: reports,
    CONTRACT_BASELINE: join(dir, "no-baseline.json"),
    ...p.env,
  });
  const { run, results } = await runContract(settings);
  // With every exchange of the run (the HAR archive): no password or token in it either.
  const { paths } = finishRun(settings, results, run.target.requestsSent(), run.target.scrubber, {
    exchanges: run.exchanges,
  });
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
  { name: "403 where 403 is documented", variant: ["lenient-403-without-token"], env: { CONTRACT_PHASES: "auth" } },
  // Two logins within a second get the same token (and a non-admin's delete of a user, a 401, makes the run log in
  // again): the run must send it as it is, never the reports' mask. Under the default workers, three times over.
  ...["examples", "positive", "examples,auth"].map(
    (phases, i): Plan => ({
      name: `tokens the same within a second ${i + 1}`,
      variant: ["lenient-second-tokens"],
      env: { CONTRACT_PHASES: phases, CONTRACT_SEED: String(7 + i) },
    }),
  ),
  // An apiKey Authorization header whose description shows `Token <token>`: sent so (the server refuses it bare).
  { name: "conforming, a Token prefix", variant: [], auth: "token-login", env: { CONTRACT_PHASES: "examples,auth" } },
  // Someone else changes the first account's password mid-run: the run loses it, and says so once.
  {
    name: "the login account revoked mid-run",
    variant: ["lenient-login-revoked"],
    env: { CONTRACT_PHASES: "examples,positive,negative" },
  },
  // One account given: the run registers its second for the isolation and authorization phases.
  {
    name: "conforming, one account",
    variant: [],
    oneAccount: true,
    auth: "oauth2-password",
    env: { CONTRACT_PHASES: "isolation,authorization" },
  },
  {
    name: "conforming, one account, no register",
    variant: [],
    oneAccount: true,
    noRegister: true,
    links: false,
    env: { CONTRACT_PHASES: "positive,isolation,authorization" },
  },
  {
    name: "foreign-book-read, one account",
    variant: ["foreign-book-read", "foreign-order-delete"],
    oneAccount: true,
    env: { CONTRACT_PHASES: "authorization" },
  },
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
      CONTRACT_PHASES: ACCOUNTS_PHASES[fault],
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
    // One response, one finding: the refusal of a valid order, its body's broken schema noted under it.
    expect(errors).toContain("positive_data_acceptance");
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

  it("sends a fresh e-mail in every register where e-mails are kept unique: no finding of its own doing", () => {
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

  it("passes a server that refuses a missing token with a 403 where the operation documents 403 beside 401", () => {
    const { results, base } = runs.get("403 where 403 is documented")!;
    expect(errorsOf(results)).toEqual([]);
    expect(results.filter((r) => r.phase === "auth" && r.status === "passed").length).toBeGreaterThan(5);
    expect(server.requests(base).some((r) => /^PUT \/users\/[^/]+\/password$/.test(r))).toBe(true);
  });

  it("logs in again once when a token that worked expires, and passes", () => {
    const { results, base } = runs.get("tokens that expire")!;
    expect(errorsOf(results)).toEqual([]);
    const logins = server.requests(base).filter((r) => r === "POST /users/login").length;
    expect(logins).toBeGreaterThan(2);
  });

  it("sends every request with its own token, never the reports' mask, and leaves its logins as they were", () => {
    for (const [name, { base }] of runs) expect(server.masked(base), `${name}: requests carrying ***`).toBe(0);
    for (const name of ["conforming", "conforming without links, an API key from a login"]) {
      const { base } = runs.get(name)!;
      // Read back: the login accounts' names, e-mails, passwords and roles are what they were before the run.
      expect(server.seeded(base), name).toEqual(
        Object.entries(ACCOUNTS).map(([role, a]) => ({ ...a, admin: role === "admin" })),
      );
    }
    for (const i of [1, 2, 3]) {
      const { results, base } = runs.get(`tokens the same within a second ${i}`)!;
      expect(errorsOf(results), `run ${i}`).toEqual([]);
      expect(server.requests(base).filter((r) => r === "POST /users/login").length).toBeGreaterThan(2);
    }
  });

  it("sends the credential after the prefix the scheme's description shows (`Token <jwt>`)", () => {
    const { results } = runs.get("conforming, a Token prefix")!;
    expect(errorsOf(results)).toEqual([]);
    // The credentialed reads were answered (a bare token is refused with a 401, a warning only).
    const statuses = (id: string) => results.find((r) => r.id === id)?.answered?.[id.split("/")[0]!] ?? [];
    for (const id of ["listBooks/examples", "listUsers/examples", "listItems/examples"])
      expect(statuses(id), id).toEqual([200]);
  });

  it("says once that it lost its login account mid-run, and stops what needed it, not an error per request", () => {
    const { results, files } = runs.get("the login account revoked mid-run")!;
    expect(errorsOf(results)).toEqual([]);
    const lost = results.flatMap((r) => r.findings.filter((f) => f.check === "credentials_lost"));
    expect(lost).toHaveLength(1);
    expect(lost[0]!.title).toMatch(/lost the account \$CONTRACT_USERNAME/);
    expect(lost[0]!.received).toMatch(/logging in through loginUser failed: status 401/);
    // No refusal of the lost credential judged on its own: the scenarios that needed it stopped.
    const refused = results.flatMap((r) =>
      r.findings.filter((f) => f.check !== "credentials_lost" && /no longer exists/.test(f.received ?? "")),
    );
    expect(refused.length).toBeLessThan(3);
    const cut = results.filter((r) => r.skip?.kind === "cut" && r.skip.by === "credentials");
    expect(cut.length).toBeGreaterThan(3);
    // The text report says so on its first lines.
    const text = files.find((f) => f.startsWith("Contract report"))!;
    expect(text.split("\n").slice(0, 3).join("\n")).toMatch(/!! The run lost the account \$CONTRACT_USERNAME/);
  });

  it("registers a second account when none is given, for the isolation and authorization phases, and says so", () => {
    const { results, base } = runs.get("conforming, one account")!;
    expect(errorsOf(results)).toEqual([]);
    expect(results.filter((r) => /another account/.test(r.skipReason ?? "")).map((r) => r.id)).toEqual([]);
    expect(results.filter((r) => r.phase === "authorization" && r.status === "passed").length).toBeGreaterThan(1);
    expect(results.flatMap((r) => r.notes ?? []).filter((n) => /no second account was given/.test(n))).toHaveLength(1);
    // The registered second account is deleted at the end, like every throwaway account.
    expect(server.holds(base)).toEqual(SEEDED);
    // Without a register operation, the phases that need a second account are skipped, saying why; no error.
    const alone = runs.get("conforming, one account, no register")!;
    expect(errorsOf(alone.results)).toEqual([]);
    expect(alone.results.filter((r) => /another account/.test(r.skipReason ?? "")).length).toBeGreaterThan(0);
    expect(server.seeded(alone.base)).toEqual(
      Object.entries(ACCOUNTS).map(([role, a]) => ({ ...a, admin: role === "admin" })),
    );
    const faulty = runs.get("foreign-book-read, one account")!;
    expect(errorsOf(faulty.results)).toEqual(["account_isolation", "foreign_write"]);
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

describe("one finding per cause (issue 33)", () => {
  it("each planted fault of the accounts server is one error finding or two, rarely two", () => {
    const faults = Object.keys(ACCOUNTS_FAULTS) as AccountsFault[];
    const counts = Object.fromEntries(faults.map((f) => [f, errorFindings(runs.get(f)!.results)]));
    const { average, above } = findingsPerFault(counts);
    expect(above).toEqual([]);
    // A foreign write accepted and then seen in the owner's read are two answers (two findings) here; over every
    // catalogue (npm run measure:findings) the average is at most 1.2.
    expect(average, JSON.stringify(counts)).toBeLessThanOrEqual(1.25);
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

describe("a request that names a login account", () => {
  it("goes as a throwaway account when it may change data, addressed to it; a read or the login goes as it is", () => {
    const spec = writeAccountsDocument(join(dir, "names"), { links: true });
    const settings = readSettings({
      CONTRACT_SPEC: spec,
      CONTRACT_BASE_URL: "http://127.0.0.1:9/variant/conforming",
      CONTRACT_USERNAME: ACCOUNTS.first.username,
      CONTRACT_PASSWORD: ACCOUNTS.first.password,
    });
    const model = specModel(spec);
    const accounts = new Accounts(model.forRequests, settings, createTarget(settings, wireRules(model.operations)));
    const grant = {
      operation: "grantRole",
      method: "POST",
      path: "/teams/1/members",
      json: { members: [{ user: { name: ACCOUNTS.first.username }, role: "owner" }], note: "alice's" },
    };
    expect(accounts.namesLogin(grant)).toBe(true);
    expect(accounts.readdressed(grant, "cs-throwaway").json).toEqual({
      members: [{ user: { name: "cs-throwaway" }, role: "owner" }],
      note: "alice's",
    });
    const byPath = { operation: "x", method: "PATCH", path: "/users/alice", pathParams: { username: "alice" } };
    expect(accounts.namesLogin(byPath)).toBe(true);
    expect(accounts.readdressed(byPath, "cs-throwaway").pathParams).toEqual({ username: "cs-throwaway" });
    expect(accounts.namesLogin({ ...byPath, method: "GET" })).toBe(false);
    const form = {
      ...byPath,
      pathParams: {},
      rawBody: "user=alice&x=1",
      contentType: "application/x-www-form-urlencoded",
    };
    expect(accounts.namesLogin(form)).toBe(true);
    expect(accounts.readdressed(form, "cs-throwaway").rawBody).toBe("user=cs-throwaway&x=1");
    expect(accounts.namesLogin({ ...grant, operation: "loginUser" })).toBe(false);
    expect(accounts.namesLogin({ ...grant, json: { members: [{ user: { name: "bob" } }] } })).toBe(false);
  });
});
