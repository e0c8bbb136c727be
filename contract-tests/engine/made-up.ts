/**
 * Identifiers the suite made up, on a live target: a body member or query parameter that refers to another resource
 * (model/references.ts: `items[].menu_item_id`, `customerId`) carrying a value no answer of this run named (the
 * run had read no such resource, or could not). Its refusal says only that the resource does not exist: it grounds
 * no error, whatever the status (the request is in doubt, as one the suite could not build as promised is).
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import type { Exchange } from "../model/types.js";
import type { LinkDocument } from "../model/link-document.js";
import {
  type BodyMember,
  bodyMembers,
  pathOfPointer,
  type SchemaReader,
  typesOfMember,
  valuesAt,
} from "../model/members.js";
import { references } from "../model/references.js";
import { planOf } from "./plan.js";

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

/** Member names a server commonly keeps unique: titles, names, user names, e-mails, phone numbers, slugs, codes. */
const UNIQUE_NAMES =
  /^(.*title|.*name|login|handle|e?mail|emailaddress|phone|phonenumber|mobile|telephone|tel|slug|sku|isbn|code)$/;

/** The members of a create's body the server may keep unique (see UNIQUE_NAMES; strings outside arrays). */
export function uniqueMembers(doc: SchemaReader, op: OperationEntry): BodyMember[] {
  const pointer = planOf(op).body?.pointer;
  if (op.method !== "POST" || !pointer) return [];
  return bodyMembers(doc, pointer).filter(
    (m) =>
      !m.inArray &&
      m.schema?.enum === undefined &&
      m.schema?.const === undefined &&
      m.schema?.format !== "date-time" &&
      UNIQUE_NAMES.test(m.name.toLowerCase().replace(/[_-]/g, "")) &&
      typesOfMember(doc, m).every((t) => t === "string"),
  );
}

/**
 * Why a create's refusal (400, 409 or 422) is the run's own doing, or undefined: a member the server may keep unique
 * carries the value an earlier create of this run that succeeded sent it (`earlier`: the run's successful creates
 * of the operation; its "already exists" says only that).
 */
export function repeatsOwnValue(
  doc: SchemaReader & { has(id: string): boolean; operation(id: string): OperationEntry },
  earlier: readonly Exchange[],
  ex: Exchange,
): string | undefined {
  const status = ex.response.status;
  if ((status !== 400 && status !== 409 && status !== 422) || !doc.has(ex.operation)) return undefined;
  for (const m of uniqueMembers(doc, doc.operation(ex.operation)))
    for (const v of valuesAt(ex.request.json, m.path)) {
      if (typeof v !== "string" || v === "") continue;
      if (earlier.some((e) => e !== ex && valuesAt(e.request.json, m.path).includes(v)))
        return (
          `its member ${m.shown} repeats ${JSON.stringify(v.slice(0, 40))}, which an earlier create of this run ` +
          "sent and the server accepted: a refusal of a value the run itself created is its own doing"
        );
    }
  return undefined;
}
