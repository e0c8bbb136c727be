/**
 * The credentials a run sends, by account: the first account's (CONTRACT_API_KEY, or the token a login got), the
 * second's, and throwaway accounts the run registered itself; the forged ones the auth phase derives from the first
 * (a JWT with its signature altered, one with `alg: none`). Every secret, and each form the suite puts it on the
 * wire in, is added to the run's scrubber before any request carries it, so no report, log line or error holds one.
 * A token that worked and is then refused (it expired) is renewed once by logging in again, never in a loop; when
 * that fails for an account the user gave, the run has lost it: the request that found out says so once
 * (credentials_lost), and every later request as that account ends its scenario (`CredentialsLost`).
 */
import type { Scrubber } from "../../wire/redact.js";
import { createScrubberOf } from "./scrubber.js";
import type { Login, Settings } from "../config/settings.js";
import { encodedForms } from "../model/wire.js";
import { SkipScenario } from "./gate.js";

/** A request as an account the run lost (see Credentials.lose): its scenario stops, the run is incomplete. */
export class CredentialsLost extends SkipScenario {
  override name = "CredentialsLost";
}

/** An account the run acts as: its own (`valid`), the second, or a throwaway one it registered (`account-1`). */
export type Account = "valid" | "second" | `account-${number}`;

/** A probe's credential derived from the first account's token (auth phase): never a real account's. */
export type Forged = "forged-signature" | "alg-none";

/** A scrubber that learns secrets as the run gets them (the tokens its logins get). */
export class RunScrubber implements Scrubber {
  #forms: string[] = [];
  #known = new Set<string>();
  /** The patterns of the secrets learnt so far, kept across the scrubbers built as the run learns more. */
  readonly #patterns = new Map<string, RegExp>();
  #scrubber: Scrubber = createScrubberOf([]);

  constructor(secrets: Iterable<string | undefined>) {
    for (const s of secrets) this.add(s);
  }

  /** Scrubs `secret` from now on, in every form the suite may send it in (base64 for basic credentials too). */
  add(secret: string | undefined): void {
    if (!secret || this.#known.has(secret)) return;
    this.#known.add(secret);
    this.#forms.push(secret, ...encodedForms(secret));
    this.#scrubber = createScrubberOf(this.#forms, this.#patterns);
  }

  mayContain = (t: string): boolean => this.#scrubber.mayContain(t);
  text = (t: string): string => this.#scrubber.text(t);
  /**
   * A scrubbed copy of `v` (never `v` itself changed: a request the run is still to send may share its objects with
   * an exchange being recorded, and a scrub in place would put the mask on the wire).
   */
  value = <T>(v: T): T =>
    this.#scrubber.mayContain(JSON.stringify(v) ?? "") ? this.#scrubber.value(structuredClone(v)) : v;
}

/** The secrets of the settings: keys, passwords and client secrets (user names and client ids are identifiers). */
export function settingsSecrets(
  settings: Pick<Settings, "apiKey" | "secondApiKey"> & Partial<Pick<Settings, "logins">>,
): string[] {
  const of = (l: Login | undefined) => (!l ? [] : "password" in l ? [l.password] : [l.clientSecret]);
  return [
    settings.apiKey,
    settings.secondApiKey ?? "",
    ...of(settings.logins?.first),
    ...of(settings.logins?.second),
  ].filter(Boolean);
}

/** What the report shows for an account's credential: the variable a shell would hold it in. */
const VARIABLES: Record<string, string> = {
  valid: "$CONTRACT_API_KEY",
  second: "$CONTRACT_SECOND_API_KEY",
};

/** The variable that names an account the user gave (its user name), or the account itself. */
export const loginVariable = (account: Account): string =>
  account === "valid" ? "$CONTRACT_USERNAME" : account === "second" ? "$CONTRACT_SECOND_USERNAME" : account;

/** The header and payload of a JWT, or undefined when `token` is none. */
function jwtParts(token: string): { header: Record<string, unknown>; payload: string; signature: string } | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8")) as unknown;
    if (typeof header !== "object" || header === null || typeof (header as { alg?: unknown }).alg !== "string")
      return undefined;
    return { header: header as Record<string, unknown>, payload: parts[1]!, signature: parts[2]! };
  } catch {
    return undefined;
  }
}

/** The credentials of a run. */
export class Credentials {
  readonly #secrets = new Map<string, string>();
  readonly #shown = new Map<string, string>();
  /** Accounts whose current credential got an answer other than 401: a later 401 means it expired. */
  readonly #worked = new Set<string>();
  readonly #renewals = new Map<string, number>();
  /** The renewal running now, per account (requests refused meanwhile wait for it). */
  readonly #renewing = new Map<string, Promise<boolean>>();
  /** Logs an account in again (set by the engine when it logged the account in); true when it got a new token. */
  renew: ((account: Account) => Promise<boolean>) | undefined;
  /** Accounts the user gave that the run lost (their credential refused, logging in again failed): why. */
  readonly #lost = new Map<Account, { why: string; told: boolean }>();

