/**
 * The hostile phase in whole runs (the engine npm run contract uses, in this process) against real servers over
 * HTTP. The CRUD fault server: each planted string fault is an error of exactly the checks CRUD_FAULTS lists, the
 * finding naming the hostile string; the conforming variant (which stores every string exactly) passes with no
 * error; what the hostile creates made is deleted at the end. The accounts fault server, signed in over HTTP (its
 * bearer token as CONTRACT_API_KEY): its injection variants fail naming the string, its conforming variant passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContract } from "../cli/contract-run.js";
import { readSettings } from "../config/settings.js";
import { HOSTILE_CLASSES, HOSTILE_REQUESTS_PER_OPERATION } from "../engine/hostile-values.js";
import { type AccountsServer, startAccountsServer } from "../fault-server/accounts.js";
import { writeAccountsDocument } from "../fault-server/accounts-document.js";
import { ACCOUNTS_FAULTS, type AccountsFault } from "../fault-server/accounts-faults.js";
import { ACCOUNTS } from "../fault-server/accounts-store.js";
import {
  CRUD_FAULTS,
  CRUD_SERVER_KEY,
  type CrudFault,
  type CrudServer,
  startCrudServer,
} from "../fault-server/crud.js";
import { writeCrudDocument } from "../fault-server/crud-document.js";
import type { Finding, ScenarioResult } from "../model/types.js";
import { cleanUp, tempDir } from "./support/spawn.js";
import { errorsOf } from "./support/fault-runs.js";

/** The CRUD faults this phase plants: those the catalogue says the hostile phase reaches. */
const STRING_FAULTS = (Object.keys(CRUD_FAULTS) as CrudFault[]).filter((f) =>
  (CRUD_FAULTS[f].phases as readonly string[]).includes("hostile"),
);
const INJECTIONS: AccountsFault[] = ["sql-quote-500", "nul-500", "quote-breaks-json", "template-evaluated"];
/**
 * The most requests the phase sends an operation: its hostile requests, a read after each, a control and a read
 * before.
 */
const MOST_PER_OPERATION = 2 * HOSTILE_REQUESTS_PER_OPERATION + 2;

type Run = { results: ScenarioResult[]; requests: number };
const crudRuns = new Map<string, Run>();
const accountRuns = new Map<string, Run>();
let crud: CrudServer;
let accounts: AccountsServer;

const hostileScenarios = (results: ScenarioResult[]) => results.filter((r) => r.phase === "hostile");

/**
 * True when a finding names a hostile string: the one its write carried, one in its request's path or body, or one
 * its answer shows (a read of a resource an earlier hostile write stored it in: hostile strings go last, after
 * the lifecycle, so an update's hostile phase may start from a post a hostile create made).
 */
function namesHostile(f: Finding): boolean {
  const replay = f.replay;
  if (!replay) return false;
  const body: unknown = replay.bodyText ? JSON.parse(replay.bodyText) : {};
  const carried = [
    replay.context.hostile?.sent ?? "",
    decodeURIComponent(replay.path),
    f.received,
    ...Object.values(typeof body === "object" && body !== null ? body : {}).filter((v) => typeof v === "string"),
  ];
  return HOSTILE_CLASSES.some((c) => carried.some((x) => x.includes(c.text)));
}

/** Signs in at `base` as the seeded admin (whose token may delete what the run registered) over HTTP. */
async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: ACCOUNTS.admin.username, password: ACCOUNTS.admin.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { auth_token: string }).auth_token;
}

beforeAll(async () => {
  [crud, accounts] = await Promise.all([startCrudServer(), startAccountsServer()]);
  const crudSpec = writeCrudDocument(tempDir("hostile-crud-"), false);
  const accountsSpec = writeAccountsDocument(tempDir("hostile-accounts-"), { links: true });
  const jobs: Array<() => Promise<void>> = [
    ...(["conforming", ...STRING_FAULTS, "update-not-persisted"] as const).map((v) => async () => {
      const settings = readSettings({
        CONTRACT_SPEC: crudSpec,
        CONTRACT_BASE_URL: v === "conforming" ? crud.baseUrl() : crud.baseUrl(v),
        CONTRACT_API_KEY: CRUD_SERVER_KEY,
        CONTRACT_REPORTS_DIR: tempDir("hostile-crud-run-"),
        // Two generated requests per operation, as crud.test.ts's fault runs (the conforming one gets the default).
        ...(v === "conforming" ? {} : { CONTRACT_EXAMPLES: "2" }),
      });
      const { run, results } = await runContract(settings);
      crudRuns.set(v, { results, requests: run.target.requestsSent() });
    }),
    // The accounts server, the hostile phase alone (and the clean-up): a whole run deletes the signed-in account
    // (DELETE /account) and every request after it is refused, which says nothing about this phase.
    ...(["conforming", ...INJECTIONS] as const).map((v) => async () => {
      const base = v === "conforming" ? accounts.baseUrl() : accounts.baseUrl(v);
      const settings = readSettings({
        CONTRACT_SPEC: accountsSpec,
        CONTRACT_BASE_URL: base,
        CONTRACT_API_KEY: await adminToken(base),
        CONTRACT_PHASES: "hostile",
        CONTRACT_REPORTS_DIR: tempDir("hostile-accounts-run-"),
      });
      const { run, results } = await runContract(settings);
      accountRuns.set(v, { results, requests: run.target.requestsSent() });
    }),
  ];
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) await job();
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([crud?.stop(), accounts?.stop()]);
  cleanUp();
});

