/**
 * Lifecycles of identified resources on a live target, read from the document's creates, reads, updates,
 * deletes and listings (links written or inferred): created -> readable as created, listed, updated -> read
 * back as sent, deleted -> gone (use after free); identifiers that do not exist are refused; and at the end
 * what the run created is deleted again, the report saying what was created and what was left behind.
 */
import { isMapping } from "../../openapi/lib/spec.js";
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { toPointer } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isSuccess } from "../model/exchange.js";
import type { SpecModel } from "../model/model.js";
import type { Settings } from "../config/settings.js";
import { SkipScenario, type RequestSpec } from "../transport/target.js";
import type { CheckContext, Exchange } from "../model/types.js";
import { boundaries, INT32_MAX, INT64_MAX, validSamples, typesOf } from "./generate.js";
import { allLinks, bodyMember, familyOf, linkParameter, type SourcedLink } from "../model/links.js";
import { base, ready } from "./phases.js";
import { baseValues, cloneValues, expandPath, toRequest, withConfiguredMembers, type Values } from "./requests.js";
import { planOf } from "./plan.js";
import { aliveOf, isDeleted, itemOf, producersOf, type Resource } from "./resources.js";
import type { Scenario, ScenarioContext } from "./scenario.js";
import { NEEDS_LIVE, skip } from "./skip.js";

/** Past the largest signed 64-bit integer: an identifier no store can hold, sent as text. */
const PAST_INT64 = String(INT64_MAX + 1n);

/** Creates a resource of `family` with the first create that produces it; undefined when none could. */
export async function produce(ctx: ScenarioContext, family: string, depth = 0): Promise<Resource | undefined> {
  if (depth > 4) return undefined;
  for (const l of producersOf(ctx.model, ctx.settings.inferLinks, family)) {
    const op = ctx.model.operation(l.source);
    let values: Values;
    try {
      await ready(ctx, op, depth);
      values = base(ctx, op);
    } catch (err) {
      if (err instanceof SkipScenario) continue;
      throw err;
    }
    const ex = await ctx.send(toRequest(op, values));
    const made = ctx.state.resources.created.find((r) => r.created === ex && r.family === family);
    if (made) return made;
  }
  return undefined;
}

/**
 * On a live target, a request naming an identifier a successful delete removed gets one the run created that
 * exists now (created for it when none does): a probe never meets a resource the run already deleted, and a
 * delete is never sent again to what it removed as if it were fresh input.
 */
export async function substitute(
  ctx: ScenarioContext,
  spec: RequestSpec,
  intent: CheckContext["intent"] | undefined,
): Promise<RequestSpec> {
  if (ctx.settings.kind !== "live" || !spec.pathParams || intent === "after-delete" || intent === "unknown-resource")
    return spec;
  if (!ctx.model.has(spec.operation)) return spec;
  const op = ctx.model.operation(spec.operation);
  let params = spec.pathParams;
  for (const [name, value] of Object.entries(spec.pathParams)) {
    const family = familyOf(op.path, name);
    if (!family || !isDeleted(ctx.state.resources, family, value)) continue;
    const r = aliveOf(ctx.state.resources, family) ?? (await ctx.produce(family));
    if (r) params = { ...params, [name]: r.value };
  }
  return params === spec.pathParams ? spec : { ...spec, pathParams: params, path: expandPath(op, params) };
}

const objectAt = (json: unknown, pointer: string): Record<string, unknown> => {
  const at = resolvePointer(json, pointer);
  return isMapping(at) ? at : {};
};

/** The members of a sent body that the answer's object shows with the same value. */
function echoed(sent: unknown, answer: Record<string, unknown>): Record<string, unknown> {
  if (!isMapping(sent)) return {};
  return Object.fromEntries(
    Object.entries(sent).filter(
      ([k, v]) => Object.hasOwn(answer, k) && JSON.stringify(answer[k]) === JSON.stringify(v),
    ),
  );
}

/** The operations of one resource family. */
interface Family {
  family: string;
  param: string;
  producer: SourcedLink;
  read?: OperationEntry;
  updates: OperationEntry[];
  remove?: OperationEntry;
  /** The listing of the collection, with the link that reads identifiers from its items. */
  list?: { op: OperationEntry; items: string; member: string };
}