  constructor(
    settings: Pick<Settings, "apiKey" | "secondApiKey">,
    readonly scrubber: RunScrubber,
  ) {
    if (settings.apiKey) this.#secrets.set("valid", settings.apiKey);
    if (settings.secondApiKey) this.#secrets.set("second", settings.secondApiKey);
  }

  /** Sets an account's credential (a token a login got), shown in reports as `shownAs`; scrubbed from now on. */
  set(account: Account, secret: string, shownAs: string): void {
    this.scrubber.add(secret);
    this.#secrets.set(account, secret);
    this.#shown.set(account, shownAs);
    this.#worked.delete(account);
  }

  /** True when the run has a credential for `account`. */
  has(account: Account): boolean {
    return this.#secrets.has(account);
  }

  /** The credential `mode` sends and what reports show for it, or undefined when it has none. */
  of(mode: Account | Forged): { secret: string; variable: string } | undefined {
    if (mode === "forged-signature" || mode === "alg-none") {
      const forged = this.forged(mode);
      return forged
        ? { secret: forged, variable: `$CONTRACT_TOKEN_${mode.toUpperCase().replace("-", "_")}` }
        : undefined;
    }
    const secret = this.#secrets.get(mode);
    if (secret === undefined) return undefined;
    return {
      secret,
      variable: this.#shown.get(mode) ?? VARIABLES[mode] ?? `$CONTRACT_${mode.toUpperCase().replace("-", "_")}_TOKEN`,
    };
  }

  /**
   * The first account's token forged (a JWT only): its signature altered, or its header saying `alg: none` and its
   * signature dropped. Scrubbed like the token (its payload is the account's).
   */
  forged(mode: Forged): string | undefined {
    const token = this.#secrets.get("valid");
    const jwt = token ? jwtParts(token) : undefined;
    if (!jwt) return undefined;
    const out =
      mode === "alg-none"
        ? `${Buffer.from(JSON.stringify({ ...jwt.header, alg: "none" })).toString("base64url")}.${jwt.payload}.`
        : `${token!.slice(0, token!.lastIndexOf(".") + 1)}${[...jwt.signature].reverse().join("") || "AAAA"}`;
    this.scrubber.add(out);
    return out;
  }

  /** The run lost `account` (an account the user gave): logging in again after its credential was refused failed. */
  lose(account: Account, why: string): void {
    if (!this.#lost.has(account)) this.#lost.set(account, { why, told: false });
  }

  /** True when the run lost `account`. */
  isLost(account: Account): boolean {
    return this.#lost.has(account);
  }

  /**
   * Why the run lost `account`, if it did, and whether the caller is the first to be told (it reports the loss:
   * once per account).
   */
  lost(account: Account): { why: string; first: boolean } | undefined {
    const l = this.#lost.get(account);
    if (!l) return undefined;
    const first = !l.told;
    l.told = true;
    return { why: l.why, first };
  }

  /** The sentence every request as a lost account ends its scenario with (the same for all: one reason). */
  lostText(account: Account): string {
    return (
      `skipped: the run lost the account ${loginVariable(account)}: its credential stopped working and logging in ` +
      "again failed (credentials_lost)"
    );
  }

  /** Notes how a request with `account`'s credential was answered: a 401 after it worked may mean it expired. */
  answered(account: Account, status: number): void {
    if (status !== 401 && status !== 0) this.#worked.add(account);
  }

  /**
   * Renews `account`'s credential when it worked and is now refused (401): once per working credential (a renewed
   * one refused before it worked is a real refusal: no loop), at most fifty times a run per account. True when a new
   * one was got (the request may be sent again with it). With several requests in flight, a request that `carried`
   * a credential renewed meanwhile is sent again with the new one, and one refused while a renewal runs waits for it.
   */
  async renewAfterRefusal(account: Account, carried?: string): Promise<boolean> {
    if (!this.renew) return false;
    if (carried !== undefined && this.#secrets.get(account) !== carried) return true;
    const running = this.#renewing.get(account);
    if (running) return running;
    if (!this.#worked.has(account)) return false;
    const n = this.#renewals.get(account) ?? 0;
    if (n >= 50) return false;
    this.#renewals.set(account, n + 1);
    this.#worked.delete(account);
    const renewal = this.renew(account).finally(() => this.#renewing.delete(account));
    this.#renewing.set(account, renewal);
    return renewal;
  }
}
