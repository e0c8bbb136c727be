/**
 * Body values a live run takes from the run itself rather than from the schema: identifiers the client chooses (a
 * create's title that a path then addresses), fresh for every create, and members that refer to another resource
 * (an order's item_id), from the answers that named one. engine/values.ts puts them into a request's body.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping, toPointer } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import { evaluate, linksFrom } from "../model/links.js";
import { references } from "../model/references.js";
import { validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import type { ScenarioContext } from "./scenario.js";

/**
 * The body member of `op` through which the client chooses the identifier a producer link reads (`$request.body#/x`,
 * or `$response.body#/x` where the request sends `x` too), or undefined.
 */
export function chosenMember(ctx: ScenarioContext, op: OperationEntry, expr: unknown): string | undefined {
  const pointer = planOf(op).body?.pointer;
  const m = typeof expr === "string" ? /^\$(request|response)\.body#\/([^/]+)$/.exec(expr) : null;
  if (!pointer || !m) return undefined;
  const member = m[2]!.replace(/~1/g, "/").replace(/~0/g, "~");
  const { schema } = ctx.model.deref({ $ref: `#${pointer}` }, pointer);
  return Object.hasOwn((schema?.properties ?? {}) as object, member) ? member : undefined;
}

/**
 * The first of `candidates`, else of `count` values generated from the seed, that `accept` takes and the schema of
 * the body member `member` accepts (the body at `bodyPointer`, its `$ref` followed); undefined when none is.
 */
export function firstValidMember(
  model: SpecModel,
  bodyPointer: string,
  member: string,
  candidates: readonly unknown[],
  generated: { count: number; seed: number },
  accept: (v: unknown) => boolean = () => true,
): unknown {
  const at = `${model.deref({ $ref: `#${bodyPointer}` }, bodyPointer).pointer}/properties${toPointer([member])}`;
  const valid = (v: unknown) => accept(v) && model.validator.validate(at, v).length === 0;
  return candidates.find(valid) ?? validSamples(model, at, generated.count, generated.seed).find(valid);
}

/** Values a live run has chosen for identifiers the client chooses, so none is chosen twice. */
const CHOSEN = new WeakMap<object, Set<string>>();

/**
 * Fresh values for the body members of a create that choose its resource's identifier (the producer link reads
 * `$request.body#/book_title`): valid for the member's schema, never one this run chose before.
 */
export function freshIdentifiers(ctx: ScenarioContext, op: OperationEntry): Record<string, unknown> {
  const pointer = planOf(op).body?.pointer;
  if (op.method !== "POST" || !pointer) return {};
  const chosen = CHOSEN.get(ctx.state.resources) ?? new Set<string>();
  CHOSEN.set(ctx.state.resources, chosen);
  const out: Record<string, unknown> = {};
  for (const { link } of linksFrom(ctx.model, ctx.settings.inferLinks, op.operationId))
    for (const expr of Object.values(link.parameters)) {
      // The identifier is the client's when the link reads it from the request, or from an answer's member the
      // request also sends (the create echoes the title it was given).
      const member = chosenMember(ctx, op, expr);
      if (!member || Object.hasOwn(out, member)) continue;
      const tag = `${(chosen.size + 1).toString(36)}${Date.now().toString(36).slice(-6)}`;
      const value = firstValidMember(
        ctx.model,
        pointer,
        member,
        [`cs${tag}`, `cs-${tag}`, `contract.suite.${tag}@example.com`, Number.parseInt(tag, 36)],
        { count: 8, seed: ctx.settings.seed + chosen.size },
        (v) => !chosen.has(String(v)),
      );
      if (value === undefined) continue;
      chosen.add(String(value));
      out[member] = value;
    }
  return out;
}

/**
 * `body` with the members of `op` that refer to another resource (an order's item_id) set to identifiers answers
 * named, on a live target: a generated body refers to what exists.
 */
export function withReferences(ctx: ScenarioContext, op: OperationEntry, body: unknown): unknown {
  if (ctx.settings.kind !== "live" || !isMapping(body)) return body;
  const referred = referencedMembers(ctx, op);
  return Object.keys(referred).length ? { ...body, ...referred } : body;
}

/** Identifiers for the body members of `op` that refer to a resource, from the answers that named such ones. */
export function referencedMembers(ctx: ScenarioContext, op: OperationEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of references(ctx.model, ctx.settings.inferLinks)) {
    if (r.link.operationId !== op.operationId || Object.hasOwn(out, r.member)) continue;
    const expr = Object.values(r.link.parameters)[0];
    const value = (ctx.state.successes.get(r.source) ?? [])
      .map((ex) => evaluate(expr, ex))
      .filter((v) => v !== undefined && v !== null)
      .at(-1);
    if (value !== undefined && value !== null && typeof value !== "object") out[r.member] = value;
  }
  return out;
}
