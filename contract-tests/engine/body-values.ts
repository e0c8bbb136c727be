/**
 * Body values a live run takes from the run itself rather than from the schema: identifiers the client chooses (a
 * create's title that a path then addresses), fresh for every create, and members that refer to another resource
 * (an order's item_id), from the answers that named one. engine/values.ts puts them into a request's body.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import { loginOperation } from "../model/accounts.js";
import { evaluate, linksFrom } from "../model/links.js";
import { type BodyMember, bodyMembers, EACH, memberAt, pathOfPointer, setAt, valuesAt } from "../model/members.js";
import { type Reference, references } from "../model/references.js";
import { uniqueMembers } from "./made-up.js";
import { validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import type { ScenarioContext } from "./scenario.js";

/**
 * The body member of `op` through which the client chooses the identifier a producer link reads (`$request.body#/x`,
 * `$request.body#/user/username` inside an envelope, or `$response.body#/x` where the request sends `x` too), or
 * undefined.
 */
export function chosenPath(ctx: ScenarioContext, op: OperationEntry, expr: unknown): BodyMember | undefined {
  const pointer = planOf(op).body?.pointer;
  const m = typeof expr === "string" ? /^\$(request|response)\.body#(\/.+)$/.exec(expr) : null;
  if (!pointer || !m) return undefined;
  const path = pathOfPointer(m[2]!);
  if (path.includes(EACH)) return undefined;
  const direct = memberAt(ctx.model, pointer, path);
  if (direct || m[1] === "request") return direct;
  // An answer's member the request sends inside its envelope (`/username` of the answer, `user.username` sent).
  const name = path.at(-1);
  return path.length === 1
    ? bodyMembers(ctx.model, pointer).find((x) => x.name === name && !x.inArray && x.path.length === 2)
    : undefined;
}

/**
 * The first of `candidates`, else of `count` values generated from the seed, that `accept` takes and the schema of
 * the body member `member` accepts; undefined when none is.
 */
export function firstValidMember(
  model: SpecModel,
  member: Pick<BodyMember, "pointer">,
  candidates: readonly unknown[],
  generated: { count: number; seed: number },
  accept: (v: unknown) => boolean = () => true,
): unknown {
  const at = member.pointer;
  const valid = (v: unknown) => accept(v) && model.validator.validate(at, v).length === 0;
  return candidates.find(valid) ?? validSamples(model, at, generated.count, generated.seed).find(valid);
}

/** Values a live run has chosen or sent for members the server keeps unique, so none is sent twice. */
const CHOSEN = new WeakMap<object, Set<string>>();

const chosenOf = (ctx: ScenarioContext): Set<string> => {
  const chosen = CHOSEN.get(ctx.state.resources) ?? new Set<string>();
  CHOSEN.set(ctx.state.resources, chosen);
  return chosen;
};

/** Values the suite made up as fresh ones (they carry the time: no two runs share one). */
const GENERATED = new Set<string>();

/** A value for `member` valid for its schema that this run has not chosen before (recorded as chosen), or undefined. */
function freshValue(ctx: ScenarioContext, member: BodyMember, old?: unknown): unknown {
  const chosen = chosenOf(ctx);
  const tag = `${(chosen.size + 1).toString(36)}${Date.now().toString(36).slice(-6)}`;
  const digits = String(Number.parseInt(tag, 36)).padStart(7, "0").slice(-7);
  const grown = typeof old === "string" && old !== "" ? [`${old}-${tag}`, `${tag}${old}`.slice(0, old.length)] : [];
  const value = firstValidMember(
    ctx.model,
    member,
    [
      `cs${tag}`,
      `cs-${tag}`,
      `contract.suite.${tag}@example.com`,
      `+1555${digits}`,
      ...grown,
      Number.parseInt(tag, 36),
    ],
    { count: 8, seed: ctx.settings.seed + chosen.size },
    (v) => !chosen.has(String(v)),
  );
  if (value !== undefined) {
    chosen.add(String(value));
    GENERATED.add(String(value));
  }
  return value;
}

/**
 * Fresh values for the body members of a create that choose its resource's identifier (the producer link reads
 * `$request.body#/book_title`, at any depth): valid for the member's schema, never one this run chose before.
 */
export function freshIdentifiers(
  ctx: ScenarioContext,
  op: OperationEntry,
): Array<{ path: readonly string[]; value: unknown }> {
  if (op.method !== "POST" || !planOf(op).body?.pointer) return [];
  const out: Array<{ path: readonly string[]; value: unknown }> = [];
  for (const { link } of linksFrom(ctx.model, ctx.settings.inferLinks, op.operationId))
    for (const expr of Object.values(link.parameters)) {
      // The identifier is the client's when the link reads it from the request, or from an answer's member the
      // request also sends (the create echoes the title it was given).
      const member = chosenPath(ctx, op, expr);
      if (!member || out.some((o) => o.path === member.path)) continue;
      const value = freshValue(ctx, member);
      if (value !== undefined) out.push({ path: member.path, value });
    }
  return out;
}

/**
 * `body` of a create as a live run sends it: each value of a member the server may keep unique (a chosen identifier,
 * a title, a user name, an e-mail, a phone number) that this run already sent in a valid create replaced by a fresh
 * one, the others recorded as sent. The server's refusal of a repeated value would be the run's own doing.
 */
