/** Walks the sent and returned field trees of a schema update side by side. */
import type { Exchange } from "../types.js";
import { isObject, isSuccess, payload } from "./helpers.js";

/** A sent field and the returned field at the same position, with the returned field's instance path. */
export interface FieldPair {
  sent: Record<string, any> | undefined;
  got: Record<string, any> | undefined;
  path: string;
}

/** The sent body and returned schema of a successful updateDataSchema exchange, or undefined. */
export function schemaBodies(ex: Exchange): { sent: Record<string, any>; got: Record<string, any> } | undefined {
  const got = payload(ex);
  const sent = ex.request.json;
  if (ex.operation !== "updateDataSchema" || !isSuccess(ex) || !isObject(got) || !isObject(sent)) return undefined;
  return { sent, got };
}

/** Every position of either tree, depth first, in order (a missing side is undefined). */
export function fieldPairs(sent: unknown, got: unknown, path = "/fields"): FieldPair[] {
  const a = Array.isArray(sent) ? sent.filter(isObject) : [];
  const b = Array.isArray(got) ? got.filter(isObject) : [];
  const out: FieldPair[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    out.push({ sent: a[i], got: b[i], path: `${path}/${i}` });
    out.push(...fieldPairs(a[i]?.fields, b[i]?.fields, `${path}/${i}/fields`));
  }
  return out;
}
