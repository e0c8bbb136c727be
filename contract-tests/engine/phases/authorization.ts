/**
 * The authorization phase (OWASP API1:2023, object level authorization, writes included), per resource family a
 * create produces, on a live target with a second account: a resource of the run's own account (for an account's
 * own resource, a throwaway account's) is updated, overwritten by a create with its identifier, and deleted with
 * the second account's credential; each must be refused, and the owner then reads it as it was (or, for a
 * password, still logs in). An update another account's request got through must have changed the resource its
 * path names, not the caller's own (a misdirected write).
 */
import { PASSWORD_NAMES } from "../../model/accounts.js";
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import { isSuccess } from "../../model/exchange.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import type { Exchange, WriteEffect } from "../../model/types.js";
import type { KeyMode } from "../../transport/request.js";
import { differentBody, familiesOf, type Family } from "../families.js";
import { objectIn, objectPointer } from "../read-back.js";
import { cloneValues, toRequest } from "../requests.js";
import type { Judgement, ScenarioContext } from "../scenario.js";
import { loginPlan, loginRequest } from "../session.js";
import { chosenPath } from "../body-values.js";
import { setAt } from "../../model/members.js";
import { base, readyBase } from "../values.js";
import { type Phase, titleOf } from "./phase.js";

/** One resource of the family, and the credential of the account that owns it. */
interface Held {
  value: unknown;
  key: KeyMode;
  /** A throwaway account's user name and password, for a resource that is an account. */
  login?: { username: string; password: string };
}

/** The resource the run's own account (or, for accounts, throwaway account `n`) holds for this phase. */
async function hold(ctx: ScenarioContext, f: Family, n: 1 | 2): Promise<Held | Outcome> {
  const accounts = ctx.state.accounts;
  if (accounts && accounts.family === f.family) {
    const account = await accounts.throwaway(ctx, n);
    if (isSkip(account)) return account;
    const t = accounts.throwaways.find((x) => x.account === account)!;
    return { value: t.username, key: account, login: { username: t.username, password: t.password } };
  }
  const create = ctx.model.operation(f.producer.source);
  const values = await readyBase(ctx, create);
  if (isSkip(values)) return values;
  const key: KeyMode = n === 1 ? "valid" : "second";
  const ex = await ctx.send(
    { ...toRequest(create, values), key },
    { cause: n === 1 ? "the resource another account will try to change" : "the other account's own resource" },
  );
  const made = ctx.state.resources.created.find((r) => r.created === ex && r.family === f.family);
  if (!isSuccess(ex) || !made)
    return reason("step-failed", `the create ${create.operationId} answered status ${ex.response.status}`);
  return { value: made.value, key };
}

async function authorization(ctx: ScenarioContext, f: Family): Promise<Outcome> {
  const victim = await hold(ctx, f, 1);
  if (!victim || isSkip(victim)) return victim;
  const pointer = objectPointer(ctx, f.family);
  const read = async (who: Held, judge: Judgement): Promise<Exchange | undefined> => {
    if (!f.read) return undefined;
    const v = base(ctx, f.read, { [f.param]: who.value });
    if (isSkip(v)) return undefined;
    return ctx.send({ ...toRequest(f.read, v), key: who.key }, { intent: "conforming", ...judge });
  };
  const snapshot = async (who: Held, cause: string) => {
    const ex = await read(who, { cause });
    return ex && isSuccess(ex) ? objectIn(ctx, f.family, ex) : {};
  };
  const before = await snapshot(victim, "the owner's read before another account's writes");
  // Reads too: another account's read of the resource names none of it (where the document says it is the owner's).
  if (f.read) {
    const v = base(ctx, f.read, { [f.param]: victim.value });
    if (!isSkip(v))
      await ctx.send(
        { ...toRequest(f.read, v), key: "second" },
        {
          intent: "other-account",
          foreignIds: [String(victim.value)],
          cause: "another account's read of the resource",
        },
      );
  }
  // The other account's own resource, where an update it sends that the path ignores would land.
  const attacker = f.updates.length + f.below.length && f.read ? await hold(ctx, f, 2) : undefined;
  const mine = attacker && !isSkip(attacker) ? attacker : undefined;
  const mineBefore = mine ? await snapshot(mine, "the other account's own resource before its writes") : {};
  const effect = (by: string, sent: Record<string, unknown>): WriteEffect => ({ by, sent, before, pointer });

  for (const u of [...f.updates, ...f.below]) {
    const v = base(ctx, u, { [f.param]: victim.value });
    if (isSkip(v)) return v;
    const body = differentBody(ctx, u, before, v.body);
    const sent = isMapping(body?.value) ? body.value : {};
    const ex = await ctx.send(
      { ...toRequest(u, body ? { ...cloneValues(v), body } : v), key: mine?.key ?? "second" },
      { intent: "foreign-write", cause: `another account's ${u.operationId} of the resource` },
    );
    await read(victim, {
      cause: `the owner's read after another account's ${u.operationId}`,
      foreignWrite: effect(u.operationId, sent),
    });
    await passwordKept(ctx, u, victim, sent);
    if (mine && isSuccess(ex))
      await read(mine, {
        cause: `the caller's own resource after its ${u.operationId} addressed to another`,
        misdirected: { ...effect(u.operationId, sent), before: mineBefore, addressed: String(victim.value) },
      });
  }
  await conflict(ctx, f, victim, mine?.key ?? "second", (sent) =>
    read(victim, {
      cause: "the owner's read after another account's create with its identifier",
      foreignWrite: effect(f.producer.source, sent),
    }),
  );
  if (f.remove) {
    const v = base(ctx, f.remove, { [f.param]: victim.value });
    if (isSkip(v)) return v;
    await ctx.send(
      { ...toRequest(f.remove, v), key: mine?.key ?? "second" },
      { intent: "foreign-write", cause: `another account's ${f.remove.operationId} of the resource` },
    );
    await read(victim, {
      cause: `the owner's read after another account's ${f.remove.operationId}`,
      foreignWrite: { ...effect(f.remove.operationId, {}), deleted: true },
    });
  }
  return undefined;
}

