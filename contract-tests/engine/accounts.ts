/**
 * The accounts a run acts as, on a live target: the first and second it logs in as from the settings (their
 * tokens renewed once when they expire), and throwaway accounts it registers itself where the document can
 * register one. Anything that changes or ends an account (a password, an e-mail, the account itself, a logout) is
 * sent only as a throwaway account, addressed to that account, never as an account the user gave: a password
 * change in the run must not lock the run out of its own account.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { Login, Settings } from "../config/settings.js";
import {
  changesAccount,
  loginOperation,
  PASSWORD_NAMES,
  registerOperation,
  type LoginOperation,
  withCredentials,
} from "../model/accounts.js";
import { memberAt, valuesAt } from "../model/members.js";
import type { SpecModel } from "../model/model.js";
import { isSkip, reason, type SkipReason } from "../model/skip.js";
import type { Exchange } from "../model/types.js";
import type { Account } from "../transport/credentials.js";
import type { RequestSpec, Target } from "../transport/target.js";
import { firstValidMember, freshUnique } from "./body-values.js";
import { toRequest } from "./requests.js";
import type { AccountBook, ScenarioContext } from "./scenario.js";
import { LoginError, loginPlan, loginRequest, secretFrom, tokenIn, tokenPlace, type LoginPlan } from "./session.js";
import { baseValues } from "./values.js";

/** An account the run registered for itself. */
export interface Throwaway {
  account: Account;
  username: string;
  password: string;
  /** The register's exchange (the account is a resource of the account family when the document reads it so). */
  registered: Exchange;
  /** False once a delete of it succeeded (its credential must then be refused). */
  alive: boolean;
  /** The user name it was registered with (it may have renamed itself since). */
  registeredAs: string;
}

/** The variable a report shows for an account's token. */
const shownAs = (account: Account) =>
  account === "valid"
    ? "$CONTRACT_TOKEN"
    : account === "second"
      ? "$CONTRACT_SECOND_TOKEN"
      : `$CONTRACT_${account.toUpperCase().replace("-", "_")}_TOKEN`;

/** The accounts of a run, and what the document says of accounts. */
export class Accounts implements AccountBook {
  readonly throwaways: Throwaway[] = [];
  readonly #logins = new Map<Account, Login>();
  /** The throwaway account standing in for the run's own (1) and for the second (2), until it is deleted. */
  readonly #current = new Map<1 | 2, Promise<Account | SkipReason>>();
  #registered = 0;
  readonly #login: LoginOperation | undefined;
  readonly #register: ReturnType<typeof registerOperation>;

  constructor(
    private readonly model: SpecModel,
    private readonly settings: Settings,
    private readonly target: Target,
  ) {
    const login = settings.kind === "live" ? loginOperation(model, settings.loginOperation) : undefined;
    this.#login = login && !("problem" in login) ? login : undefined;
    this.#register = registerOperation(model, this.#login?.operationId);
    target.credentials.renew = (account) => this.#renew(account);
  }

  /** The path of an account's own resource (`/users/{username}`), when the document has one. */
  get family(): string | undefined {
    return this.#register?.family;
  }

  /**
   * True when the run registers its second account itself: a live target, no second account given (its key, or its
   * user name and password, are preferred), and a document that can register one. Throwaway account 2 is then the
   * second account of the isolation and authorization phases.
   */
  get registersSecond(): boolean {
    const s = this.settings;
    return s.kind === "live" && !s.secondApiKey && !s.logins.second && this.#register !== undefined;
  }

  /** True when `op` changes or ends an account or a session (see model/accounts.ts), on a live target. */
  changesAccount(op: OperationEntry): boolean {
    if (this.settings.kind !== "live") return false;
    const exempt = [this.#login?.operationId, this.#register?.operationId].filter((x): x is string => Boolean(x));
    return changesAccount(op, this.family, exempt, this.model);
  }

  /** The user names of the accounts the user gave (their passwords' logins). */
  get #loginNames(): string[] {
    const { first, second } = this.settings.logins;
    return [first, second].flatMap((l) => (l && "username" in l && l.username ? [l.username] : []));
  }

