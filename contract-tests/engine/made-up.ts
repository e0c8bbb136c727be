/**
 * Identifiers the suite made up, on a live target: a body member or query parameter that refers to another resource
 * (model/references.ts: `items[].menu_item_id`, `customerId`) carrying a value no answer of this run named (the
 * run had read no such resource, or could not). Its refusal says only that the resource does not exist: it grounds
 * no error, whatever the status (the request is in doubt, as one the suite could not build as promised is).
 */
import type { Exchange } from "../model/types.js";
import type { LinkDocument } from "../model/link-document.js";
import { pathOfPointer, valuesAt } from "../model/members.js";
import { references } from "../model/references.js";

/** Every identifier an answer of the run named where a reference reads it (any item of a listing). */
function read(successes: ReadonlyMap<string, readonly Exchange[]>, source: string, expr: unknown): Set<string> {
  const m = typeof expr === "string" ? /^\$response\.body#(.*)$/.exec(expr) : null;
  const out = new Set<string>();
  if (!m) return out;
  const path = pathOfPointer(m[1]!);
  for (const ex of successes.get(source) ?? []) for (const v of valuesAt(ex.response.json, path)) out.add(String(v));
  return out;
}

/**
 * Why a refused request of a live run is in doubt because it names a made-up identifier (the member and its value),
 * or undefined: every reference it carries was one an answer named (or it carries none, or the answer is no 4xx).
 */
export function madeUpReference(
  doc: LinkDocument,
  infer: boolean,
  successes: ReadonlyMap<string, readonly Exchange[]>,
  ex: Exchange,
): string | undefined {
  const status = ex.response.status;
  if (status < 400 || status >= 500) return undefined;
  for (const r of references(doc, infer)) {
    if (r.link.operationId !== ex.operation) continue;
    const sent =
      r.in === "query"
        ? [ex.request.query[r.member] ?? []].flat()
        : valuesAt(ex.request.json, r.path).flatMap((v) => (Array.isArray(v) ? v : [v]));
    if (sent.length === 0) continue;
    const real = read(successes, r.source, Object.values(r.link.parameters)[0]);
    const madeUp = sent.find((v) => (typeof v === "string" || typeof v === "number") && !real.has(String(v)));
    if (madeUp !== undefined)
      return (
        `it names ${JSON.stringify(madeUp)} in ${r.in === "query" ? "the query parameter" : "the body member"} ` +
        `${r.member}, an identifier the suite made up (no answer of ${r.source} named it): its refusal says only ` +
        "that no such resource exists"
      );
  }
  return undefined;
}