describe("the hostile phase against the CRUD fault server", () => {
  it("passes the conforming variant with no error, every write read back, within the budget per operation", () => {
    const { results } = crudRuns.get("conforming")!;
    expect(errorsOf(results)).toEqual([]);
    const sent = Object.fromEntries(hostileScenarios(results).map((r) => [r.operation, r.sent]));
    // Eight hostile writes each, every accepted one read back; an update also reads the post once before.
    expect(sent).toEqual({ createPost: 16, updatePost: 17, patchPost: 17 });
    for (const n of Object.values(sent)) expect(n).toBeLessThanOrEqual(MOST_PER_OPERATION);
    for (const r of hostileScenarios(results)) expect(r.status, r.id).toBe("passed");
  });

  it("deletes at the end every post its hostile creates made", () => {
    const { results } = crudRuns.get("conforming")!;
    expect(crud.posts()).toEqual([]);
    const cleanup = results.find((r) => r.phase === "cleanup")!;
    expect(cleanup.notes?.[0]).toMatch(/^created \d+ resource\(s\)/);
    expect(cleanup.notes?.[1]).toBe("left behind: nothing (each created resource was deleted)");
    for (const fault of STRING_FAULTS) expect(crud.posts(fault), fault).toEqual([]);
  });

  it.each(STRING_FAULTS)("catches %s with exactly its checks, naming the hostile string", (fault) => {
    const { results } = crudRuns.get(fault)!;
    const catchers = CRUD_FAULTS[fault].catchers;
    expect(errorsOf(results)).toEqual([...catchers].sort());
    const mine = hostileScenarios(results).flatMap((r) => r.findings.filter((f) => f.check === catchers[0]));
    expect(mine.length, "the hostile phase reports it").toBeGreaterThan(0);
    for (const f of mine) expect(namesHostile(f), `${f.title}: ${f.received}`).toBe(true);
    for (const f of mine) expect(f.promise).toMatch(/^#\//);
  });

  it.each(["quote-500", "quote-breaks-json"] as const)(
    "%s: narrows a request (or its read) that failed to the string that fails it, its class alone",
    (fault) => {
      const { results } = crudRuns.get(fault)!;
      const errors = hostileScenarios(results).flatMap((r) => r.findings.filter((f) => f.severity === "error"));
      expect(errors.length).toBeGreaterThan(0);
      // None names a request with a string in every member: each failure was narrowed to one string and its class
      // (a response-shape check's finding carries no cause: the write or read it judged carried one string).
      expect(errors.filter((f) => /; (body member|query parameter)/.test(f.cause ?? "")).map((f) => f.cause)).toEqual(
        [],
      );
      expect(errors.filter((f) => f.replay?.context.hostile?.others).map((f) => f.title)).toEqual([]);
    },
  );

  it("catches a template evaluated in one member of three, naming the member and the class", () => {
    const { results } = crudRuns.get("template-evaluated-in-body")!;
    const titles = hostileScenarios(results).flatMap((r) =>
      r.findings.filter((f) => f.check === "hostile_input").map((f) => f.title),
    );
    expect(titles.length).toBeGreaterThan(0);
    for (const t of titles) expect(t).toMatch(/^A hostile string \(template markers\) written to body member body /);
  });

  it("reports a write that did not take as update_persisted's, not as a mangled hostile string", () => {
    expect(errorsOf(crudRuns.get("update-not-persisted")!.results)).toEqual(["update_persisted"]);
  });
});

describe("the hostile phase against the accounts fault server, signed in over HTTP", () => {
  it("passes the conforming variant with no error and leaves nothing it registered or created", () => {
    const { results } = accountRuns.get("conforming")!;
    expect(errorsOf(results)).toEqual([]);
    const sent = Object.fromEntries(hostileScenarios(results).map((r) => [r.operation, r.sent]));
    expect(Object.keys(sent).sort()).toEqual(
      [
        "createBook",
        "getBook",
        "getUser",
        "loginUser",
        "registerUser",
        "renameAccount",
        "updateBook",
        "updateEmail",
        "updatePassword",
      ].sort(),
    );
    for (const n of Object.values(sent)) expect(n).toBeLessThanOrEqual(MOST_PER_OPERATION);
    expect(accounts.holds(accounts.baseUrl())).toEqual({
      users: ["alice", "bob", "admin"],
      books: ["alice-diary", "bob-recipes"],
      orders: [],
    });
  });

  it.each(INJECTIONS)("fails %s with the checks its catalogue lists, naming the hostile string", (fault) => {
    const { results } = accountRuns.get(fault)!;
    expect(errorsOf(results)).toEqual([...ACCOUNTS_FAULTS[fault].catches].sort());
    const errors = hostileScenarios(results).flatMap((r) => r.findings.filter((f) => f.severity === "error"));
    expect(errors.length).toBeGreaterThan(0);
    for (const f of errors) expect(namesHostile(f), `${f.check} ${f.title}`).toBe(true);
  });
});
