/**
 * The hostile phase (live targets): strings as an attacker writes them (engine/hostile-values.ts), each sent as a
 * valid request whose answer need only be documented, never a 5xx; the cause names the string and the class. A
 * write (create or update) answered 2xx must show a body member's string exactly as written, in its own answer and
 * in a read of the resource (hostile_input). The mock cannot show an injection: it answers static examples.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import { shownMember } from "../../checks/hostile-input.js";
import { isSuccess } from "../../model/exchange.js";
import { isSkip, reason, type Outcome, type SkipReason } from "../../model/skip.js";
import type { CheckContext, Exchange, Finding } from "../../model/types.js";
import {
  hasHostileTargets,
  hostileRequests,
  type HostileMember,
  type HostileRequest,
  type HostileScope,
} from "../hostile-values.js";
import { objectPointer, readResource, resourceOf, type ResourceRef } from "../read-back.js";
import { toRequest, type Values } from "../requests.js";
import { itemOf, producersOf } from "../resources.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { isLinkTarget, readyBase } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

/** The methods of a write whose answer and read-back show what it stored. */
const WRITES = new Set(["POST", "PUT", "PATCH"]);

/** The resource family a write addresses (an item path) or creates (a producer of the family), if any. */
function writtenFamily(ctx: ScenarioContext, op: OperationEntry): string | undefined {
  const item = itemOf(op);
  if (item) return item.family;
  for (const o of ctx.model.operations) {
    const family = itemOf(o)?.family;
    if (family && producersOf(ctx.model, ctx.settings.inferLinks, family).some((l) => l.source === op.operationId))
      return family;
  }
  return undefined;
}

/**
 * Which body members the answers of `op` echo as sent for plain strings, from the operation's earlier successes (or,
 * with none, one valid request sent as a control): a member shown otherwise for a plain string too is echoed some
 * other way by design or by another fault (another check's), so its hostile string is not compared.
 */
async function echoesPlainText(ctx: ScenarioContext, op: OperationEntry, values: Values, object: string) {
  let evidence = (ctx.state.successes.get(op.operationId) ?? []).filter((ex) => isMapping(ex.request.json));
  if (evidence.length === 0) {
    const control = await ctx.send(toRequest(op, values), {
      intent: "conforming",
      cause: "the valid request the hostile strings grow from (what its answer echoes)",
    });
    if (isSuccess(control) && isMapping(control.request.json)) evidence = [control];
  }
  return (member: string): boolean => {
    const seen = evidence.flatMap((ex) => {
      const sent = (ex.request.json as Record<string, unknown>)[member];
      const shown = typeof sent === "string" && shownMember(ctx.model.forResponses, ex, { member, object });
      return shown ? [shown.value === sent] : [];
    });
    return seen.length === 0 || seen.includes(true);
  };
}