function familiesOf(model: SpecModel, settings: Settings, operations: OperationEntry[]): Family[] {
  const out: Family[] = [];
  const links = allLinks(model, settings.inferLinks);
  // Families with a producer first (cheap, indexed); only they need the document's paths and links walked.
  const wanted = new Map<string, { param: string; producer: SourcedLink }>();
  for (const op of operations) {
    const item = itemOf(op);
    if (!item || wanted.has(item.family)) continue;
    const [producer] = producersOf(model, settings.inferLinks, item.family);
    if (producer) wanted.set(item.family, { param: item.param, producer });
  }
  if (wanted.size === 0) return out;
  const byPath = new Map<string, OperationEntry[]>();
  for (const o of model.operations) byPath.set(o.path, [...(byPath.get(o.path) ?? []), o]);
  const lists = new Map<string, NonNullable<Family["list"]>>();
  for (const l of links) {
    if (!model.has(l.source) || !model.has(l.link.operationId)) continue;
    const source = model.operation(l.source);
    const target = model.operation(l.link.operationId);
    if (source.method !== "GET") continue;
    for (const [name, expr] of Object.entries(l.link.parameters)) {
      const p = linkParameter(target, name);
      const family = p?.in === "path" ? familyOf(target.path, p.name) : undefined;
      const at = bodyMember(expr);
      const parts = at?.object.split("/") ?? [];
      const index = parts.lastIndexOf("0");
      if (!family || !at || index < 0 || lists.has(family) || source.path !== family.slice(0, family.lastIndexOf("/")))
        continue;
      lists.set(family, {
        op: source,
        items: parts.slice(0, index).join("/"),
        member: `${parts.length > index + 1 ? `/${parts.slice(index + 1).join("/")}` : ""}${toPointer([at.member])}`,
      });
    }
  }
  for (const [family, { param, producer }] of wanted) {
    const on = (method: string) => (byPath.get(family) ?? []).filter((o) => o.method === method);
    const list = lists.get(family);
    out.push({
      family,
      param,
      producer,
      ...(on("GET")[0] ? { read: on("GET")[0] } : {}),
      updates: [...on("PUT"), ...on("PATCH")],
      ...(on("DELETE")[0] ? { remove: on("DELETE")[0] } : {}),
      ...(list ? { list } : {}),
    });
  }
  return out;
}

/** A valid body for `op` that differs from `sent` in as many members as can be (so an update is seen). */
function differentBody(ctx: ScenarioContext, op: OperationEntry, sent: unknown, fallback: Values["body"]) {
  const pointer = planOf(op).body?.pointer;
  if (!pointer) return fallback;
  const was = sent !== null && typeof sent === "object" ? (sent as Record<string, unknown>) : {};
  const score = (b: unknown) =>
    isMapping(b) ? Object.entries(b).filter(([k, v]) => JSON.stringify(was[k]) !== JSON.stringify(v)).length : 0;
  const best = validSamples(ctx.model, pointer, 6, ctx.settings.seed + 17)
    .map((b) => withConfiguredMembers(ctx.settings, op, b))
    .sort((a, b) => score(b) - score(a))[0];
  return best !== undefined && score(best) > 0 ? { value: best } : fallback;
}

/** Paging parameters of a listing: any integer query parameter, or one named for pages, cursors or offsets. */
const PAGING = /page|cursor|offset|after|before|token|limit|size|skip|start|count/i;

