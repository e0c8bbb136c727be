/**
 * The document's accounts, as real APIs have them: how to log in (an operation that takes a user name and a
 * password and answers a token, or an OAuth2 scheme's token URL), how to register an account, and which
 * operations change an account (a password, an e-mail, the account itself). Read from names and schemas, as
 * links are inferred; the settings name the login operation and the token's place where inference cannot.
 */
import { isJsonMedia, type OperationEntry } from "../../openapi/lib/operations.js";
import { toPointer } from "../../openapi/lib/spec.js";
import type { LinkDocument } from "./link-document.js";
import type { SpecModel } from "./model.js";
import { type BodyMember, bodyMembers, setAt, typesOfMember } from "./members.js";
import { authPlan } from "./wire.js";

/** Members that name the user, in the order they are preferred. */
const USER_NAMES = /^(user_?name|username|user|login|login_?name|e_?mail|mail|email_?address|account|name)$/i;
/** Members that carry a password (a new one too). */
export const PASSWORD_NAMES =
  /^(password|passwd|pass|pwd|passphrase|secret|user_?password|new_?password|newPassword|current_?password)$/i;
/** Members that carry a token in a login's answer, most specific first. */
export const TOKEN_NAMES = [
  "access_token",
  "accessToken",
  "auth_token",
  "authToken",
  "id_token",
  "idToken",
  "session_token",
  "sessionToken",
  "jwt",
  "token",
  "api_key",
  "apiKey",
  "key",
];
/** What a login's operation id or path says. */
const LOGIN_WORDS = /log-?in|sign-?in|signin|token|authenticate|session/i;
/** What a register's operation id or path says. */
const REGISTER_WORDS = /register|sign-?up|signup|create_?user|createuser|create_?account|add_?user/i;
/** Paths that name the caller's own account (no identifier needed: the credential says whose). */
const OWN_ACCOUNT_PATH = /(^|\/)(me|self|account|profile|user)(\/|$)/i;
/** What a request that changes or ends the caller's account or session says in its id or path. */
const ENDS_SESSION = /password|log-?out|log_out|sign-?out|sign_out|deactivate/i;

/** The path of the resource a path parameter names (`/users/{username}`), as links.ts's familyOf reads it. */
const familyIn = (path: string, param: string): string | undefined => {
  const at = path.indexOf(`/{${param}}`);
  return at < 0 ? undefined : path.slice(0, at + param.length + 3);
};

/** How the suite logs in through an operation of the document. */
export interface LoginOperation {
  operationId: string;
  /** The body members that take the user name and the password, as a report shows them (`user.email`). */
  user: string;
  password: string;
  /** Their paths in the body, at any depth (`["user", "email"]` inside an envelope). */
  userPath: readonly string[];
  passwordPath: readonly string[];
  /** JSON pointer of the token in the 2xx answer; undefined: found in the answer by its name. */
  token?: string;
}

/** The members of an operation's body (JSON or a form) at any depth, outside arrays; none without a schema. */
function credentialCandidates(model: SpecModel, op: OperationEntry): BodyMember[] {
  const media = op.requestBody?.content.find((m) => m.schemaPointer);
  if (!media?.schemaPointer) return [];
  return bodyMembers(model, media.schemaPointer).filter(
    (m) => !m.inArray && !m.schema?.properties && typesOfMember(model, m).every((t) => t === "string"),
  );
}

/**
 * The user and password members of an operation's body, when it takes both: at the top or inside an envelope
 * (`{"user": {"email": ..., "password": ...}}`), the user name beside the password (in the same object) preferred.
 */
function credentialMembers(
  model: SpecModel,
  op: OperationEntry,
): Pick<LoginOperation, "user" | "password" | "userPath" | "passwordPath"> | undefined {
  const members = credentialCandidates(model, op);
  const password = members.find((m) => PASSWORD_NAMES.test(m.name));
  if (!password) return undefined;
  const parent = (m: BodyMember) => m.path.slice(0, -1).join("\u0000");
  const users = members.filter((m) => USER_NAMES.test(m.name) && m !== password);
  // Beside the password first, then the most specific name (username before e-mail before name), then the shallowest.
  const user = users.sort(
    (a, b) =>
      Number(parent(a) !== parent(password)) - Number(parent(b) !== parent(password)) ||
      rank(a.name) - rank(b.name) ||
      a.path.length - b.path.length,
  )[0];
  return user
    ? { user: user.shown, password: password.shown, userPath: user.path, passwordPath: password.path }
    : undefined;
}

const rank = (name: string) => (/user|login/i.test(name) ? 0 : /mail/i.test(name) ? 1 : 2);

/** `body` with a user name and a password in the members a login or a register takes them in (at any depth). */
export function withCredentials(
  body: unknown,
  members: Pick<LoginOperation, "userPath" | "passwordPath">,
  username: string,
  password: string,
): unknown {
  return setAt(setAt(body, members.userPath, username), members.passwordPath, password);
}

/** An operation anyone may call: no security, or an empty alternative. */
const open = (op: OperationEntry) => {
  const plan = authPlan(op);
  return plan.kind === "none" || (plan.kind === "placed" && plan.optional);
};

