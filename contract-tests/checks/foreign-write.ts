import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isMapping } from "../../openapi/lib/spec.js";
import { finding, isSuccess, show } from "../model/exchange.js";
import { scopedPromise, securityPromise } from "../model/promise.js";
import type { Check, CheckContext, Exchange, Leniency } from "../model/types.js";
import { sameValue } from "./read-back.js";

/**
 * The promise another account's write breaks: where the document says the resource is its owner's alone (else, a
 * warning, the security requirement: strict holds it), with the owner as the run observed it.
 */
function promiseOf(ctx: CheckContext, operation: string): { promise?: string; lenient?: Leniency } {
  const scoped = scopedPromise(ctx.model, operation);
  if (scoped) return { promise: scoped };
  const security = securityPromise(ctx.model, operation);
  return {
    ...(security ? { promise: security } : {}),
    lenient: { because: "document-silent", why: "the document does not say only the resource's owner may change it" },
  };
}

/** The resource's object in a read's answer (at the pointer where creates and reads hold it). */
const objectOf = (ex: Exchange, pointer: string): Record<string, unknown> => {
  const at = resolvePointer(ex.response.json, pointer);
  return isMapping(at) ? at : isMapping(ex.response.json) ? ex.response.json : {};
};

/**
 * Another account's writes (OWASP API1:2023, object level authorization). With the second account's credential, an
 * update or delete of a resource the run's own account created is refused with a 4xx (`intent: foreign-write`; a
 * 5xx is not_a_server_error's); and whatever it was answered, the owner then reads the resource as it was
 * (`foreignWrite` on the owner's read): a member now holding what the other account sent, or the resource gone,
 * is an error of its own (the write took effect).
 */
export const foreignWrite: Check = (ex, ctx) => {
  const { intent, foreignWrite: effect } = ctx;
  const status = ex.response.status;
  if (intent === "foreign-write") {
    if (!isSuccess(ex)) return [];
    return [
      finding(ex, {
        severity: "error",
        title: `Another account's ${ex.request.method} of a resource the run's own account created was accepted`,
        received: `status ${status}`,
        documented: "a 4xx: the resource is its owner's, and the request carried another account's credential",
        ...promiseOf(ctx, ex.operation),
      }),
    ];
  }
  if (!effect || (intent !== "acceptance" && intent !== "conforming")) return [];
  if (effect.lockedOut) {
    if (status < 400 || status >= 500) return [];
    return [
      finding(ex, {
        severity: "error",
        title: `Another account's write (${effect.by}) changed the owner's password: the owner can no longer log in`,
        received: `status ${status} for the owner's login with its own password`,
        documented: "the owner still logs in: another account's write must take no effect",
        ...promiseOf(ctx, effect.by),
      }),
    ];
  }
  // The owner read its resource before: a refusal now (gone, or no longer its) is the other account's doing.
  if (
    effect.deleted ||
    (Object.keys(effect.before).length > 0 && (status === 403 || status === 404 || status === 410))
  ) {
    if (status < 400 || status >= 500) return [];
    return [
      finding(ex, {
        severity: "error",
        title: effect.deleted
          ? `Another account's delete (${effect.by}) removed a resource the run's own account created`
          : `After another account's write (${effect.by}) the owner can no longer read its resource`,
        received: `status ${status} for the owner's read after it`,
        documented: "the owner still reads its resource: another account's delete must take no effect",
        ...promiseOf(ctx, effect.by),
      }),
    ];
  }
  if (!isSuccess(ex)) return [];
  const object = objectOf(ex, effect.pointer);
  const taken = Object.entries(effect.sent).filter(
    ([k, v]) => Object.hasOwn(object, k) && sameValue(v, object[k]) && !sameValue(v, effect.before[k]),
  );
  if (taken.length === 0) return [];
  return [
    finding(ex, {
      severity: "error",
      title: `Another account's write (${effect.by}) changed a resource the run's own account created`,
      received: taken.map(([k, v]) => `${k}: ${show(effect.before[k], 60)} became ${show(v, 60)}`).join("; "),
      documented: "the owner reads its resource as it was: another account's write must take no effect",
      ...promiseOf(ctx, effect.by),
    }),
  ];
};

/**
 * A write addressed to one resource changes that resource, not another: after an update answered 2xx, the caller's
 * own resource of the family (another one than the one addressed) does not hold what the update sent
 * (`misdirected` on the read of it). The update's documented 2xx is the promise: it names the resource it changed.
 */
export const misdirectedWrite: Check = (ex, { intent, misdirected, model }) => {
  if ((intent !== "acceptance" && intent !== "conforming") || !misdirected || !isSuccess(ex)) return [];
  const object = objectOf(ex, misdirected.pointer);
  const taken = Object.entries(misdirected.sent).filter(
    ([k, v]) => Object.hasOwn(object, k) && sameValue(v, object[k]) && !sameValue(v, misdirected.before[k]),
  );
  if (taken.length === 0) return [];
  const op = model.has(misdirected.by) ? model.operation(misdirected.by) : undefined;
  return [
    finding(ex, {
      severity: "error",
      title: `An update addressed to another resource (${misdirected.by}) changed the caller's own`,
      received: taken.map(([k, v]) => `${k}: ${show(misdirected.before[k], 60)} became ${show(v, 60)}`).join("; "),
      documented: `the update changes the resource its path names (${misdirected.addressed}), no other`,
      ...(op ? { promise: `#${op.pointer}` } : {}),
    }),
  ];
};