async function lifecycle(ctx: ScenarioContext, f: Family): Promise<void> {
  if (ctx.settings.kind !== "live") skip(NEEDS_LIVE);
  const create = ctx.model.operation(f.producer.source);
  await ready(ctx, create);
  const created = await ctx.send(toRequest(create, base(ctx, create)));
  if (!isSuccess(created)) skip(`skipped: the create ${create.operationId} answered status ${created.response.status}`);
  const made = ctx.state.resources.created.find((r) => r.created === created && r.family === f.family);
  if (!made) skip(`skipped: the answer of ${create.operationId} named no identifier for ${f.family}`);
  const id = { [f.param]: made.value };
  const expr = Object.values(f.producer.link.parameters)[0];
  const at = bodyMember(expr) ?? { object: "", member: "" };
  const read = async (ctxExtra: Partial<CheckContext>) =>
    f.read ? ctx.send(toRequest(f.read, base(ctx, f.read, id)), { intent: "acceptance", ...ctxExtra }) : undefined;
  // created -> readable: the identifier and the members the create echoed read back the same.
  const createdObject = objectAt(created.response.json, at.object);
  const members = {
    ...echoed(created.request.json, createdObject),
    ...(at.member && Object.hasOwn(createdObject, at.member) ? { [at.member]: createdObject[at.member] } : {}),
  };
  await read({ readBack: { after: "created", writer: create.operationId, members, pointer: at.object } });
  // listed -> present: the first page, as large as the listing allows.
  if (f.list) {
    const list = f.list.op;
    const v = base(ctx, list);
    const query = list.parameters.filter((p) => p.in === "query");
    const paged = query.some((p) => PAGING.test(p.name) || ctx.model.deref(p.schema, "").schema?.type === "integer");
    let pageSize: number | undefined;
    for (const p of query) {
      const s = ctx.model.deref(p.schema, "").schema;
      if (
        s?.type === "integer" &&
        typeof s.maximum === "number" &&
        /limit|size|per_?page|count|max|top/i.test(p.name)
      ) {
        pageSize = s.maximum;
        v.query[p.name] = s.maximum;
      }
    }
    const ex = await ctx.send(toRequest(list, v));
    const items = resolvePointer(ex.response.json, f.list.items);
    const complete = !paged || (pageSize !== undefined && Array.isArray(items) && items.length < pageSize);
    ctx.verdict.only(ex, ["listed_after_create"], {
      intent: "acceptance",
      listed: { id: made.value, pointer: f.list.items, member: f.list.member, complete, createdBy: create.operationId },
    });
  }
  // updated -> read back: members the update's own answer echoed read back as sent.
  for (const u of f.updates) {
    const v = base(ctx, u, id);
    const body = differentBody(ctx, u, created.request.json, v.body);
    const ex = await ctx.send(toRequest(u, body ? { ...cloneValues(v), body } : v));
    if (!isSuccess(ex) || !f.read) continue;
    const sent = echoed(ex.request.json, objectAt(ex.response.json, at.object));
    if (Object.keys(sent).length)
      await read({ readBack: { after: "updated", writer: u.operationId, members: sent, pointer: at.object } });
  }
  // deleted -> gone: a read, an update and the delete again each answer a 4xx.
  if (!f.remove) return;
  const removed = await ctx.send(toRequest(f.remove, base(ctx, f.remove, id)));
  if (!isSuccess(removed)) return;
  const after = { intent: "after-delete" as const, deletedBy: f.remove.operationId };
  if (f.read) await ctx.send(toRequest(f.read, base(ctx, f.read, id)), after);
  for (const u of f.updates) await ctx.send(toRequest(u, base(ctx, u, id)), after);
  await ctx.send(toRequest(f.remove, base(ctx, f.remove, id)), after);
}

/**
 * Whether the operation's last path parameter may be sent an identifier: a safe operation always; one that
 * changes data only an identifier that cannot name a stored resource (past 64 bits, for an integer, or one
 * its schema rules out).
 */
function pastInt64Sendable(model: SpecModel, op: OperationEntry): boolean {
  const item = itemOf(op);
  const p = item && planOf(op).parameters.path.get(item.param);
  if (!p) return false;
  if (op.safe) return true;
  const types = typesOf(model.deref(p.schema, p.schemaPointer).schema ?? {});
  return (
    types.includes("integer") ||
    types.includes("number") ||
    model.validator.validate(p.schemaPointer, PAST_INT64).length > 0
  );
}

/**
 * Identifiers every store refuses or lacks: a well-formed unknown one and one at the type's edge (safe operations),
 * one past 64 bits (any).
 */
async function unknownIds(ctx: ScenarioContext, op: OperationEntry): Promise<void> {
  if (ctx.settings.kind !== "live") skip(NEEDS_LIVE);
  const item = itemOf(op);
  const p = item && planOf(op).parameters.path.get(item.param);
  if (!item || !p) skip("skipped: the path ends in no identifier");
  // Parents of the identifier as the run knows them (so the probe reaches the identifier), else generated
  // values, as for the mock: the identifier itself is replaced below by one no store holds.
  let known: Values | undefined;
  try {
    known = base(ctx, op);
  } catch (err) {
    if (!(err instanceof SkipScenario)) throw err;
  }
  const b = known ? { values: known } : baseValues(ctx.model, { ...ctx.settings, kind: "mock" }, op);
  if ("skip" in b) skip(b.skip);
  const schema = ctx.model.deref(p.schema, p.schemaPointer).schema ?? {};
  const types = typesOf(schema);
  const integer = types.includes("integer") || types.includes("number");
  const seen = new Set(ctx.state.resources.created.map((r) => String(r.value)));
  const valid = (v: unknown) => ctx.model.validator.validate(p.schemaPointer, v).length === 0;
  const values: unknown[] = [];
  if (op.safe) {
    const wellFormed = integer
      ? [987654321, 2147483646, 99999].find((v) => valid(v) && !seen.has(String(v)))
      : validSamples(ctx.model, p.schemaPointer, 8, ctx.settings.seed + 29).find(
          (v) => typeof v === "string" && v !== "" && !seen.has(v),
        );
    if (wellFormed !== undefined) values.push(wellFormed);
    const edge = integer
      ? typeof schema.maximum === "number"
        ? schema.maximum
        : schema.format === "int32"
          ? INT32_MAX
          : String(INT64_MAX)
      : boundaries(ctx.model, p.schema)
          .map((x) => x.value)
          .filter((v) => typeof v === "string" && v !== "" && valid(v) && !seen.has(v))
          .at(-1);
    if (edge !== undefined && !values.includes(edge)) values.push(edge);
  }
  // Past 64 bits: no store holds it. A text id that the schema allows might name one: only a safe operation gets it.
  if (pastInt64Sendable(ctx.model, op)) values.push(PAST_INT64);
  for (const value of values) {
    const v = cloneValues(b.values);
    v.path[p.name] = value;
    await ctx.send(toRequest(op, v), { intent: "unknown-resource", unknownIn: "path", foreignIds: [String(value)] });
  }
}

