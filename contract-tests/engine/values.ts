/**
 * Where every value of a request comes from: the settings (CONTRACT_PARAMS), links from earlier successful answers
 * (written or inferred), resources the run created, documented examples, generated data (and, through
 * body-values.ts, the body members a live run fills from the run itself: identifiers the client chooses, references).
 * On a live target an operation that changes data takes only identifiers the settings name or of resources the
 * run created that still exist; what it needs and does not have, it creates first (`ready`). Each function
 * returns the values, or the typed reason the scenario cannot have them (never throws one).
 */
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { configuredValue, type Settings } from "../config/settings.js";
import { evaluate, familyOf, linkParameter, linksTo } from "../model/links.js";
import { references } from "../model/references.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import { isSkip, reason, type SkipReason } from "../model/skip.js";
import type { Exchange } from "../model/types.js";
import { dotSegmentIn } from "../transport/boundary.js";
import { fromWire } from "../model/wire-values.js";
import { jsonType, validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import { freshIdentifiers, freshUnique, noteReference, referencedMembers, referencedValue } from "./body-values.js";
import { bodyMembers, setAt, valuesAt } from "../model/members.js";
import {
  bucketOf,
  cloneValues,
  emptyValues,
  exampleProblem,
  serialize,
  toRequest,
  wireLoss,
  type Values,
} from "./requests.js";
import { aliveOf, isAlive, isDeleted, producersOf, type Resource } from "./resources.js";
import type { ScenarioContext } from "./scenario.js";

/** A value for one parameter: configured, else a documented example that is valid, else generated from its schema. */
export function parameterValue(
  model: SpecModel,
  settings: Settings,
  op: OperationEntry,
  p: ParameterEntry,
  useExamples: boolean,
): { value: unknown } | undefined {
  const configured = configuredValue(settings, op.operationId, p.name);
  if (configured.found) return { value: configured.value };
  const example = useExamples ? p.examples.find((e) => !exampleProblem(model, op, p, e.value)) : undefined;
  if (example) return { value: example.value };
  const [sample] = validSamples(model, p.schemaPointer, 1, settings.seed);
  return sample === undefined ? undefined : { value: sample };
}

/** Top-level body members the settings pin (e.g. `createSitemapRequest.url`), applied over an object body. */
export function withConfiguredMembers(settings: Settings, op: OperationEntry, body: unknown, except?: string): unknown {
  if (jsonType(body) !== "object") return body;
  const out = Object.assign(Object.create(null) as Record<string, unknown>, body as Record<string, unknown>);
  for (const key of Object.keys(settings.params)) {
    const [opId, name] = key.includes(".") ? key.split(".", 2) : [op.operationId, key];
    if (
      opId === op.operationId &&
      name &&
      name !== except &&
      !op.parameters.some((p) => p.name === name) &&
      (Object.hasOwn(out, name) || key.includes("."))
    )
      out[name] = settings.params[key];
  }
  return out;
}

/** Headers Node's fetch (undici) adds to a request that does not set them. */
const TRANSPORT_HEADERS = new Set(["accept-encoding", "accept-language", "sec-fetch-mode"]);

/**
 * The base request of an operation: required parameters and the body, from settings, examples or generated
 * data. A path parameter takes, in this order: `own` (a resource the run created, or one a step names), the
 * settings (CONTRACT_PARAMS supplies ids only where the run has none), `linked` (a value a link fed). On a live
 * target it comes only from these (the suite never writes to a resource it was not given).
 */
export function baseValues(
  model: SpecModel,
  settings: Settings,
  op: OperationEntry,
  linked: Record<string, unknown> = {},
  own: Record<string, unknown> = {},
): Values | SkipReason {
  const live = settings.kind === "live";
  const values = emptyValues();
  for (const p of op.parameters) {
    if (p.in === "path") {
      const configured = configuredValue(settings, op.operationId, p.name);
      if (Object.hasOwn(own, p.name)) values.path[p.name] = own[p.name];
      else if (configured.found) values.path[p.name] = configured.value;
      else if (Object.hasOwn(linked, p.name)) values.path[p.name] = linked[p.name];
      else if (live) return { kind: "needs-value", operation: op.operationId, name: p.name, safe: op.safe };
      else {
        const v = parameterValue(model, settings, op, p, true);
        if (!v) return reason("no-value", `no value for the path parameter ${p.name}`);
        values.path[p.name] = v.value;
      }
      continue;
    }
    // A header the transport writes itself when the request has none (fetch's Accept-Encoding, say) is sent
    // with a valid value, so the request never carries one the document rules out that the suite did not choose.
    const transportOwned = p.in === "header" && TRANSPORT_HEADERS.has(p.name.toLowerCase());
    if (!p.required && !transportOwned) continue;
    const v = parameterValue(model, settings, op, p, true);
    if (!v) {
      if (!p.required) continue;
      return reason("no-value", `no value for the required ${p.in} parameter ${p.name}`);
    }
    bucketOf(values, p.in)[p.name] = v.value;
  }
  const media = planOf(op).body?.media;
  const written = op.requestBody?.content.map((m) => m.mediaType) ?? [];
  if (!media && op.requestBody?.required && written.length > 0)
    return reason(
      "body",
      `the request body is ${written.join(" or ")}, which the suite does not write ` +
        `(it writes JSON, URL-encoded and multipart forms, and text)`,
    );
  if (media) {
    const example = media.examples.find((e) => !exampleProblem(model, op, "body", e.value));
    const pointer = media.schemaPointer;
    const [first] = example || !pointer ? [] : validSamples(model, pointer, 1, settings.seed);
    // A generated body the wire carries as it is (see wireLoss) is preferred to one it cannot.
    const carried =
      pointer && first !== undefined && wireLoss(model, op, first)
        ? validSamples(model, pointer, 5, settings.seed).find((b) => !wireLoss(model, op, b))
        : undefined;
    const body = example ? example.value : pointer ? (carried ?? first) : {};
    if (body === undefined)
      return reason(
        "body",
        `no valid ${media.mediaType} body could be generated from the schema at ${media.schemaPointer} ` +
          `(none that ajv accepts); give the request body an example in the document`,
      );
    values.body = { value: withConfiguredMembers(settings, op, structuredClone(body)) };
  }
  return values;
}

/**
 * May `value` fill the path parameter `name` of `op`? Never an identifier a successful delete removed; on a
 * live target an operation that changes data takes only a resource the run created and that still exists.
 */
function usable(ctx: ScenarioContext, op: OperationEntry, name: string, value: unknown): boolean {
  const family = familyOf(op.path, name);
  if (!family) return true;
  if (isDeleted(ctx.state.resources, family, value)) return false;
  return op.safe || ctx.settings.kind !== "live" || isAlive(ctx.state.resources, family, value);
}

/**
 * A response's `.` or `..` (or `../../admin`) fed by a link into a path parameter is refused, as CONTRACT_PARAMS
 * refuses it (the request boundary would too).
 */
export function dotValueRefusal(link: string, source: string, name: string, value: unknown): SkipReason | undefined {
  if (typeof value !== "string" || dotSegmentIn(value) === undefined) return undefined;
  return reason(
    "refused",
    `refused: the link ${link} gave the path parameter ${name} the value ${JSON.stringify(value)} ` +
      `from a ${source} response; a dot segment would send the request to another path`,
  );
}

/** True when `value`, written on the wire as `p` is, is valid for `p`'s schema as the server reads it back. */
export function fitsParameter(ctx: ScenarioContext, p: ParameterEntry, value: unknown): boolean {
  if (!p.schemaPointer) return true;
  return ctx.model.validator.validate(p.schemaPointer, fromWire(ctx.model, p, serialize(p, value))).length === 0;
}

/** Values for the link-fed parameters of `op` from earlier successful responses (live targets use only these). */
export function linkedValues(ctx: ScenarioContext, op: OperationEntry): Map<string, unknown[]> | SkipReason {
  const out = new Map<string, unknown[]>();
  for (const { source, link, inferred } of linksTo(ctx.model, ctx.settings.inferLinks, op.operationId))
    for (const ex of ctx.state.successes.get(source) ?? [])
      for (const [name, expr] of Object.entries(link.parameters)) {
        const p = linkParameter(op, name);
        const v = evaluate(expr, ex);
        const refused = p?.in === "path" ? dotValueRefusal(link.name, source, p.name, v) : undefined;
        if (refused) return refused;
        // An inferred link is the suite's guess: a value it gives that the parameter's schema rules out (another
        // family's identifier outside this one's enum) is no valid input, and is not sent as one.
        if (p && v !== undefined && inferred && !fitsParameter(ctx, p, v)) continue;
        if (p && v !== undefined) out.set(p.name, [...(out.get(p.name) ?? []), v]);
      }
  return out;
}

/** Why a schema the requests of `op` are built from cannot be compiled, naming the document's problem. */
function uncompilable(ctx: ScenarioContext, op: OperationEntry): SkipReason | undefined {
  const pointers = [planOf(op).body?.pointer, ...op.parameters.map((p) => p.schemaPointer)];
  for (const pointer of pointers) {
    const problem = pointer ? ctx.model.validator.problem(pointer) : undefined;
    if (problem) return reason("document", problem);
  }
  return undefined;
}

/**
 * The base values of `op`. A path parameter takes `linked` (what a step names: the resource it is about), else a
 * value a link fed from an earlier answer that names a resource the run created and that exists, else on a live
 * target the newest such resource of its family, else the settings, else any other value a link fed (see
 * `usable`): the run's own resources first.
 */
export function base(ctx: ScenarioContext, op: OperationEntry, linked?: Record<string, unknown>): Values | SkipReason {
  const problem = uncompilable(ctx, op);
  if (problem) return problem;
  const fed = linkedValues(ctx, op);
  if (isSkip(fed)) return fed;
  const fromLinks: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [name, vs] of fed) {
    const ok = vs.filter((v) => usable(ctx, op, name, v));
    if (!ok.length || !op.parameters.some((p) => p.in === "path" && p.name === name)) continue;
    const family = familyOf(op.path, name);
    const created = family ? ok.filter((v) => isAlive(ctx.state.resources, family, v)) : [];
    if (created.length) own[name] = created.at(-1);
    else fromLinks[name] = ok.at(-1);
  }
  if (ctx.settings.kind === "live")
    for (const p of op.parameters.filter((x) => x.in === "path" && !Object.hasOwn(own, x.name))) {
      const family = familyOf(op.path, p.name);
      const alive = family && aliveOf(ctx.state.resources, family);
      if (alive) own[p.name] = alive.value;
    }
  const values = baseValues(ctx.model, ctx.settings, op, fromLinks, { ...own, ...linked });
  if (isSkip(values) || ctx.settings.kind !== "live") return values;
  // A query parameter that refers to another resource (`customerId`) and is sent takes an identifier an answer named.
  for (const r of references(ctx.model, ctx.settings.inferLinks))
    if (r.link.operationId === op.operationId && r.in === "query" && Object.hasOwn(values.query, r.member)) {
      const value = referencedValue(ctx, r);
      if (value === undefined) continue;
      values.query[r.member] = r.list ? [value] : value;
      noteReference(ctx, r.link.name);
    }
  if (!isMapping(values.body?.value)) return values;
  // A body member that refers to another resource (an order's item_id, at any depth: `items[].menu_item_id`) takes
  // an identifier an answer named, and an identifier the client chooses (a title, a user name) a fresh one: the
  // document's example is taken already.
  let body: unknown = values.body!.value;
  for (const { path, value } of [...referencedMembers(ctx, op), ...freshIdentifiers(ctx, op)])
    body = setAt(body, path, value);
  // The other members a server may keep unique (a title, an e-mail, a phone number) fresh in every create too.
  values.body = { value: freshUnique(ctx, op, body, true) };
  return values;
}

