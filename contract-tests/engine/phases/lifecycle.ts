/**
 * The lifecycle phase (live targets), per resource family a create produces (`/posts/{postId}`), read from the
 * document's creates, reads, updates, deletes and listings (links written or inferred): created -> readable as
 * created, listed, updated -> read back as sent, deleted -> gone (use after free).
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { resolvePointer } from "../../../openapi/lib/document-error.js";
import { isSuccess } from "../../model/exchange.js";
import { bodyMember } from "../../model/links.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import type { CheckContext, Exchange } from "../../model/types.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import { invalidValues } from "../generate.js";
import { planOf } from "../plan.js";
import { cloneValues, toRequest, type Values } from "../requests.js";
import type { ScenarioContext } from "../scenario.js";
import { base, readyBase, sendCreate } from "../values.js";
import { writtenMembers } from "../read-back.js";
import { sameValue } from "../../checks/read-back.js";
import { type Phase, titleOf } from "./phase.js";
import { differentBody, familiesOf, objectAt, type Family } from "../families.js";

/** Paging parameters of a listing: any integer query parameter, or one named for pages, cursors or offsets. */
const PAGING = /page|cursor|offset|after|before|token|limit|size|skip|start|count/i;

/** The request of `op` on the resource `id` names, or why there is none. */
function on(ctx: ScenarioContext, op: OperationEntry, id: Record<string, unknown>) {
  const v = base(ctx, op, id);
  return isSkip(v) ? v : toRequest(op, v);
}

/** The request of the listing's first page, as large as a page-size parameter allows, and whether it is whole. */
function listingOf(ctx: ScenarioContext, f: Family) {
  const list = f.list!.op;
  const v = base(ctx, list);
  if (isSkip(v)) return v;
  const query = list.parameters.filter((p) => p.in === "query");
  const paged = query.some((p) => PAGING.test(p.name) || ctx.model.deref(p.schema, "").schema?.type === "integer");
  let pageSize: number | undefined;
  for (const p of query) {
    const s = ctx.model.deref(p.schema, "").schema;
    if (s?.type === "integer" && typeof s.maximum === "number" && /limit|size|per_?page|count|max|top/i.test(p.name)) {
      pageSize = s.maximum;
      v.query[p.name] = s.maximum;
    }
  }
  const complete = (ex: Exchange) => {
    const items = resolvePointer(ex.response.json, f.list!.items);
    return !paged || (pageSize !== undefined && Array.isArray(items) && items.length < pageSize);
  };
  return { spec: toRequest(list, v), complete };
}

/** The listing's first page, as large as a page-size parameter allows, judged for the created identifier. */
async function listed(ctx: ScenarioContext, f: Family, id: unknown, createdBy: string): Promise<Outcome> {
  if (!f.list) return undefined;
  const listing = listingOf(ctx, f);
  if (isSkip(listing)) return listing;
  const ex = await ctx.send(listing.spec, { cause: `the listing after a create by ${createdBy}` });
  ctx.verdict.only(ex, ["listed_after_create"], {
    intent: "acceptance",
    cause: `the listing after a create by ${createdBy}`,
    listed: { id, pointer: f.list.items, member: f.list.member, complete: listing.complete(ex), createdBy },
  });
  return undefined;
}

/** The identifiers (as JSON) a listing's answer holds. */
function listedIds(ex: Exchange, f: Family): string[] {
  const items = resolvePointer(ex.response.json, f.list!.items);
  if (!isSuccess(ex) || !Array.isArray(items)) return [];
  return items.flatMap((i) => {
    const id = resolvePointer(i, f.list!.member);
    return id === undefined || id === null ? [] : [JSON.stringify(id)];
  });
}

/** The identifiers (as JSON) of the family's resources the run created (its own creates, whatever the phase). */
const ownIds = (ctx: ScenarioContext, f: Family) =>
  ctx.state.resources.created.filter((r) => r.family === f.family).map((r) => JSON.stringify(r.value));

/** What a listing held before a create: its identifiers, and why a new one may be another client's. */
interface Snapshot {
  ids: string[];
  busy?: string;
}

/**
 * The listing before a create, read twice: a change between the two with no create of the run says another client
 * is creating (a new item after a refusal is then only a warning).
 */