/**
 * A create with the identifier the owner chose (a title, a user name), by the other account: refused (a conflict)
 * or kept apart; the owner's resource must read as it was.
 */
async function conflict(
  ctx: ScenarioContext,
  f: Family,
  victim: Held,
  key: KeyMode,
  after: (sent: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  const create = ctx.model.operation(f.producer.source);
  // The member may sit at any depth (`book.title` inside an envelope).
  const member = chosenPath(ctx, create, Object.values(f.producer.link.parameters)[0]);
  if (!member || f.family === ctx.state.accounts?.family) return;
  const values = await readyBase(ctx, create);
  if (isSkip(values) || !isMapping(values.body?.value)) return;
  const sent = setAt(values.body.value, member.path, victim.value) as Record<string, unknown>;
  await ctx.send(
    { ...toRequest(create, { ...values, body: { value: sent } }), key },
    { intent: "foreign-write", cause: `another account's ${create.operationId} with the owner's identifier` },
  );
  const rest = member.path.length === 1 ? { ...sent } : sent;
  if (member.path.length === 1) delete rest[member.name];
  await after(rest);
}

/** After another account's write that sent a password to an account's own resource: the owner still logs in. */
async function passwordKept(ctx: ScenarioContext, u: OperationEntry, victim: Held, sent: Record<string, unknown>) {
  if (!victim.login || !Object.keys(sent).some((k) => PASSWORD_NAMES.test(k))) return;
  let spec: ReturnType<typeof loginRequest>;
  try {
    spec = loginRequest(ctx.model, ctx.settings, loginPlan(ctx.model, ctx.settings, victim.login), victim.login);
  } catch {
    return;
  }
  // Judged by foreign_write alone: a login through a token URL is no operation of the document.
  const [ex] = await ctx.sendAll([{ spec, unjudged: true }]);
  ctx.verdict.only(ex!, ["foreign_write"], {
    intent: "conforming",
    cause: `the owner logging in after another account's ${u.operationId}`,
    foreignWrite: { by: u.operationId, sent: {}, before: {}, pointer: "", lockedOut: true },
  });
}

/** The phase: one scenario per resource family a create produces, as the lifecycle's. */
export const authorizationPhase: Phase = {
  forRun: ({ model, settings, operations }) =>
    familiesOf(model, settings, operations)
      .filter((f) => f.updates.length > 0 || f.below.length > 0 || f.remove)
      .map((f) => ({
        id: `${f.producer.source}/authorization/${f.family}`,
        operation: f.producer.source,
        phase: "authorization",
        title: titleOf(
          "authorization",
          `of ${f.family}: another account's ` +
            `${[...f.updates, ...f.below, ...(f.remove ? [f.remove] : [])].map((u) => u.operationId).join(", ")} ` +
            "of a resource the run's own account created are refused and take no effect",
        ),
        run: (c) => authorization(c, f),
      })),
};