/**
 * On a live target, creates what the path parameters of `op` need where the settings name no value and no
 * usable one is known (a safe operation may read a listed one): the run then needs no id from the user.
 */
async function ready(ctx: ScenarioContext, op: OperationEntry, depth = 0): Promise<void> {
  if (ctx.settings.kind !== "live" || depth > 3) return;
  // A body member that refers to another resource needs an identifier an answer named: the listing it comes from
  // is asked once, when nothing has been listed yet (this run's phases may not list it).
  for (const r of references(ctx.model, ctx.settings.inferLinks)) {
    if (r.link.operationId !== op.operationId || ctx.state.successes.get(r.source)?.length) continue;
    const source = ctx.model.operation(r.source);
    const v = source.method === "GET" ? base(ctx, source) : undefined;
    if (v && !isSkip(v))
      await ctx.send(toRequest(source, v), {
        cause: `the listing an identifier of ${op.operationId}'s body comes from`,
      });
  }
  const linked = linkedValues(ctx, op);
  for (const p of op.parameters.filter((x) => x.in === "path")) {
    const family = familyOf(op.path, p.name);
    if (!family || configuredValue(ctx.settings, op.operationId, p.name).found) continue;
    if (aliveOf(ctx.state.resources, family)) continue;
    if (!isSkip(linked) && (linked.get(p.name) ?? []).some((v) => usable(ctx, op, p.name, v))) continue;
    if (producersOf(ctx.model, ctx.settings.inferLinks, family).length) await ctx.produce(family, depth + 1);
  }
}