async function snapshot(ctx: ScenarioContext, f: Family, what: string): Promise<Snapshot | undefined> {
  if (!f.list || ctx.settings.kind !== "live") return undefined;
  const listing = listingOf(ctx, f);
  if (isSkip(listing)) return undefined;
  const first = await ctx.send(listing.spec, { cause: `the listing before ${what}` });
  const second = await ctx.send(listing.spec, { cause: `the listing again before ${what}` });
  if (!isSuccess(first) || !isSuccess(second)) return undefined;
  const seen = new Set([...listedIds(first, f), ...ownIds(ctx, f)]);
  const moved = listedIds(second, f).filter((id) => !seen.has(id));
  return {
    ids: listedIds(second, f),
    ...(moved.length
      ? { busy: `the listing showed ${moved.length} new item(s) between two reads with no create of the run` }
      : {}),
  };
}

/**
 * RESTler's leakage rule: after a create the server refused (a 4xx or a 5xx), the family's listing holds no item
 * that was not listed before and that the run did not create (refused_create_leak). Returns the listing as the
 * snapshot before the next create.
 */
async function leftBehind(
  ctx: ScenarioContext,
  f: Family,
  before: Snapshot,
  refused: Exchange,
  what: string,
): Promise<Snapshot | undefined> {
  const listing = listingOf(ctx, f);
  if (isSkip(listing) || !f.list) return undefined;
  const after = await ctx.send(listing.spec, { cause: `the listing after ${what}` });
  ctx.verdict.only(after, ["refused_create_leak"], {
    intent: "acceptance",
    cause: `the listing after ${what}`,
    refusedCreate: {
      by: refused.operation,
      status: refused.response.status,
      pointer: f.list.items,
      member: f.list.member,
      before: before.ids,
      own: ownIds(ctx, f),
      complete: listing.complete(after),
      ...(before.busy ? { busy: before.busy } : {}),
    },
  });
  return isSuccess(after) ? { ids: listedIds(after, f), ...(before.busy ? { busy: before.busy } : {}) } : undefined;
}

/** A create the server refused: a 4xx or a 5xx (not a transport failure). */
const refusedCreate = (ex: Exchange | undefined): ex is Exchange => ex !== undefined && ex.response.status >= 400;

/** A body of `create` the document rules out: one member with a value its schema breaks (ajv confirms), if any. */
function refusedBody(ctx: ScenarioContext, create: OperationEntry, values: Values): Values | undefined {
  const pointer = planOf(create).body?.pointer;
  const body = values.body?.value;
  if (!pointer || !isMapping(body)) return undefined;
  const schema = ctx.model.deref({ $ref: `#${pointer}` }, pointer).schema;
  const properties = isMapping(schema?.properties) ? (schema.properties as Record<string, unknown>) : {};
  for (const [name, member] of Object.entries(properties))
    for (const m of invalidValues(ctx.model, member)) {
      if (m.demand !== "error") continue;
      const broken = { ...body, [name]: m.value };
      if (ctx.model.validator.validate(pointer, broken).length > 0)
        return { ...cloneValues(values), body: { value: broken } };
    }
  return undefined;
}