async function hostile(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const scope: HostileScope = {
    changeIds: op.safe,
    linkFed: (p) => isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name),
    seed: ctx.settings.seed,
  };
  const requests = hostileRequests(ctx.model, op, values, scope);
  if (requests.length === 0)
    return reason(
      "not-applicable",
      "no string of this operation takes a hostile value (an enum, const, pattern, format or length rules each " +
        "one out, or it is an identifier of an operation that changes data)",
    );
  const write = !op.safe && WRITES.has(op.method.toUpperCase());
  const family = write ? writtenFamily(ctx, op) : undefined;
  const object = family ? objectPointer(ctx, family) : "";
  const echoes =
    write && requests.some((r) => r.members.length > 0) ? await echoesPlainText(ctx, op, values, object) : () => false;
  // What the check compares for a write that carried strings in body members; `before`: the resource as last read;
  // `except`: members whose change an earlier answer already showed (one finding per failure).
  const contextOf = (
    members: readonly HostileMember[],
    before?: Exchange,
    except: ReadonlySet<string> = new Set(),
  ): CheckContext["hostile"] => {
    if (!write) return undefined;
    const judged = members
      .filter((m) => echoes(m.name) && !except.has(m.name))
      .map((m) => {
        const h = { member: m.name, sent: m.sent, pointer: m.pointer, what: m.what };
        const was = before && shownMember(ctx.model.forResponses, before, { member: m.name, object });
        return was ? { ...h, before: was.value } : h;
      });
    const [first, ...others] = judged;
    return first ? { ...first, object, ...(others.length ? { others } : {}) } : undefined;
  };
  /** The members the answer showed changed (their finding is the answer's; a read would say it again). */
  const changedIn = (ex: Exchange, h: CheckContext["hostile"]) =>
    new Set(
      (h ? [h, ...(h.others ?? [])] : []).flatMap((m) => {
        const shown = shownMember(ctx.model.forResponses, ex, { member: m.member, object });
        return shown?.schema && shown.value !== m.sent ? [m.member] : [];
      }),
    );
  let unread: SkipReason | undefined;
  const read = async (ref: ResourceRef, cause: string, h?: CheckContext["hostile"]) => {
    const ex = await readResource(ctx, ref, { cause, ...(h ? { hostile: { ...h, read: true } } : {}) });
    if (isSkip(ex)) unread ??= ex;
    return isSkip(ex) ? undefined : ex;
  };
  /** Reads the resource; the failures (see `failure`) the read's judgement added. */
  const readFailing = async (ref: ResourceRef, cause: string, h?: CheckContext["hostile"]) => {
    const n = ctx.verdict.findings.length;
    const ex = await read(ref, cause, h);
    return { ex, failed: ctx.verdict.findings.slice(n).filter(failure) };
  };
  /**
   * A request that failed, or whose read after failed (an error other than a string read back changed, which names
   * its member already), is narrowed: each string it carried goes alone, with its class (and is read back where the
   * read failed), until one fails too; then the failure is that one's, and the request's own findings go. Returns
   * whether it sent anything (an update's resource then holds what the last part wrote).
   */
  const narrow = async (r: HostileRequest, failed: readonly Finding[], readFailed: boolean, ref?: ResourceRef) => {
    if (r.parts.length < 2 || failed.length === 0) return false;
    for (const part of r.parts) {
      let again = false;
      const h = contextOf(part.member ? [part.member] : []);
      const [ex] = await ctx.sendAll([
        {
          spec: toRequest(op, part.values),
          judge: { intent: "conforming", cause: `narrowed: ${part.what}`, ...(h ? { hostile: h } : {}) },
          found: (f) => {
            again = f.some(failure);
          },
        },
      ]);
      const target = ref ?? (ex && isSuccess(ex) ? resourceOf(ctx, op, ex) : undefined);
      if (!again && readFailed && target && ex && isSuccess(ex))
        again =
          (await readFailing(target, `the read after ${op.operationId}, narrowed: ${part.what}`, h)).failed.length > 0;
      if (again) {
        const all = ctx.verdict.findings;
        for (const f of failed) if (all.includes(f)) all.splice(all.indexOf(f), 1);
        return true;
      }
    }
    return true;
  };
  const probeOf = (r: HostileRequest, h: CheckContext["hostile"], failed: Finding[]): Probe => ({
    spec: toRequest(op, r.values),
    judge: { intent: "conforming", cause: r.what, ...(h ? { hostile: h } : {}) },
    found: (f) => failed.push(...f.filter(failure)),
  });
  const item = write ? itemOf(op) : undefined;
  const id = item && values.path[item.param];
  if (item && id !== undefined) {
    // Updates of one resource, one at a time, each read back before the next overwrites it; the read before each
    // says what the member held (a write that did not take at all is update_persisted's, not a hostile string's).
    const ref = { ...item, value: id };
    let last = await read(ref, `the read before the hostile writes of ${op.operationId}`);
    for (const r of requests) {
      const h = contextOf(r.members, last);
      const failed: Finding[] = [];
      const [ex] = await ctx.sendAll([probeOf(r, h, failed)]);
      let readFailed = false;
      if (h && isSuccess(ex!)) {
        const after = await readFailing(
          ref,
          `the read after ${op.operationId} with ${r.what}`,
          contextOf(r.members, last, changedIn(ex!, h)),
        );
        last = after.ex;
        failed.push(...after.failed);
        readFailed = after.failed.length > 0;
      }
      if (await narrow(r, failed, readFailed, ref))
        last = await read(ref, `the read after narrowing ${op.operationId}'s hostile write down`);
    }
    return unread;
  }
  // Creates (each its own resource) and other requests go together; an accepted create is read back for the members
  // its own answer did not already show changed (one finding per failure).
  const failures = requests.map((): Finding[] => []);
  const answers = await ctx.sendAll(requests.map((r, i) => probeOf(r, contextOf(r.members), failures[i]!)));
  for (const [i, ex] of answers.entries()) {
    const r = requests[i]!;
    const h = contextOf(r.members);
    let readFailed = false;
    if (h && isSuccess(ex)) {
      const rest = contextOf(r.members, undefined, changedIn(ex, h));
      const ref = resourceOf(ctx, op, ex);
      if (ref && rest) {
        const after = await readFailing(ref, `the read after ${op.operationId} with ${r.what}`, rest);
        failures[i]!.push(...after.failed);
        readFailed = after.failed.length > 0;
      }
    }
    await narrow(r, failures[i]!, readFailed);
  }
  return unread;
}

/** A finding that makes a hostile request one to narrow: an error other than a member read back changed. */
const failure = (f: Finding) => f.severity === "error" && f.check !== "hostile_input";

/** The phase: planned where a parameter or body member of the operation may take a string. */
export const hostilePhase: Phase = {
  forOperation: ({ model, settings }, op) => {
    const scope = {
      changeIds: op.safe,
      linkFed: (p: { name: string }) => isLinkTarget(model, settings.inferLinks, op, p.name),
    };
    // The mock run skips the phase (it needs a live target): its plan need not generate values to be exact.
    const planned = hasHostileTargets(model, op, scope, settings.kind === "live");
    return planned ? [scenarioOf("hostile", op, (c) => hostile(c, op))] : [];
  },
};
