/**
 * The owned-members phase (live targets; OWASP API3:2023, mass assignment), per resource family a create
 * produces: members the server owns (model/owned.ts), sent with a value that differs from the one the server
 * set, must not take effect. For the create and the first updates: the write as the document writes it and what
 * the server set (its answer and a read), then the same write with each owned member set otherwise, its answer
 * and a read judged by server_owned_member.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import type { Settings } from "../../config/settings.js";
import { membersTaken } from "../../checks/server-owned-member.js";
import { isSuccess } from "../../model/exchange.js";
import { bodyMember } from "../../model/links.js";
import type { SpecModel } from "../../model/model.js";
import { setAt } from "../../model/members.js";
import { type FamilySchemas, type OwnedMember, ownedMembers, writeEnvelopes } from "../../model/owned.js";
import { isSkip, reason, skipText, type Outcome } from "../../model/skip.js";
import type { Exchange, OwnedWrite } from "../../model/types.js";
import { differentValue, freshBodies } from "../owned-values.js";
import { planOf } from "../plan.js";
import { objectIn, objectPointer, readOperation, readResource, resourceOf } from "../read-back.js";
import { cloneValues, toRequest, type Values } from "../requests.js";
import { itemOf, producersOf } from "../resources.js";
import type { ScenarioContext } from "../scenario.js";
import { base, readyBase } from "../values.js";
import { type Phase, titleOf } from "./phase.js";

/**
 * Writes probed per family: the create and at most two updates. Each costs four requests (the write, a read of
 * what the server set, the same write with the owned members, a read of what took effect): at most 12 per family,
 * so a document of many families stays a small run.
 */
const MAX_WRITES = 3;

/** One family as the phase probes it. */
interface OwnedFamily {
  family: string;
  param: string;
  create: OperationEntry;
  updates: OperationEntry[];
  /** The member its producer link reads the identifier from: never sent on an update (the resource would move). */
  idMember: string | undefined;
  object: string;
  members: OwnedMember[];
  /** Per request body schema (pointer), the envelope its writes wrap the resource in (`["book"]`; `[]`: none). */
  envelopes: Map<string, string[]>;
}

/** The members a family's server owns, and the envelope each write wraps the resource in. */
const owned = (model: SpecModel, family: FamilySchemas) => ({
  members: ownedMembers(model, family),
  envelopes: writeEnvelopes(model, family),
});

/** A write with a JSON object body (members can be added to it). */
const objectBody = (op: OperationEntry) => planOf(op).body?.writing === "json";

/** The families of the run's operations that a create produces, each with the members its server owns. */
function familiesOf(model: SpecModel, settings: Settings, operations: OperationEntry[]): OwnedFamily[] {
  const out: OwnedFamily[] = [];
  const seen = new Set<string>();
  const responses = model.forResponses;
  for (const op of operations) {
    const item = itemOf(op);
    if (!item || seen.has(item.family)) continue;
    seen.add(item.family);
    const producers = producersOf(model, settings.inferLinks, item.family);
    const [producer] = producers;
    if (!producer) continue;
    // Updates of the resource: on its path, or on a path below it that names no other resource (`/email`).
    const below = (path: string) =>
      path === item.family || (path.startsWith(`${item.family}/`) && !path.slice(item.family.length).includes("{"));
    const updates = model.operations
      .filter((o) => (o.method === "PUT" || o.method === "PATCH") && below(o.path))
      .sort((a, b) => Number(a.path !== item.family) - Number(b.path !== item.family));
    const creates = [...new Set(producers.map((p) => p.source))].map((id) => model.operation(id));
    const read = readOperation({ model }, item.family);
    const object = objectPointer({ model, settings }, item.family);
    const inResponses = (ops: OperationEntry[]) => ops.map((o) => responses.operation(o.operationId));
    out.push({
      ...item,
      create: model.operation(producer.source),
      updates: updates.filter(objectBody),
      idMember: bodyMember(Object.values(producer.link.parameters)[0])?.member,
      object,
      ...owned(responses, {
        writes: inResponses([...creates, ...updates]),
        answers: inResponses([...creates, ...(read ? [read] : []), ...updates]),
        object,
      }),
    });
  }
  return out;
}

/** What the server holds for the resource: a read's object, with what the write's own answer showed besides. */
async function held(ctx: ScenarioContext, f: OwnedFamily, id: unknown, write: Exchange, cause: string) {
  const answer = objectIn(ctx, f.family, write);
  const read = await readResource(ctx, { ...f, value: id }, { intent: "conforming", cause });
  const shown = read && !isSkip(read) && isSuccess(read) ? objectIn(ctx, f.family, read) : {};
  return { ...answer, ...shown };
}