/** `ready`, then `base`: the values of a request of `op` on what exists now. */
export async function readyBase(
  ctx: ScenarioContext,
  op: OperationEntry,
  linked?: Record<string, unknown>,
): Promise<Values | SkipReason> {
  await ready(ctx, op);
  return base(ctx, op, linked);
}

/** True when the (dereferenced) schema is an array's. */
export const isArraySchema = (model: SpecModel, schema: unknown): boolean =>
  model.deref(schema, "").schema?.type === "array";

/** True when a link (written or inferred) feeds the parameter `name` of `op`: an identifier from a response. */
export const isLinkTarget = (model: SpecModel, infer: boolean, op: OperationEntry, name: string): boolean =>
  linksTo(model, infer, op.operationId).some((l) =>
    Object.keys(l.link.parameters).some((k) => linkParameter(op, k)?.name === name),
  );

/** A value for a parameter whose schema is an array: a single value becomes a one-item array. */
export const fitted = (model: SpecModel, p: Pick<ParameterEntry, "schema"> | undefined, value: unknown): unknown =>
  p && isArraySchema(model, p.schema) && !Array.isArray(value) ? [value] : value;

/**
 * The bodies a refused create is tried with before the run gives up on it: the document's example (an example
 * that breaks its schema is not one), and the body with every member set (each optional member the schema lists,
 * at any depth, given a valid value); each with the run's references and fresh unique values, as `base` gives.
 */
