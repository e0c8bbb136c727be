/**
 * Logging in as real APIs have it: with a user name and password (CONTRACT_USERNAME, CONTRACT_PASSWORD) through
 * the document's login operation, or its OAuth2 password flow; as an OAuth2 client through the client-credentials
 * flow's token URL; or, for an http basic scheme, the name and password themselves. The token is read from the
 * answer (a JSON pointer, or the member named like a token) and sent as the document's security scheme says.
 * Credentials and tokens go to the run's scrubber before any request is sent with them.
 */
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { REDACTED } from "../../wire/redact.js";
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { Login, Settings } from "../config/settings.js";
import { loginOperation, TOKEN_NAMES, type LoginOperation, withCredentials } from "../model/accounts.js";
import type { SpecModel } from "../model/model.js";
import type { Exchange } from "../model/types.js";
import type { RequestSpec } from "../transport/target.js";
import { toRequest } from "./requests.js";
import { baseValues } from "./values.js";
import { isSkip, skipText } from "../model/skip.js";

/** How the suite gets a credential for an account: what it sends, and where the token is in the answer. */
export type LoginPlan =
  | { kind: "basic" }
  | { kind: "operation"; login: LoginOperation }
  | { kind: "token-url"; grant: "password" | "client_credentials"; url: string };

/** Why logging in cannot work as the settings and the document say (an invalid setting: exit 2). */
export class LoginError extends Error {
  override name = "LoginError";
}

/** The security schemes the document's operations use, each once. */
function schemes(model: SpecModel) {
  const seen = new Map<string, OperationEntry["security"][number][number]>();
  for (const op of model.operations) for (const alt of op.security) for (const s of alt) seen.set(s.scheme, s);
  return [...seen.values()];
}

/** How to log in as `login` against this document (undefined: nothing to log in with). */
export function loginPlan(model: SpecModel, settings: Pick<Settings, "loginOperation">, login: Login): LoginPlan {
  const all = schemes(model);
  if ("clientId" in login) {
    const url = all.find((s) => s.tokenUrls?.clientCredentials)?.tokenUrls?.clientCredentials;
    if (!url)
      throw new LoginError(
        "CONTRACT_CLIENT_ID is set, but the document has no OAuth2 scheme with a clientCredentials flow (tokenUrl)",
      );
    return { kind: "token-url", grant: "client_credentials", url };
  }
  // A basic scheme takes the name and password themselves; an operation that logs in is preferred otherwise.
  if (all.length > 0 && all.every((s) => s.type === "http" && s.httpScheme === "basic")) return { kind: "basic" };
  const op = loginOperation(model, settings.loginOperation);
  if (op && "problem" in op) throw new LoginError(op.problem);
  if (op) return { kind: "operation", login: op };
  const url = all.find((s) => s.tokenUrls?.password)?.tokenUrls?.password;
  if (url) return { kind: "token-url", grant: "password", url };
  if (all.some((s) => s.type === "http" && s.httpScheme === "basic")) return { kind: "basic" };
  throw new LoginError(
    "the document has no login operation the suite can find for a user name and password (an open POST taking " +
      "them, whose answer holds a token: name it with --login-operation) and no OAuth2 password flow",
  );
}

/** A token URL as a path under the base URL (the suite sends only there), or an absolute URL as written. */
function tokenPath(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return new URL(url).pathname;
  return url.startsWith("/") ? url : `/${url}`;
}

/** The request that logs in as `login` (its body carries the password: the scrubber knows it already). */
export function loginRequest(model: SpecModel, settings: Settings, plan: LoginPlan, login: Login): RequestSpec {
  if (plan.kind === "token-url") {
    const form = new URLSearchParams(
      "clientId" in login
        ? { grant_type: "client_credentials" }
        : { grant_type: "password", username: login.username, password: login.password },
    );
    const basic: Record<string, string> =
      "clientId" in login
        ? { authorization: `Basic ${Buffer.from(`${login.clientId}:${login.clientSecret}`).toString("base64")}` }
        : {};
    return {
      operation: "(login)",
      method: "POST",
      path: tokenPath(plan.url),
      rawBody: form.toString(),
      contentType: "application/x-www-form-urlencoded",
      key: "none",
      headers: { accept: "application/json", ...basic },
    };
  }
  if (plan.kind !== "operation" || "clientId" in login) throw new LoginError("no login request for this account");
  const op = model.operation(plan.login.operationId);
  const base = baseValues(model, settings, op);
  if (isSkip(base)) throw new LoginError(`the login ${op.operationId} cannot be sent: ${skipText(base)}`);
  const body = isMapping(base.body?.value) ? base.body.value : {};
  base.body = { value: withCredentials(body, plan.login, login.username, login.password) };
  return { ...toRequest(op, base), key: "none" };
}

/**
 * The token in a login's answer: at the pointer given or found, else named like a token, else a bare string. Read
 * from the answer as it arrived (the target's sendForSecret), never from a recorded exchange: that is scrubbed, and
 * a token the run already holds (a login within the same second may answer the same one) is `***` there.
 */
export function tokenIn(json: unknown, pointer: string | undefined): string | undefined {
  if (pointer !== undefined) {
    const v = resolvePointer(json, pointer);
    return typeof v === "string" && v !== "" ? v : undefined;
  }
  if (typeof json === "string" && json !== "") return json;
  const search = (o: unknown, depth: number): string | undefined => {
    if (!isMapping(o)) return undefined;
    for (const name of TOKEN_NAMES) if (typeof o[name] === "string" && o[name] !== "") return o[name] as string;
    if (depth > 0) return undefined;
    for (const v of Object.values(o)) {
      const found = search(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return search(json, 0);
}

/** Where a login plan's answer holds the token (`pointer`: the setting, when given). */
export function tokenPlace(plan: LoginPlan, pointer?: string): string | undefined {
  return (
    pointer ?? (plan.kind === "operation" ? plan.login.token : plan.kind === "token-url" ? "/access_token" : undefined)
  );
}

/**
 * The secret an account's requests carry: the name and password, for basic; else the token `found` in the login's
 * answer `ex` (tokenIn, on the answer as it arrived). A LoginError when the login failed or its answer holds none.
 */
export function secretFrom(plan: LoginPlan, login: Login, ex: Exchange | undefined, found?: string): string {
  if (plan.kind === "basic")
    return "clientId" in login ? `${login.clientId}:${login.clientSecret}` : `${login.username}:${login.password}`;
  const status = ex?.response.status ?? 0;
  const where = plan.kind === "operation" ? plan.login.operationId : plan.url;
  if (!ex || status < 200 || status >= 300)
    throw new LoginError(
      `logging in through ${where} failed: ` +
        `${status === 0 ? (ex?.response.transportError ?? "no answer") : `status ${status}`}` +
        (ex?.response.bodyText ? ` (${ex.response.bodyText.slice(0, 160)})` : ""),
    );
  if (!found)
    throw new LoginError(
      `the answer of ${where} holds no token the suite can find (set --token-pointer to where it is)`,
    );
  // A token is never the reports' mask (a defence: the token is read before any scrubbing).
  if (found.includes(REDACTED))
    throw new LoginError(`the answer of ${where} holds a token with ${REDACTED} in it, which the suite cannot send`);
  return found;
}