/** The owned members set to values none of `seen` holds, as a write's judgement states them. */
function probeOf(ctx: ScenarioContext, f: OwnedFamily, writer: OperationEntry, seen: Record<string, unknown>[]) {
  const responses = ctx.model.forResponses;
  const own = planOf(writer).body?.pointer;
  const members: OwnedWrite["members"][number][] = [];
  for (const m of f.members) {
    if (writer !== f.create && m.name === f.idMember) continue;
    const values = seen.flatMap((s) => (Object.hasOwn(s, m.name) ? [s[m.name]] : []));
    const chosen = differentValue(responses, m.schema, values, ctx.settings.seed + 211);
    if (!chosen) continue;
    const undeclared = m.undeclaredIn.map((p) => `#${p}`);
    const schemas = [...new Set(m.undeclaredIn.map((p) => `#${responses.deref({ $ref: `#${p}` }, p).pointer}`))];
    members.push({
      name: m.name,
      sent: chosen.value,
      before: values[0],
      rule: m.readOnly
        ? `marked readOnly at ${m.readOnly}`
        : `the member is in no request schema of ${f.family}: ${schemas.join(", ")}`,
      promise:
        m.readOnly ?? (own && m.undeclaredIn.includes(own) ? `#${own}` : (undeclared[0] ?? `#${writer.pointer}`)),
    });
  }
  const owned: OwnedWrite = { writer: writer.operationId, pointer: f.object, members };
  return owned;
}

/** Sends the write with the owned members, then reads what its answer did not already show taken. */
async function probe(ctx: ScenarioContext, f: OwnedFamily, writer: OperationEntry, values: Values, owned: OwnedWrite) {
  const body = values.body?.value;
  if (!isMapping(body) || owned.members.length === 0) return;
  const sent = Object.fromEntries(owned.members.map((m) => [m.name, m.sent]));
  const cause = `${writer.operationId} with the members the server owns: ${Object.keys(sent).join(", ")}`;
  // Inside the envelope the write wraps the resource in (`{"book": {...}}`), where it has one.
  const envelope = f.envelopes.get(planOf(writer).body?.pointer ?? "") ?? [];
  let written: unknown = body;
  for (const m of owned.members) written = setAt(written, [...envelope, m.name], m.sent);
  const spec = toRequest(writer, { ...cloneValues(values), body: { value: written } });
  const ex = await ctx.send(spec, { intent: "conforming", cause, owned });
  if (!isSuccess(ex)) return;
  const taken = new Set(membersTaken(ex, owned).map((m) => m.name));
  const rest = { ...owned, members: owned.members.filter((m) => !taken.has(m.name)) };
  // What the write created, or addressed (an update below the family's path names it by the same parameter).
  const made = resourceOf(ctx, writer, ex);
  const id =
    made?.family === f.family ? made.value : writer === f.create ? undefined : ex.request.pathParams?.[f.param];
  if (id === undefined || rest.members.length === 0) return;
  await readResource(ctx, { ...f, value: id }, { intent: "conforming", cause: `the read after ${cause}`, owned: rest });
}

async function ownedMembersOf(ctx: ScenarioContext, f: OwnedFamily): Promise<Outcome> {
  const values = await readyBase(ctx, f.create);
  if (isSkip(values)) return values;
  const [first, second] = freshBodies(ctx, f.create, values.body?.value, 2);
  if (!first || !second)
    return reason("body", `no two valid ${f.create.operationId} bodies that differ could be generated`);
  const create = await ctx.send(toRequest(f.create, { ...cloneValues(values), body: { value: first } }), {
    intent: "conforming",
    cause: `the create of ${f.family}, as the document writes it`,
  });
  if (!isSuccess(create))
    return reason("step-failed", `the create ${f.create.operationId} answered status ${create.response.status}`);
  const made = ctx.state.resources.created.find((r) => r.created === create && r.family === f.family);
  if (!made) return reason("step-failed", `the answer of ${f.create.operationId} named no identifier for ${f.family}`);
  const before = await held(ctx, f, made.value, create, "the read after the create");
  await probe(ctx, f, f.create, { ...values, body: { value: second } }, probeOf(ctx, f, f.create, [before]));
  for (const u of f.updates.slice(0, MAX_WRITES - 1)) {
    const v = base(ctx, u, { [f.param]: made.value });
    if (isSkip(v) || !isMapping(v.body?.value)) {
      ctx.verdict.notes.push(`not probed: ${u.operationId} (${isSkip(v) ? skipText(v) : "no JSON object body"})`);
      continue;
    }
    const normal = await ctx.send(toRequest(u, v), { intent: "conforming", cause: `the update ${u.operationId}` });
    if (!isSuccess(normal)) {
      ctx.verdict.notes.push(`not probed: ${u.operationId} answered status ${normal.response.status}`);
      continue;
    }
    const id = normal.request.pathParams?.[f.param] ?? made.value;
    const after = await held(ctx, f, id, normal, `the read after the update ${u.operationId}`);
    await probe(ctx, f, u, v, probeOf(ctx, f, u, [after, before]));
  }
  return undefined;
}

/** The phase: one scenario per resource family of the run's operations that a create produces. */
export const ownedMembersPhase: Phase = {
  forRun: ({ model, settings, operations }) =>
    familiesOf(model, settings, operations).map((f) => ({
      id: `${f.create.operationId}/owned-members/${f.family}`,
      operation: f.create.operationId,
      phase: "owned-members",
      title: titleOf(
        "owned-members",
        `of ${f.family}: the members the server owns (${f.members.map((m) => m.name).join(", ") || "none"}), ` +
          `sent otherwise on ` +
          `${[f.create, ...f.updates.slice(0, MAX_WRITES - 1)].map((o) => o.operationId).join(", ")}, ` +
          "do not take effect",
      ),
      ...(f.members.length === 0
        ? {
            skip: reason(
              "not-applicable",
              `every member the answers of ${f.family} carry is declared by a request schema and none is readOnly`,
            ),
          }
        : !objectBody(f.create)
          ? { skip: reason("not-applicable", `${f.create.operationId} takes no JSON object body to add members to`) }
          : {}),
      run: (c) => ownedMembersOf(c, f),
    })),
};