/** Where a 2xx JSON answer of `op` holds a token-like string member (at the top or one object down). */
export function tokenPointer(model: Pick<LinkDocument, "deref">, op: OperationEntry): string | undefined {
  for (const r of op.responses.filter((x) => /^2/.test(x.status))) {
    const media = r.content.find((m) => isJsonMedia(m.mediaType) && m.schemaPointer);
    if (!media?.schemaPointer) continue;
    const { schema } = model.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer);
    const found = tokenIn(model, schema, []);
    if (found) return found;
  }
  return undefined;
}

function tokenIn(model: Pick<LinkDocument, "deref">, schema: any, at: string[]): string | undefined {
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  for (const name of TOKEN_NAMES)
    if (Object.hasOwn(props, name)) {
      const { schema: s } = model.deref(props[name], "");
      if (s?.type === undefined || [s.type].flat().includes("string")) return toPointer([...at, name]);
    }
  if (at.length > 0) return undefined;
  for (const [name, raw] of Object.entries(props)) {
    const { schema: inner } = model.deref(raw, "");
    if (inner?.properties) {
      const found = tokenIn(model, inner, [name]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The login operation: `named` when the settings name one, else the open POST whose body takes a user name and a
 * password and whose 2xx answer holds a token (or whose id or path says it logs in).
 */
export function loginOperation(model: SpecModel, named?: string): LoginOperation | { problem: string } | undefined {
  const candidates = named
    ? model.has(named)
      ? [model.operation(named)]
      : []
    : model.operations.filter((op) => op.method === "POST" && open(op));
  if (named && candidates.length === 0)
    return { problem: `the document has no operation ${JSON.stringify(named)} (--login-operation)` };
  const scored = candidates
    .map((op) => ({ op, members: credentialMembers(model, op), token: tokenPointer(model, op) }))
    .filter((c) => c.members && (named || c.token || LOGIN_WORDS.test(`${c.op.operationId} ${c.op.path}`)))
    .sort((a, b) => Number(!a.token) - Number(!b.token));
  const best = scored[0];
  if (!best)
    return named ? { problem: `${named} takes no user name and password in its body (--login-operation)` } : undefined;
  return {
    operationId: best.op.operationId,
    ...best.members!,
    ...(best.token ? { token: best.token } : {}),
  };
}

/** The operation that registers an account: an open POST that takes a user name and a password and is no login. */
export function registerOperation(
  model: SpecModel,
  login?: string,
): (LoginOperation & { family?: string }) | undefined {
  const op = model.operations.find(
    (o) =>
      o.method === "POST" &&
      o.operationId !== login &&
      open(o) &&
      credentialMembers(model, o) !== undefined &&
      !tokenPointer(model, o) &&
      (REGISTER_WORDS.test(`${o.operationId} ${o.path}`) || !LOGIN_WORDS.test(`${o.operationId} ${o.path}`)),
  );
  if (!op) return undefined;
  const members = credentialMembers(model, op)!;
  // The account's own path: a path parameter named like the member that names the user (`/users/{username}`).
  const family = model.operations
    .flatMap((o) =>
      o.parameters
        .filter((p) => p.in === "path" && p.name === members.userPath.at(-1))
        .map((p) => familyIn(o.path, p.name)),
    )
    .find((f): f is string => f !== undefined);
  return { operationId: op.operationId, ...members, ...(family ? { family } : {}) };
}

/**
 * True when `op` changes or ends an account or a session: an operation that changes data on the account's own path
 * (`/users/{username}/password`), or one on the caller's own account (`DELETE /account`, `POST /logout`). On a live
 * target the suite sends these only with a throwaway account's credential, never its login account's.
 */
export function changesAccount(
  op: OperationEntry,
  accountFamily: string | undefined,
  exempt: readonly string[],
  model?: SpecModel,
): boolean {
  if (op.safe || exempt.includes(op.operationId)) return false;
  if (accountFamily && (op.path === accountFamily || op.path.startsWith(`${accountFamily}/`))) return true;
  if (op.path.includes("{")) return false;
  if (ENDS_SESSION.test(`${op.operationId} ${op.path}`)) return true;
  if (!OWN_ACCOUNT_PATH.test(op.path)) return false;
  // A POST on the caller's own path changes the account when its body takes what an account holds (`POST
  // /account/username`), not when it creates something under it (`POST /user/orders`).
  if (op.method !== "POST") return true;
  // Its body's members at any depth (inside an envelope too).
  const media = op.requestBody?.content.find((m) => m.schemaPointer);
  return (
    model !== undefined &&
    media?.schemaPointer !== undefined &&
    bodyMembers(model, media.schemaPointer).some((m) => ACCOUNT_MEMBERS.test(m.name))
  );
}

/** Members an account holds: its name, e-mail, password, role, profile. */
const ACCOUNT_MEMBERS = new RegExp(
  `${USER_NAMES.source}|${PASSWORD_NAMES.source}|^(roles?|admin|is_?admin|bio|image|avatar|display_?name|` +
    "first_?name|last_?name|full_?name|phone|phone_?number)$",
  "i",
);
