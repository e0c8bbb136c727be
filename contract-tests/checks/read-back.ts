/** Comparing what a read shows with what a create or an update wrote (resource_availability, update_persisted). */
import { isMapping } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import type { Exchange, ReadBack } from "../model/types.js";

/** An RFC 3339 date-time: two texts of one instant are the same value. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** True when a read's value is the value written: the same JSON, or the same instant written another way. */
export function sameValue(written: unknown, read: unknown): boolean {
  if (JSON.stringify(written) === JSON.stringify(read)) return true;
  if (typeof written === "string" && typeof read === "string" && DATE_TIME.test(written) && DATE_TIME.test(read))
    return Date.parse(written.replace(" ", "T")) === Date.parse(read.replace(" ", "T"));
  return false;
}

/** The members of `expected` the read's object shows differently (or not at all), each as `name: wrote X, read Y`. */
export function differences(ex: Exchange, expected: ReadBack, absentCounts = true): string[] {
  // The resource's object where the writer's answer held it, else the read's body itself (a read without the envelope).
  const at = resolvePointer(ex.response.json, expected.pointer);
  const object = isMapping(at) ? at : isMapping(ex.response.json) ? ex.response.json : {};
  return Object.entries(expected.members)
    .filter(([name, value]) => (absentCounts || Object.hasOwn(object, name)) && !sameValue(value, object[name]))
    .map(([name, value]) =>
      `${name}: written ${JSON.stringify(value)}, read ${Object.hasOwn(object, name) ? JSON.stringify(object[name]) : "(absent)"}`.slice(
        0,
        300,
      ),
    );
}
