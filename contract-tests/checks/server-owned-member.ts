import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isMapping, toPointer } from "../../openapi/lib/spec.js";
import { finding, isSuccess, show } from "../model/exchange.js";
import type { Check, Exchange, OwnedWrite } from "../model/types.js";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The resource's object in an answer: at the pointer, else the body itself. */
function objectOf(ex: Exchange, pointer: string): Record<string, unknown> {
  const at = resolvePointer(ex.response.json, pointer);
  return isMapping(at) ? at : isMapping(ex.response.json) ? ex.response.json : {};
}

/** The members of a write a successful answer shows holding the value the suite sent (and not the server's own). */
export function membersTaken(ex: Exchange, owned: OwnedWrite): OwnedWrite["members"] {
  if (!isSuccess(ex)) return [];
  const object = objectOf(ex, owned.pointer);
  return owned.members.filter(
    (m) => Object.hasOwn(object, m.name) && same(object[m.name], m.sent) && !same(m.before, m.sent),
  );
}

/**
 * A member the server owns (marked `readOnly`, or in no request schema of its family), sent with a value that
 * differs from the one the server set, holds the value sent: the client wrote what only the server may (mass
 * assignment). Ignoring it, refusing the write or keeping its own value is no finding.
 */
export const serverOwnedMember: Check = (ex, { owned }) => {
  if (!owned) return [];
  const object = objectOf(ex, owned.pointer);
  const prefix = resolvePointer(ex.response.json, owned.pointer) === object ? owned.pointer : "";
  return membersTaken(ex, owned).map((m) =>
    finding(ex, {
      severity: "error",
      title: `Server-owned member "${show(m.name, 60).slice(1, -1)}" took the value ${owned.writer} sent`,
      received:
        `${show(m.name, 60).slice(1, -1)}: sent ${show(m.sent, 120)}, now ${show(object[m.name], 120)}; ` +
        `the server had set ${m.before === undefined ? "none" : show(m.before, 120)}`,
      documented: `a member the server owns (${m.rule}): a write ignores it, refuses it or keeps its own value`,
      instancePath: `${prefix}${toPointer([m.name])}`,
      promise: m.promise,
    }),
  );
};