async function lifecycle(ctx: ScenarioContext, f: Family): Promise<Outcome> {
  const create = ctx.model.operation(f.producer.source);
  const first = await readyBase(ctx, create);
  if (isSkip(first)) return first;
  const expr = Object.values(f.producer.link.parameters)[0];
  const at = bodyMember(expr) ?? { object: "", member: "" };
  // A create the document rules out, refused, leaves nothing in the listing (sent unjudged: the negative phase
  // judges such requests; one it accepts is recorded and cleaned up like any other); nor does the create below,
  // if refused. The listing is read before them only where there is such a create to send.
  const ruledOut = refusedBody(ctx, create, first);
  let before = ruledOut ? await snapshot(ctx, f, `a create ${create.operationId} the document rules out`) : undefined;
  if (ruledOut) {
    const [refused] = await ctx.sendAll([{ spec: toRequest(create, ruledOut), unjudged: true }]);
    // Accepted, it made a resource the run may not know by its identifier: the listing before no longer holds.
    if (!refusedCreate(refused)) before = undefined;
    else if (before)
      before = await leftBehind(ctx, f, before, refused, `a create ${create.operationId} the document rules out`);
  }
  // What the create writes that its answer declares: its answer must show it as written (lost_write). A refused
  // create is tried with the document's example and every member set before the phase gives up (sendCreate).
  let wrote: Record<string, unknown> = {};
  const { ex: created, values } = await sendCreate(ctx, create, first, (v) => {
    wrote = writtenMembers(ctx, v.body?.value, create, at.object);
    return {
      cause: `the create of ${f.family}`,
      ...(Object.keys(wrote).length ? { wrote: { members: wrote, pointer: at.object } } : {}),
    };
  });
  if (before && refusedCreate(created)) await leftBehind(ctx, f, before, created, `the refused create of ${f.family}`);
  if (!isSuccess(created))
    return reason("step-failed", `the create ${create.operationId} answered status ${created.response.status}`);
  const made = ctx.state.resources.created.find((r) => r.created === created && r.family === f.family);
  if (!made) return reason("step-failed", `the answer of ${create.operationId} named no identifier for ${f.family}`);
  const id = { [f.param]: made.value };
  const read = async (judge: Partial<CheckContext>): Promise<Outcome> => {
    if (!f.read) return undefined;
    const spec = on(ctx, f.read, id);
    if (isSkip(spec)) return spec;
    await ctx.send(spec, { intent: "acceptance", ...judge });
    return undefined;
  };
  // created -> readable: the identifier and every member the create wrote (that the read declares) read back as
  // written; a member the create's own answer already lost is that answer's finding, not the read's again.
  const createdObject = objectAt(created.response.json, at.object);
  const lost = (name: string) => Object.hasOwn(createdObject, name) && !sameValue(wrote[name], createdObject[name]);
  const members = {
    ...Object.fromEntries(
      Object.entries(f.read ? writtenMembers(ctx, values.body?.value, f.read, at.object) : {}).filter(
        ([k]) => !lost(k),
      ),
    ),
    ...(at.member && Object.hasOwn(createdObject, at.member) ? { [at.member]: createdObject[at.member] } : {}),
  };
  const readCreated = await read({
    cause: "the read after the create",
    readBack: { after: "created", writer: create.operationId, members, pointer: at.object },
  });
  if (readCreated) return readCreated;
  const list = await listed(ctx, f, made.value, create.operationId);
  if (list) return list;
  // updated -> read back: every member the update wrote (that the answer and the read declare) as written.
  for (const u of f.updates) {
    const v = base(ctx, u, id);
    if (isSkip(v)) return v;
    const body = differentBody(ctx, u, created.request.json, v.body);
    const sentBody = (body ?? v.body)?.value;
    const answered = writtenMembers(ctx, sentBody, u, at.object);
    const ex = await ctx.send(toRequest(u, body ? { ...cloneValues(v), body } : v), {
      cause: `the update ${u.operationId}`,
      ...(Object.keys(answered).length ? { wrote: { members: answered, pointer: at.object } } : {}),
    });
    if (!isSuccess(ex) || !f.read) continue;
    const object = objectAt(ex.response.json, at.object);
    const sent = Object.fromEntries(
      Object.entries(writtenMembers(ctx, sentBody, f.read, at.object)).filter(
        ([k, value]) => !Object.hasOwn(object, k) || sameValue(value, object[k]),
      ),
    );
    if (Object.keys(sent).length) {
      const r = await read({
        cause: `the read after the update ${u.operationId}`,
        readBack: { after: "updated", writer: u.operationId, members: sent, pointer: at.object },
      });
      if (r) return r;
    }
  }
  // deleted -> gone: a read, an update and the delete again each answer a 4xx.
  if (!f.remove) return undefined;
  const remove = on(ctx, f.remove, id);
  if (isSkip(remove)) return remove;
  const removed = await ctx.send(remove, { cause: `the delete ${f.remove.operationId}` });
  if (!isSuccess(removed)) return undefined;
  const after = (what: string) => ({ intent: "after-delete" as const, deletedBy: f.remove!.operationId, cause: what });
  for (const op of [...(f.read ? [f.read] : []), ...f.updates, f.remove]) {
    const spec = on(ctx, op, id);
    if (isSkip(spec)) return spec;
    await ctx.send(spec, after(`${op.operationId} after the delete`));
  }
  return undefined;
}

/** The phase: one scenario per resource family of the run's operations that a create produces. */
export const lifecyclePhase: Phase = {
  forRun: ({ model, settings, operations }) =>
    familiesOf(model, settings, operations).map((f) => ({
      id: `${f.producer.source}/lifecycle/${f.family}`,
      operation: f.producer.source,
      phase: "lifecycle",
      title: titleOf(
        "lifecycle",
        `of ${f.family}: created by ${f.producer.source}, it reads back as created${f.list ? ", is listed" : ""}` +
          `${f.updates.length ? ", reads back as updated" : ""}` +
          `${f.remove ? ", and once deleted is refused (use after free)" : ""}`,
      ),
      run: (c) => lifecycle(c, f),
    })),
};
