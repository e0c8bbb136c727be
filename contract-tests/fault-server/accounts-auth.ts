/**
 * How the accounts server signs in: tokens issued by the login operation or the OAuth2 token endpoint
 * (RFC 6749 4.3 password and 4.4 client-credentials grants), and read back from the place the document's
 * flavour names (a bearer Authorization header, or the X-Auth-Token header).
 */
import type { IncomingHttpHeaders } from "node:http";
import { type AccountsAuth, API_KEY_HEADER } from "./accounts-components.js";
import { ACCOUNTS, type Call, type Caller, isObject, OAUTH_CLIENTS, type Reply, type User } from "./accounts-store.js";
import { randomId, signJwt, verifyJwt } from "./accounts-tokens.js";

/** `lenient-login-revoked`: the first account's authenticated request that finds it revoked. */
const REVOKED_AT = 25;

/** A conforming token's lifetime. */
const TOKEN_SECONDS = 3600;

/** A new token for `user`, and its lifetime in seconds (`lenient-token-expiry`: the server's short one). */
export function issueToken(call: Call, user: User): { token: string; seconds: number } {
  const seconds = call.faults.has("lenient-token-expiry") ? call.settings.tokenTtlMs / 1000 : TOKEN_SECONDS;
  // `lenient-second-tokens`: as many servers do (python-jose's `{sub, exp}`), a token is a function of the account
  // and the second it is issued in: two logins within a second get the same token.
  const second = call.faults.has("lenient-second-tokens");
  const iat = second ? Math.floor(Date.now() / 1000) : Date.now() / 1000;
  const claims = {
    sub: user.username,
    iat,
    exp: call.faults.has("lenient-token-expiry") ? iat + seconds : Math.floor(iat) + seconds,
    jti: second ? `${user.username}-${iat}` : randomId(),
  };
  return { token: signJwt(call.store.secret, claims), seconds };
}

/** The token a request carries where the document's flavour says it goes, if any. */
function presented(headers: IncomingHttpHeaders, auth: AccountsAuth): string | undefined {
  if (auth === "apikey-login") {
    const value = headers[API_KEY_HEADER.toLowerCase()];
    return typeof value === "string" && value !== "" ? value : undefined;
  }
  // token-login: `Authorization: Token <token>`, as its scheme's description writes it (a bare token is refused).
  const match = (auth === "token-login" ? /^Token +(\S+) *$/ : /^Bearer +(\S+) *$/i).exec(headers.authorization ?? "");
  return match?.[1];
}

/** Why a request is not authenticated: 401, or 500 for a planted fault. */
export interface Unauthenticated {
  status: 401 | 500;
  message: string;
  /** The request presented no token at all. */
  missing?: true;
}

/** The caller of a request to an operation with security, or why not. */
export function authenticate(call: Call): Caller | Unauthenticated {
  const { store, faults, settings } = call;
  const fail = (status: 401 | 500, message: string) => ({ status, message });
  const token = presented(call.headers, call.auth);
  if (token === undefined) return { ...fail(401, "A valid token is missing."), missing: true };
  // A client that sends a report's mask (`***`) instead of its token: counted (none may come), and refused.
  if (token.includes("***")) {
    store.masked++;
    return fail(401, "Invalid token: the token is masked.");
  }
  const claims = verifyJwt(store.secret, token, {
    signatureIgnored: faults.has("jwt-signature-ignored"),
    algNone: faults.has("jwt-alg-none"),
  });
  if ("refused" in claims) return fail(401, `Invalid token: ${claims.refused}.`);
  if (faults.has("lenient-token-expiry")) {
    const uses = (store.uses.get(claims.jti) ?? 0) + 1;
    store.uses.set(claims.jti, uses);
    if (uses > settings.tokenUses) return fail(401, "Invalid token: the token has expired.");
  }
  const user = store.users.get(store.renamed.get(claims.sub) ?? claims.sub);
  // `lenient-login-revoked`: at the first account's 25th authenticated request, someone else changes its password
  // and ends its sessions (an administrator, a password reset): that request and every later one are refused.
  if (faults.has("lenient-login-revoked") && user?.username === ACCOUNTS.first.username) {
    store.firstUses++;
    if (store.firstUses === REVOKED_AT) {
      user.password = "changed-by-an-administrator-1";
      user.since = Date.now() + 1;
    }
  }
  if (faults.has("deleted-account-token") && !user) return { username: claims.sub, admin: false };
  if (faults.has("deleted-account-token-500") && !user)
    return fail(500, "TypeError: Cannot read properties of undefined (reading 'admin')");
  if (!user || Math.round(claims.iat * 1000) < user.since)
    return fail(401, "Invalid token: its account no longer exists.");
  return { username: user.username, admin: user.admin };
}

const tokenError = (status: number, error: string, description: string): Reply => ({
  status,
  body: { error, error_description: description },
  headers: { "cache-control": "no-store", ...(status === 401 ? { "www-authenticate": 'Basic realm="oauth"' } : {}) },
});

/** A Basic credential's part, form-decoded as RFC 6749 2.3.1 writes it (a malformed escape is kept as it is). */
const unform = (part: string) => {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
};

/** The client a token request authenticates as (HTTP Basic, else the form's client_id and client_secret). */
function client(call: Call, form: Record<string, string>) {
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(call.headers.authorization ?? "");
  let [id, secret] = [form.client_id, form.client_secret];
  if (basic) {
    const text = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = text.indexOf(":");
    [id, secret] = colon < 0 ? [unform(text), ""] : [unform(text.slice(0, colon)), unform(text.slice(colon + 1))];
  }
  return Object.values(OAUTH_CLIENTS).find((c) => c.client_id === id && c.client_secret === secret);
}

/** POST /oauth/token: the password and client-credentials grants, answered as RFC 6749 5.1 and 5.2 say. */
export function tokenEndpoint(call: Call): Reply {
  const form = isObject(call.body) ? (call.body as Record<string, string>) : undefined;
  if (!form) return tokenError(400, "invalid_request", "The body must be application/x-www-form-urlencoded.");
  let user: User | undefined;
  if (form.grant_type === "password") {
    if (form.username === undefined || form.password === undefined)
      return tokenError(400, "invalid_request", "username and password are required.");
    user = call.store.users.get(form.username);
    if (!user || user.password !== form.password)
      return tokenError(400, "invalid_grant", "The username or password is not correct.");
  } else if (form.grant_type === "client_credentials") {
    const found = client(call, form);
    if (!found) return tokenError(401, "invalid_client", "The client is not known or its secret is not correct.");
    user = call.store.users.get(found.username);
    if (!user) return tokenError(400, "invalid_grant", "The client's account no longer exists.");
  } else {
    return tokenError(400, "unsupported_grant_type", "grant_type must be password or client_credentials.");
  }
  const { token, seconds } = issueToken(call, user);
  return {
    status: 200,
    body: { access_token: token, token_type: "bearer", expires_in: Math.max(1, Math.floor(seconds)) },
    headers: { "cache-control": "no-store", pragma: "no-cache" },
  };
}
