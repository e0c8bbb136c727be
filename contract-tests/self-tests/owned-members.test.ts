/**
 * The owned-members phase and the write_only_exposed check in whole runs (the engine `npm run contract` uses)
 * against the CRUD server (its document with and without links) and the accounts server (bearer-login with links,
 * signed in over HTTP as the first seeded account): each planted mass assignment and each exposed password is an
 * error naming the member, the values and the promise; the conforming and lenient variants (members ignored,
 * overwritten or refused with a 400) pass with no error; each family costs at most 12 requests; what the phase
 * created is deleted where the caller may delete it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../cli/contract-run.js";
import { readSettings } from "../config/settings.js";
import { type AccountsServer, startAccountsServer } from "../fault-server/accounts.js";
import { writeAccountsDocument } from "../fault-server/accounts-document.js";
import { ACCOUNTS_FAULTS, type AccountsFault } from "../fault-server/accounts-faults.js";
import { ACCOUNTS } from "../fault-server/accounts-store.js";
import { CRUD_SERVER_KEY, type CrudServer, type CrudVariant, startCrudServer } from "../fault-server/crud.js";
import { writeCrudDocument } from "../fault-server/crud-document.js";
import type { Finding, ScenarioResult } from "../model/types.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const CRUD_VARIANTS = [
  "conforming",
  "updated-at-writable",
  "owner-from-body",
  "password-in-response",
  "lenient-refuses-unknown",
] as const;
const ACCOUNTS_VARIANTS = [
  "conforming",
  "register-admin",
  "owner-from-body",
  "email-update-merges-body",
  "password-in-response",
] as const;
const runs = new Map<string, ScenarioResult[]>();
let crud: CrudServer;
let accounts: AccountsServer;

const errors = (results: ScenarioResult[]): Finding[] =>
  results.flatMap((r) => r.findings).filter((f) => f.severity === "error");
const checksOf = (results: ScenarioResult[]) => [...new Set(errors(results).map((f) => f.check))].sort();
const phase = (results: ScenarioResult[]) => results.filter((r) => r.phase === "owned-members");

async function run(env: Record<string, string>): Promise<ScenarioResult[]> {
  const settings = readSettings({
    CONTRACT_REPORTS_DIR: tempDir("owned-run-"),
    CONTRACT_PHASES: "owned-members",
    ...env,
  });
  return (await runContract(settings)).results;
}

/** A bearer token of the first seeded account, from the accounts server's login (the suite does not log in). */
async function token(base: string): Promise<string> {
  const { username, password } = ACCOUNTS.first;
  const res = await fetch(`${base}/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as { auth_token: string }).auth_token;
}

beforeAll(async () => {
  [crud, accounts] = await Promise.all([startCrudServer(), startAccountsServer()]);
  const dir = tempDir("owned-doc-");
  const specs = { "without links": writeCrudDocument(dir, false), "with links": writeCrudDocument(dir, true) };
  const accountsSpec = writeAccountsDocument(dir, { links: true });
  const plans: Array<[string, () => Promise<ScenarioResult[]>]> = [
    ...Object.entries(specs).flatMap(([doc, spec]) =>
      CRUD_VARIANTS.map((v): [string, () => Promise<ScenarioResult[]>] => [
        `crud ${doc}: ${v}`,
        () =>
          run({
            CONTRACT_SPEC: spec,
            CONTRACT_BASE_URL: crud.baseUrl(...(v === "conforming" ? [] : [v as CrudVariant])),
            CONTRACT_API_KEY: CRUD_SERVER_KEY,
          }),
      ]),
    ),
    ...ACCOUNTS_VARIANTS.map((v): [string, () => Promise<ScenarioResult[]>] => [
      `accounts: ${v}`,
      async () => {
        const base = accounts.baseUrl(...(v === "conforming" ? [] : [v]));
        // The user updates only their own e-mail: the suite names the signed-in account's record for that update.
        return run({
          CONTRACT_SPEC: accountsSpec,
          CONTRACT_BASE_URL: base,
          CONTRACT_API_KEY: await token(base),
          CONTRACT_PARAMS: JSON.stringify({ "updateEmail.username": ACCOUNTS.first.username }),
        });
      },
    ]),
  ];
  await Promise.all(plans.map(async ([name, go]) => runs.set(name, await go())));
}, 60_000);

afterAll(async () => {
  await Promise.all([crud?.stop(), accounts?.stop()]);
  cleanUp();
});

describe.each(["without links", "with links"])("the CRUD server's document %s", (doc) => {
  it("the conforming variant passes: create, update and patch probed in 12 requests, all it created deleted", () => {
    const results = runs.get(`crud ${doc}: conforming`)!;
    expect(errors(results)).toEqual([]);
    const [scenario] = phase(results);
    expect(scenario).toMatchObject({ status: "passed", sent: 12 });
    expect(crud.posts()).toEqual([]);
    expect(results.find((r) => r.phase === "cleanup")?.notes?.[1]).toBe(
      "left behind: nothing (each created resource was deleted)",
    );
  });

  it("a server that refuses the members it owns with its documented 400 passes (the document is silent)", () => {
    const results = runs.get(`crud ${doc}: lenient-refuses-unknown`)!;
    expect(errors(results)).toEqual([]);
    // Each write, its read and the probe: no read follows a refused probe (3 writes, 9 requests).
    expect(phase(results)[0]).toMatchObject({ status: "passed", sent: 9 });
  });

  it("a readOnly member taken from the body is an error on each write, naming its readOnly keyword", () => {
    const found = errors(runs.get(`crud ${doc}: updated-at-writable`)!);
    // One cause (issue 33): one finding, on each write.
    expect(found).toHaveLength(1);
    expect(found[0]!.check).toBe("server_owned_member");
    expect(found[0]!.title).toMatch(/^Server-owned member "updatedAt" took the value (create|update|patch)Post sent$/);
    expect(found[0]!.operations).toEqual(["createPost", "updatePost", "patchPost"]);
    expect(found[0]!.received).toMatch(
      /^updatedAt: sent "2001-02-03T04:05:06Z", now "2001-02-03T04:05:06Z"; the server had set "20\d\d-/,
    );
    for (const f of found) expect(f.promise).toBe("#/components/schemas/Post/properties/updatedAt/readOnly");
  });

  it("a member in no request schema taken from the create's body is an error naming the request schemas", () => {
    const [f, ...rest] = errors(runs.get(`crud ${doc}: owner-from-body`)!);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: "server_owned_member",
      operation: "createPost",
      received: 'owner: sent "owned-probe-value", now "owned-probe-value"; the server had set "key-holder"',
      promise: "#/paths/~1posts/post/requestBody/content/application~1json/schema",
    });
    expect(f!.documented).toContain(
      "the member is in no request schema of /posts/{postId}: " +
        "#/components/schemas/NewPost, #/components/schemas/PostPatch",
    );
  });

  it("a writeOnly password in the answers is an error that never shows the password", () => {
    const found = errors(runs.get(`crud ${doc}: password-in-response`)!);
    expect([...new Set(found.map((f) => f.check))]).toEqual(["write_only_exposed"]);
    for (const f of found) {
      expect(f).toMatchObject({
        instancePath: "/password",
        promise: "#/components/schemas/Post/properties/password/writeOnly",
      });
      expect(f.received).toBe('"password": a string (its value is not shown here)');
    }
  });
});

describe("the accounts server (bearer login, with links)", () => {
  it("the conforming variant passes; every family is probed, the order with an item the menu lists", () => {
    const results = runs.get("accounts: conforming")!;
    expect(errors(results)).toEqual([]);
    expect(phase(results).map((r) => [r.id, r.status])).toEqual([
      ["registerUser/owned-members//users/{username}", "passed"],
      ["createBook/owned-members//books/{book_title}", "passed"],
      ["createOrder/owned-members//orders/{orderId}", "passed"],
    ]);
    // The writes to a user's own record (its password, its e-mail) go as a throwaway account the run registered.
    expect(phase(results).every((r) => (r.sent ?? 0) >= 4)).toBe(true);
  });

  it.each(ACCOUNTS_VARIANTS.filter((v) => v !== "conforming"))("%s is caught by its check alone", (fault) => {
    expect(checksOf(runs.get(`accounts: ${fault}`)!)).toEqual([...ACCOUNTS_FAULTS[fault as AccountsFault].catches]);
  });

  it("names the member, the values and the promise: admin by the register and by the e-mail update", () => {
    const [registered] = errors(runs.get("accounts: register-admin")!);
    expect(registered).toMatchObject({
      operation: "registerUser",
      title: 'Server-owned member "admin" took the value registerUser sent',
      received: "admin: sent true, now true; the server had set false",
      promise: "#/components/schemas/User/properties/admin/readOnly",
    });
    const [merged] = errors(runs.get("accounts: email-update-merges-body")!);
    expect(merged).toMatchObject({
      operation: "getUser",
      title: 'Server-owned member "admin" took the value updateEmail sent',
    });
    const [owner] = errors(runs.get("accounts: owner-from-body")!);
    expect(owner).toMatchObject({
      operation: "createBook",
      promise: "#/components/schemas/Book/properties/owner/readOnly",
    });
  });
});