/**
 * The lifecycle scenarios of the selected operations: one per resource family that a create produces, and the
 * unknown-identifier probes.
 */
export function lifecycleScenarios(model: SpecModel, settings: Settings, operations: OperationEntry[]): Scenario[] {
  const out: Scenario[] = familiesOf(model, settings, operations).map((f) => ({
    id: `${f.producer.source}/lifecycle/${f.family}`,
    operation: f.producer.source,
    phase: "lifecycle",
    title: `lifecycle of ${f.family}: created by ${f.producer.source}, it reads back as created${f.list ? ", is listed" : ""}${f.updates.length ? ", reads back as updated" : ""}${f.remove ? ", and once deleted is refused (use after free)" : ""}`,
    run: (c) => lifecycle(c, f),
  }));
  for (const op of operations)
    if (pastInt64Sendable(model, op))
      out.push({
        id: `${op.operationId}/unknown-ids`,
        operation: op.operationId,
        phase: "unknown-ids",
        title:
          `unknown identifiers: ${op.safe ? "a well-formed id that does not exist, one at the type's edge and " : ""}an ` +
          `id past the 64-bit edge get a 4xx, never a 5xx${op.safe ? " or another resource" : ""}`,
        run: (c) => unknownIds(c, op),
      });
  return out;
}

/**
 * Deletes what the run created and still exists (where the document has a delete); notes what was created and left
 * behind.
 */
async function cleanup(ctx: ScenarioContext): Promise<void> {
  const { created } = ctx.state.resources;
  if (ctx.settings.kind !== "live") skip(NEEDS_LIVE);
  if (created.length === 0) {
    ctx.verdict.notes.push("created nothing");
    return;
  }
  // The delete of each family (the first the document lists), found once.
  const removes = new Map<string, OperationEntry>();
  for (const o of ctx.model.operations) {
    const family = o.method === "DELETE" ? itemOf(o)?.family : undefined;
    if (family && !removes.has(family)) removes.set(family, o);
  }
  const answers = new Map<Resource, Exchange>();
  for (const r of created.filter((x) => x.alive)) {
    const remove = removes.get(r.family);
    if (!remove) continue;
    try {
      answers.set(
        r,
        await ctx.send(toRequest(remove, base(ctx, remove, { [r.param]: r.value })), { intent: "conforming" }),
      );
    } catch (err) {
      if (!(err instanceof SkipScenario)) throw err;
    }
  }
  const list = (rs: Resource[]) =>
    [...new Set(rs.map((r) => r.family))]
      .map(
        (fam) =>
          `${fam}: ${rs
            .filter((r) => r.family === fam)
            .map((r) => JSON.stringify(r.value))
            .join(", ")}`,
      )
      .join("; ");
  ctx.verdict.notes.push(`created ${created.length} resource(s): ${list(created)}`);
  const left = created.filter((r) => r.alive);
  ctx.verdict.notes.push(
    left.length === 0
      ? "left behind: nothing (each created resource was deleted)"
      : `left behind ${left.length}: ${left
          .map(
            (r) =>
              `${r.family} ${JSON.stringify(r.value)} (${answers.has(r) ? `the delete answered status ${answers.get(r)!.response.status}` : "the document has no delete for it"})`,
          )
          .join("; ")}`,
  );
}

/** The scenario that runs last: the clean-up of what the run created. */
export const CLEANUP: Scenario = {
  id: "(run)/cleanup",
  operation: "(run)",
  phase: "cleanup",
  title:
    "cleanup: every resource the run created is deleted where the document has " +
    "a delete; the report lists what was created and left behind",
  run: (c) => cleanup(c),
};