function fallbackBodies(ctx: ScenarioContext, op: OperationEntry, body: unknown): unknown[] {
  const media = planOf(op).body;
  if (!media?.pointer || !isMapping(body)) return [];
  const out: unknown[] = [];
  const example = media.media.examples.find((e) => !exampleProblem(ctx.model, op, "body", e.value));
  if (example) out.push(structuredClone(example.value));
  let full: unknown = body;
  for (const m of bodyMembers(ctx.model, media.pointer)) {
    if (m.inArray || m.schema?.readOnly === true) continue;
    const parent = m.path.slice(0, -1);
    const holders = parent.length ? valuesAt(full, parent) : [full];
    if (holders.length !== 1 || !isMapping(holders[0]) || Object.hasOwn(holders[0], m.name)) continue;
    const [sample] = validSamples(ctx.model, m.pointer, 1, ctx.settings.seed + m.path.length);
    if (sample !== undefined) full = setAt(full, m.path, sample);
  }
  if (JSON.stringify(full) !== JSON.stringify(body)) out.push(full);
  return out.map((b) => {
    let v: unknown = withConfiguredMembers(ctx.settings, op, b);
    for (const { path, value } of [...referencedMembers(ctx, op), ...freshIdentifiers(ctx, op)])
      v = setAt(v, path, value);
    return freshUnique(ctx, op, v, true);
  });
}

/**
 * Sends a create of `op` with `values`; on a live target a 4xx is not yet the create's verdict: it is tried again
 * with the document's example and with every member set (see fallbackBodies), each judged as the first was
 * (`judge` gives the options for the values sent). The first that succeeds, or the last refusal, and its values.
 */
export async function sendCreate(
  ctx: ScenarioContext,
  op: OperationEntry,
  values: Values,
  judge: (v: Values) => Parameters<ScenarioContext["send"]>[1],
): Promise<{ ex: Exchange; values: Values }> {
  let ex = await ctx.send(toRequest(op, values), judge(values));
  const refused = (e: Exchange) => e.response.status >= 400 && e.response.status < 500;
  if (ctx.settings.kind !== "live" || !refused(ex)) return { ex, values };
  let last = values;
  for (const body of fallbackBodies(ctx, op, values.body?.value)) {
    const v: Values = { ...cloneValues(values), body: { value: body } };
    ex = await ctx.send(toRequest(op, v), judge(v));
    last = v;
    if (!refused(ex)) break;
  }
  return { ex, values: last };
}

/** Creates a resource of `family` with the first create that produces it; undefined when none could. */
export async function produce(ctx: ScenarioContext, family: string, depth = 0): Promise<Resource | undefined> {
  if (depth > 4) return undefined;
  for (const l of producersOf(ctx.model, ctx.settings.inferLinks, family)) {
    const op = ctx.model.operation(l.source);
    await ready(ctx, op, depth);
    const values = base(ctx, op);
    if (isSkip(values)) continue;
    const { ex } = await sendCreate(ctx, op, values, () => ({ cause: `a create of ${family} another request needs` }));
    const made = ctx.state.resources.created.find((r) => r.created === ex && r.family === family);
    if (made) return made;
  }
  return undefined;
}
