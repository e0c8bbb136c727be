/** Comparing what a read shows with what a create or an update wrote (resource_availability, update_persisted). */
import { isMapping } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import type { Exchange, ReadBack } from "../model/types.js";

/** The members of `expected` the read's object shows differently (or not at all), each as `name: wrote X, read Y`. */
export function differences(ex: Exchange, expected: ReadBack): string[] {
  // The resource's object where the writer's answer held it, else the read's body itself (a read without the envelope).
  const at = resolvePointer(ex.response.json, expected.pointer);
  const object = isMapping(at) ? at : isMapping(ex.response.json) ? ex.response.json : {};
  return Object.entries(expected.members)
    .filter(([name, value]) => JSON.stringify(object[name]) !== JSON.stringify(value))
    .map(([name, value]) =>
      `${name}: written ${JSON.stringify(value)}, read ${Object.hasOwn(object, name) ? JSON.stringify(object[name]) : "(absent)"}`.slice(
        0,
        300,
      ),
    );
}