export function freshUnique(ctx: ScenarioContext, op: OperationEntry, body: unknown, always = false): unknown {
  if (ctx.settings.kind !== "live" || !isMapping(body) || isLogin(ctx, op)) return body;
  const chosen = chosenOf(ctx);
  const sentKey = (m: BodyMember, v: unknown) => `${op.operationId}\u0000${m.shown}\u0000${String(v)}`;
  const members = [
    ...uniqueMembers(ctx.model, op),
    ...freshIdentifiersMembers(ctx, op).filter((m) => !uniqueMembers(ctx.model, op).includes(m)),
  ];
  let out: unknown = body;
  for (const m of members)
    for (const v of valuesAt(out, m.path)) {
      if (typeof v !== "string" && typeof v !== "number") continue;
      if (always && GENERATED.has(String(v)) && !SENT_OF(ctx).has(sentKey(m, v))) continue;
      // A value a probe chose for what it holds (a quote, a template marker, a control character, CR and LF, text
      // outside ASCII) is its subject: sent again on purpose (a failure narrowed to its member), never replaced.
      if (!always && typeof v === "string" && !/^[A-Za-z0-9 ._@+-]*$/.test(v)) continue;
      if (!always && !SENT_OF(ctx).has(sentKey(m, v))) {
        SENT_OF(ctx).add(sentKey(m, v));
        chosen.add(String(v));
        continue;
      }
      const fresh = freshValue(ctx, m, v);
      if (fresh === undefined) continue;
      // Chosen now, sent when a request carries it (prepared, as it goes out).
      if (!always) SENT_OF(ctx).add(sentKey(m, fresh));
      out = setAt(out, m.path, fresh);
    }
  return out;
}

/** The members a producer link reads of a create's body (see {@link chosenPath}). */
function freshIdentifiersMembers(ctx: ScenarioContext, op: OperationEntry): BodyMember[] {
  if (op.method !== "POST") return [];
  return linksFrom(ctx.model, ctx.settings.inferLinks, op.operationId).flatMap(({ link }) =>
    Object.values(link.parameters).flatMap((expr) => {
      const m = chosenPath(ctx, op, expr);
      return m ? [m] : [];
    }),
  );
}

const LOGINS = new WeakMap<object, string | undefined>();
/** True when `op` is the document's login (its user name is the account's own, never a fresh one). */
function isLogin(ctx: ScenarioContext, op: OperationEntry): boolean {
  if (!LOGINS.has(ctx.model)) {
    const login = loginOperation(ctx.model, ctx.settings.loginOperation);
    LOGINS.set(ctx.model, login && !("problem" in login) ? login.operationId : undefined);
  }
  return LOGINS.get(ctx.model) === op.operationId;
}

/** Values (per operation and member) a live run has sent in a valid create. */
const SENT = new WeakMap<object, Set<string>>();
const SENT_OF = (ctx: ScenarioContext): Set<string> => {
  const sent = SENT.get(ctx.state.resources) ?? new Set<string>();
  SENT.set(ctx.state.resources, sent);
  return sent;
};

/**
 * `body` with the members of `op` that refer to another resource (an order's item_id, `items[].menu_item_id`) set
 * to identifiers answers named, on a live target: a generated body refers to what exists.
 */
export function withReferences(ctx: ScenarioContext, op: OperationEntry, body: unknown): unknown {
  if (ctx.settings.kind !== "live" || !isMapping(body)) return body;
  let out: unknown = body;
  for (const { path, value } of referencedMembers(ctx, op)) out = setAt(out, path, value);
  return out;
}

/** Names an inferred reference the run followed among the scenario's notes, as an inferred link is (once). */
export function noteReference(ctx: ScenarioContext, name: string): void {
  if (!ctx.verdict.notes.includes(name)) ctx.verdict.notes.push(name);
}

/** Identifiers for the body members of `op` that refer to a resource, from the answers that named such ones. */
export function referencedMembers(
  ctx: ScenarioContext,
  op: OperationEntry,
): Array<{ path: readonly string[]; value: unknown }> {
  const out: Array<{ path: readonly string[]; value: unknown }> = [];
  for (const r of references(ctx.model, ctx.settings.inferLinks)) {
    if (
      r.link.operationId !== op.operationId ||
      r.in !== "body" ||
      out.some((o) => o.path.join("\u0000") === r.path.join("\u0000"))
    )
      continue;
    const value = referencedValue(ctx, r);
    if (value === undefined) continue;
    out.push({ path: r.path, value: r.list ? [value] : value });
    noteReference(ctx, r.link.name);
  }
  return out;
}

/** The newest identifier an answer of a reference's source named (a scalar), or undefined. */
export function referencedValue(ctx: ScenarioContext, r: Reference): unknown {
  const expr = Object.values(r.link.parameters)[0];
  const value = (ctx.state.successes.get(r.source) ?? [])
    .map((ex) => evaluate(expr, ex))
    .filter((v) => v !== undefined && v !== null)
    .at(-1);
  return value !== undefined && value !== null && typeof value !== "object" ? value : undefined;
}