  /**
   * True when `spec`, a request that may change data (not the login's or the register's), names an account the user
   * gave: its user name as a path parameter, a query value or a body member at any depth. Such a request may change
   * that account (its record, its role, its profile): it goes as a throwaway account, addressed to that one.
   */
  namesLogin(spec: RequestSpec): boolean {
    if (this.settings.kind !== "live" || SAFE.has(spec.method.toUpperCase())) return false;
    if (spec.operation === this.#login?.operationId || spec.operation === this.#register?.operationId) return false;
    const names = new Set(this.#loginNames);
    if (names.size === 0) return false;
    const values = [
      ...Object.values(spec.pathParams ?? {}),
      ...Object.values(spec.query ?? {}).flat(),
      ...stringsIn(spec.json),
      ...(formOf(spec) ? [...formOf(spec)!.values()] : []),
    ];
    return values.some((v) => typeof v === "string" && names.has(v));
  }

  /** `spec` with each mention of an account the user gave (see namesLogin) replaced by `username`. */
  readdressed(spec: RequestSpec, username: string): RequestSpec {
    const names = new Set(this.#loginNames);
    const swap = (v: unknown): unknown =>
      typeof v === "string"
        ? names.has(v)
          ? username
          : v
        : Array.isArray(v)
          ? v.map(swap)
          : isMapping(v)
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
            : v;
    const fields = formOf(spec);
    const form = fields && new URLSearchParams([...fields].map(([k, v]) => [k, swap(v) as string]));
    return {
      ...spec,
      ...(form ? { rawBody: form.toString() } : {}),
      ...(spec.pathParams ? { pathParams: swap(spec.pathParams) as Record<string, unknown> } : {}),
      ...(spec.query ? { query: swap(spec.query) as RequestSpec["query"] } : {}),
      ...(spec.json !== undefined ? { json: swap(spec.json) } : {}),
    };
  }

  /** Logs in the accounts the settings give (the first and the second); a failure is a LoginError (exit 2). */
  async logInAll(): Promise<string[]> {
    const notes: string[] = [];
    for (const [account, login] of [
      ["valid", this.settings.logins.first],
      ["second", this.settings.logins.second],
    ] as const) {
      if (!login) continue;
      this.#logins.set(account, login);
      const plan = loginPlan(this.model, this.settings, login);
      await this.#logIn(account, login, plan);
      notes.push(
        `logged in as ${account === "valid" ? "$CONTRACT_USERNAME" : "$CONTRACT_SECOND_USERNAME"} ${describe(plan)}`,
      );
    }
    return notes;
  }

  async #logIn(account: Account, login: Login, plan: LoginPlan): Promise<void> {
    if (plan.kind === "basic") {
      const secret = secretFrom(plan, login, undefined);
      this.target.credentials.set(account, secret, "$CONTRACT_USERNAME:$CONTRACT_PASSWORD");
      return;
    }
    const place = tokenPlace(plan, this.settings.tokenPointer);
    const { exchange, secret } = await this.target.sendForSecret(
      loginRequest(this.model, this.settings, plan, login),
      (json) => tokenIn(json, place),
    );
    this.target.credentials.set(account, secretFrom(plan, login, exchange, secret), shownAs(account));
  }

  async #renew(account: Account): Promise<boolean> {
    const login = this.#logins.get(account);
    if (!login) return false;
    try {
      await this.#logIn(account, login, loginPlan(this.model, this.settings, login));
      return true;
    } catch (err) {
      if (!(err instanceof LoginError)) throw err;
      // An account the user gave that no longer logs in: the run has lost it (a throwaway one is the run's own).
      if (account === "valid" || account === "second") this.target.credentials.lose(account, err.message);
      return false;
    }
  }

  /**
   * The throwaway account `n` (1 acts for the first account, 2 for the second), registered and logged in on first
   * use; or why there can be none (no register operation, or it refused).
   */
  throwaway(ctx: ScenarioContext, n: 1 | 2): Promise<Account | SkipReason> {
    let pending = this.#current.get(n);
    if (!pending) {
      pending = this.#registerOne(ctx, ++this.#registered, n === 2 && this.registersSecond);
      this.#current.set(n, pending);
    }
    return pending;
  }

  /** A throwaway account a successful delete ended: its stand-in role goes to a new one, and its token must die. */
  retired(account: Account): void {
    const t = this.throwaways.find((x) => x.account === account);
    if (!t?.alive) return;
    t.alive = false;
    for (const [n, pending] of this.#current)
      void pending.then((a) => {
        if (a === account) this.#current.delete(n);
      });
  }

  async #registerOne(ctx: ScenarioContext, n: number, second = false): Promise<Account | SkipReason> {
    const register = this.#register;
    if (!register)
      return reason(
        "not-applicable",
        "it changes an account, which the suite does only as a throwaway account it registers, and the document " +
          "has no operation that registers one (an open POST taking a user name and a password)",
      );
    const op = this.model.operation(register.operationId);
    const base = baseValues(this.model, this.settings, op);
    if (isSkip(base)) return base;
    const tag = `${(this.settings.seed % 1_000_000).toString(36)}${Date.now().toString(36).slice(-5)}${n}`;
    if (n > 8) return reason("not-applicable", "the run has ended eight throwaway accounts already");
    const username = this.#valid(op, register.userPath, [`cs${tag}`, `contract.suite.${tag}@example.com`, `cs_${tag}`]);
    const password = this.#valid(op, register.passwordPath, [`Cs-${tag}-Pw9!`, `cs${tag}pw9`, tag]);
    if (username === undefined || password === undefined)
      return reason("not-applicable", `no user name or password the register ${op.operationId} accepts could be built`);
    const account: Account = `account-${n}`;
    // The password is the suite's own test data (not a secret of the user's): its token is what gets scrubbed.
    const body = isMapping(base.body?.value) ? base.body.value : {};
    // Its other members a server may keep unique (an e-mail) fresh too: the document's example is taken already.
    base.body = { value: withCredentials(freshUnique(ctx, op, body, true), register, username, password) };
    const registered = await ctx.send(
      { ...toRequest(op, base), key: "none" },
      {
        cause: second
          ? `registering the throwaway account ${n}, the run's second account (none was given)`
          : `registering the throwaway account ${n}`,
      },
    );
    if (registered.response.status < 200 || registered.response.status >= 300)
      return reason(
        "step-failed",
        `registering a throwaway account: ${op.operationId} answered ${registered.response.status}`,
      );
    const login: Login = { username, password };
    this.#logins.set(account, login);
    try {
      const plan = loginPlan(this.model, this.settings, login);
      // A register that answers a token logs in by itself.
      await this.#logIn(account, login, plan);
    } catch (err) {
      if (!(err instanceof LoginError)) throw err;
      return reason("step-failed", `logging in as the throwaway account it registered failed: ${err.message}`);
    }
    const made = ctx.state.resources.created.find((r) => r.created === registered);
    if (made) made.owner = account;
    this.throwaways.push({ account, username, password, registered, alive: true, registeredAs: username });
    if (second)
      ctx.verdict.notes.push(
        `no second account was given (CONTRACT_SECOND_USERNAME and CONTRACT_SECOND_PASSWORD, or ` +
          `CONTRACT_SECOND_API_KEY): the run registered ${account} through ${op.operationId} to act as its second ` +
          "account (isolation and authorization phases), and deletes it at the end where the document lets it",
      );
    return account;
  }

  /**
   * A throwaway account changed its own password or user name (a request as that account, to its own account,
   * answered 2xx with a password, or the register's user name member, in its body): the run logs in with the new
   * ones from now on.
   */
  wrote(account: Account, ex: Exchange): void {
    const t = this.throwaways.find((x) => x.account === account);
    const body = ex.request.json;
    if (!t || !isMapping(body) || ex.response.status < 200 || ex.response.status >= 300) return;
    if (ex.operation === this.#register?.operationId || ex.operation === this.#login?.operationId) return;
    // Only a request addressed to the account itself (its path names it, or names no account at all).
    if (!this.#addresses(ex, t.username)) return;
    const password = passwordIn(body);
    // The user name where the register takes it (inside its envelope), else by the same name at the top.
    const path = this.#register?.userPath ?? [];
    const user = path.length ? (valuesAt(body, path)[0] ?? body[path[path.length - 1]!]) : undefined;
    if (typeof password === "string" && password !== t.password) t.password = password;
    if (typeof user === "string" && user !== "" && user !== t.username) t.username = user;
    this.#logins.set(account, { username: t.username, password: t.password });
  }

  /** True when the request names the user `username` in its path, or names no account in it. */
  #addresses(ex: Exchange, username: string): boolean {
    const names = Object.values(ex.request.pathParams ?? {}).map(String);
    return names.length === 0 || names.includes(username);
  }

  /**
   * Acts as an account another request of the run registered (its user name and password are in that request):
   * logged in, it may delete itself. Undefined when its credentials are not known or it cannot log in.
   */
  async adopt(registered: Exchange): Promise<Account | undefined> {
    const register = this.#register;
    const body = registered.request.json;
    if (!register || !isMapping(body)) return undefined;
    const [username] = valuesAt(body, register.userPath);
    const [password] = valuesAt(body, register.passwordPath);
    if (typeof username !== "string" || typeof password !== "string") return undefined;
    const known = this.throwaways.find((t) => t.username === username);
    if (known) return known.account;
    const account: Account = `account-${++this.#registered}`;
    const login: Login = { username, password };
    try {
      await this.#logIn(account, login, loginPlan(this.model, this.settings, login));
    } catch (err) {
      if (err instanceof LoginError) return undefined;
      throw err;
    }
    this.#logins.set(account, login);
    this.throwaways.push({ account, username, password, registered, alive: true, registeredAs: username });
    return account;
  }

  /** The first of `candidates` (else a generated text) that the register's body schema accepts for `member`. */
  #valid(op: OperationEntry, path: readonly string[], candidates: string[]): string | undefined {
    const pointer = op.requestBody?.content.find((m) => m.schemaPointer)?.schemaPointer;
    const member = pointer ? memberAt(this.model, pointer, path) : undefined;
    if (!member) return candidates[0];
    const text = (v: unknown): v is string => typeof v === "string";
    const value = firstValidMember(this.model, member, candidates, { count: 5, seed: this.settings.seed }, text);
    return text(value) ? value : undefined;
  }
}

/** Methods that change nothing. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** A form body's fields (application/x-www-form-urlencoded), or undefined for any other body. */
const formOf = (spec: RequestSpec): URLSearchParams | undefined =>
  spec.rawBody !== undefined && /^application\/x-www-form-urlencoded\b/i.test(spec.contentType ?? "")
    ? new URLSearchParams(spec.rawBody)
    : undefined;

/** Every string in a JSON value, at any depth (iterative: a hostile body may nest deep). */
function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (isMapping(v)) stack.push(...Object.values(v));
  }
  return out;
}

/** The password a body sets, at the top or inside an envelope (`{"user": {"password": ...}}`), or undefined. */
function passwordIn(body: unknown, depth = 0): unknown {
  if (!isMapping(body) || Array.isArray(body) || depth > 3) return undefined;
  const name = Object.keys(body).find((k) => PASSWORD_NAMES.test(k));
  if (name) return body[name];
  for (const v of Object.values(body)) {
    const found = passwordIn(v, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** How an account logged in, for the report's notes (no secret in it). */
function describe(plan: LoginPlan): string {
  if (plan.kind === "basic") return "with http basic";
  if (plan.kind === "operation") return `through ${plan.login.operationId}`;
  return `through the OAuth2 ${plan.grant === "password" ? "password" : "client-credentials"} flow (${plan.url})`;
}
