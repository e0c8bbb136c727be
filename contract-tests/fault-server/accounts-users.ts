/**
 * The accounts server's user operations (register, login, read, list, password and e-mail changes, deletion by
 * an admin or by the account itself), each with its planted faults.
 */
import { issueToken } from "./accounts-auth.js";
import { type Call, fail, isObject, isText, type Reply, type Store, type User } from "./accounts-store.js";
import { LIMITS } from "./accounts-components.js";

/** A user record as the document shows it (with the password only under `password-in-response`). */
function shown(call: Call, u: User): Record<string, unknown> {
  const record = { username: u.username, email: u.email, admin: u.admin };
  return call.faults.has("password-in-response") ? { ...record, password: u.password } : record;
}

/** `quote-breaks-json`: the record glued by hand, as a hurried handler writes it. */
function glued(call: Call, u: User): string {
  const password = call.faults.has("password-in-response") ? `, "password": "${u.password}"` : "";
  return `{"username": "${u.username}", "email": "${u.email}", "admin": ${u.admin}${password}}`;
}

/** Why a body is not an object with the string members `rules` asks for (minimum lengths), or undefined. */
function invalid(body: unknown, rules: Record<string, number>, maxima: Record<string, number> = {}) {
  if (!isObject(body)) return "the body must be a JSON object";
  for (const [name, min] of Object.entries(rules)) {
    if (isText(body[name], min, maxima[name])) continue;
    const max = maxima[name];
    const length = max ? ` of ${min} to ${max} characters` : min ? ` of at least ${min} characters` : "";
    return `${name} must be a string${length}`;
  }
  return undefined;
}

/** Removes an account and everything it owns. */
function removeAccount(store: Store, username: string): void {
  store.users.delete(username);
  for (const [title, book] of store.books) if (book.owner === username) store.books.delete(title);
  for (const [id, order] of store.orders) if (order.owner === username) store.orders.delete(id);
}

/** POST /users/register. */
export function registerUser(call: Call): Reply {
  const why = invalid(
    call.body,
    { username: LIMITS.username[0], password: LIMITS.password, email: 0 },
    { username: LIMITS.username[1] },
  );
  if (why) return fail(400, `Invalid body: ${why}.`);
  const body = call.body as Record<string, string>;
  if (call.store.users.has(body.username!)) return fail(409, "The username is taken.");
  if (call.faults.has("unique-email") && [...call.store.users.values()].some((u) => u.email === body.email))
    return fail(409, "The e-mail is taken.");
  const user: User = {
    username: body.username!,
    password: body.password!,
    email: body.email!,
    // Mass assignment: a member no request schema declares becomes the server's.
    admin: call.faults.has("register-admin") && (call.body as Record<string, unknown>).admin === true,
    since: Date.now(),
  };
  call.store.users.set(user.username, user);
  // A name another account was renamed from is this account's now (the old one's tokens name it no more).
  call.store.renamed.delete(user.username);
  return { status: 201, body: shown(call, user) };
}

/** POST /users/login: the token in the member the flavour's document names. */
export function loginUser(call: Call): Reply {
  const why = invalid(call.body, { username: 0, password: 0 });
  if (why) return fail(400, `Invalid body: ${why}.`);
  const body = call.body as Record<string, unknown>;
  const user = call.store.users.get(body.username as string);
  if (!user || user.password !== body.password) return fail(401, "The username or password is not correct.");
  const { token } = issueToken(call, user);
  return { status: 200, body: call.auth === "bearer-login" ? { auth_token: token } : { token } };
}

/** GET /users/{username}: any signed-in user reads any user's public record. */
export function getUser(call: Call): Reply {
  const user = call.store.users.get(call.params.username!);
  // Planted: a user that does not exist is answered 403 (as if hidden), where the document promises 404.
  if (!user && call.faults.has("unknown-user-403")) return fail(403, "You may not read this user.");
  if (!user) return fail(404, "No user has this username.");
  if (call.faults.has("quote-breaks-json")) return { status: 200, raw: glued(call, user) };
  return { status: 200, body: shown(call, user) };
}

/** GET /users. */
export function listUsers(call: Call): Reply {
  const users = [...call.store.users.values()];
  if (call.faults.has("quote-breaks-json"))
    return { status: 200, raw: `{"users": [${users.map((u) => glued(call, u)).join(", ")}]}` };
  return { status: 200, body: { users: users.map((u) => shown(call, u)) } };
}

/** PUT /users/{username}/password: only the user themselves. */
export function updatePassword(call: Call): Reply {
  const why = invalid(call.body, { password: LIMITS.password });
  if (why) return fail(400, `Invalid body: ${why}.`);
  const user = call.store.users.get(call.params.username!);
  if (!user) return fail(404, "No user has this username.");
  if (user.username !== call.caller.username && !call.faults.has("foreign-password-change"))
    return fail(403, "Only the user themselves may change their password.");
  user.password = (call.body as Record<string, string>).password!;
  return { status: 204 };
}

/** PUT /users/{username}/email: only the user themselves. */
export function updateEmail(call: Call): Reply {
  const why = invalid(call.body, { email: 0 });
  if (why) return fail(400, `Invalid body: ${why}.`);
  const body = call.body as Record<string, unknown>;
  const self = call.store.users.get(call.caller.username);
  // The planted bug: the record is looked up by the caller, not by the path.
  const user = call.faults.has("email-update-ignores-path") ? self : call.store.users.get(call.params.username!);
  if (!user) return fail(404, "No user has this username.");
  if (user.username !== call.caller.username) return fail(403, "Only the user themselves may change their e-mail.");
  user.email = body.email as string;
  if (call.faults.has("email-update-merges-body") && typeof body.admin === "boolean") user.admin = body.admin;
  return { status: 204 };
}

/** DELETE /users/{username}: admins only. */
export function deleteUser(call: Call): Reply {
  if (!call.caller.admin) return fail(401, "Only admins may delete users: the caller is not an admin.");
  if (!call.store.users.has(call.params.username!)) return fail(404, "No user has this username.");
  removeAccount(call.store, call.params.username!);
  return { status: 204 };
}

/** POST /account/username: the caller renames their own account (what they own follows, its tokens work on). */
export function renameAccount(call: Call): Reply {
  const why = invalid(call.body, { username: LIMITS.username[0] }, { username: LIMITS.username[1] });
  if (why) return fail(400, `Invalid body: ${why}.`);
  const name = (call.body as Record<string, string>).username!;
  const user = call.store.users.get(call.caller.username);
  if (!user) return fail(401, "Invalid token: its account no longer exists.");
  if (name === user.username) return { status: 204 };
  if (call.store.users.has(name)) return fail(409, "The username is taken.");
  call.store.renamed.delete(name);
  call.store.users.delete(user.username);
  for (const book of call.store.books.values()) if (book.owner === user.username) book.owner = name;
  for (const order of call.store.orders.values()) if (order.owner === user.username) order.owner = name;
  for (const [old, now] of call.store.renamed) if (now === user.username) call.store.renamed.set(old, name);
  call.store.renamed.set(user.username, name);
  user.username = name;
  call.store.users.set(name, user);
  return { status: 204 };
}

/** DELETE /account: the caller deletes their own account (its tokens are refused from then on). */
export function deleteAccount(call: Call): Reply {
  removeAccount(call.store, call.caller.username);
  return { status: 204 };
}
