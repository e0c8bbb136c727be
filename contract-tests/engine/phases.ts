/**
 * The generic phases, run for every operation of the document with no code written for it (after
 * Schemathesis): examples, positive data, negative data, auth, links (stateful) and account isolation.
 */
import { isJsonMedia, type ExampleEntry, type OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import type { Settings } from "../config/settings.js";
import type { RequestSpec } from "../transport/target.js";
import { authPlan, emptyProbeDoubt, writtenByTransport } from "../model/wire.js";
import { moreInvalidValues, requiredParameters } from "./coverage.js";
import { edges, hasEdges } from "./edges.js";
import { unsupportedMethod, unsupportedMethodFor } from "./unsupported.js";
import { boundaries, invalidValues, validSamples, type Mutation } from "./generate.js";
import { evaluate, everyValue, familyOf, linkParameter, linksFrom, linksTo, type SourcedLink } from "../model/links.js";
import { aliveOf, isAlive, isCreated, isDeleted, producersOf } from "./resources.js";
import {
  baseValues,
  cloneValues,
  bucketOf,
  exampleProblem,
  readBack,
  readsAsNoBody,
  serialize,
  toRequest,
  withConfiguredMembers,
  type Values,
} from "./requests.js";
import { planOf } from "./plan.js";
import { fromWire } from "../model/wire-values.js";
import type { Scenario, ScenarioContext } from "./scenario.js";
import { NEEDS_LIVE, skip } from "./skip.js";
import { dotSegmentIn } from "../transport/boundary.js";
import { configuredValue } from "../config/settings.js";
import { linkPointer } from "../model/promise.js";
import { documentedServerCondition } from "../checks/not-a-server-error.js";
import type { Exchange } from "../model/types.js";

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
 * The base values of `op`: path parameters fed by links from earlier responses when nothing else supplies
 * them, and on a live target by a resource the run created (see `usable`).
 */
export function base(ctx: ScenarioContext, op: OperationEntry, linked?: Record<string, unknown>): Values {
  requireCompilable(ctx, op);
  const fromLinks: Record<string, unknown> = {};
  for (const [name, vs] of linkedValues(ctx, op)) {
    const ok = vs.filter((v) => usable(ctx, op, name, v));
    if (ok.length && op.parameters.some((p) => p.in === "path" && p.name === name)) fromLinks[name] = ok.at(-1);
  }
  if (ctx.settings.kind === "live")
    for (const p of op.parameters.filter((x) => x.in === "path" && !Object.hasOwn(fromLinks, x.name))) {
      const family = familyOf(op.path, p.name);
      const alive = family && aliveOf(ctx.state.resources, family);
      if (alive) fromLinks[p.name] = alive.value;
    }
  const b = baseValues(ctx.model, ctx.settings, op, { ...fromLinks, ...linked });
  if ("skip" in b) skip(b.skip);
  return b.values;
}

/**
 * On a live target, creates what the path parameters of `op` need where the settings name no value and no
 * usable one is known (a safe operation may read a listed one): the run then needs no id from the user.
 */
export async function ready(ctx: ScenarioContext, op: OperationEntry, depth = 0): Promise<void> {
  if (ctx.settings.kind !== "live" || depth > 3) return;
  const linked = linkedValues(ctx, op);
  for (const p of op.parameters.filter((x) => x.in === "path")) {
    const family = familyOf(op.path, p.name);
    if (!family || configuredValue(ctx.settings, op.operationId, p.name).found) continue;
    if (aliveOf(ctx.state.resources, family)) continue;
    if ((linked.get(p.name) ?? []).some((v) => usable(ctx, op, p.name, v))) continue;
    if (producersOf(ctx.model, ctx.settings.inferLinks, family).length) await ctx.produce(family, depth + 1);
  }
}

/**
 * The name of a documented 2xx response example that pairs with a request example of the same name. Only
 * named examples (`examples:` maps) pair: a lone `example:` on each side is no pair, and Prism cannot be asked
 * for it by name.
 */
function pairOf(op: OperationEntry, example: ExampleEntry): string | undefined {
  if (example.unnamed) return undefined;
  return op.responses.some(
    (r) => /^2/.test(r.status) && r.content.some((m) => m.examples.some((e) => !e.unnamed && e.name === example.name)),
  )
    ? example.name
    : undefined;
}

/** The media type of the 2xx response whose example is named `name`. */
function pairMedia(op: OperationEntry, name: string): string | undefined {
  return op.responses
    .filter((r) => /^2/.test(r.status))
    .flatMap((r) => r.content)
    .find((m) => m.examples.some((e) => !e.unnamed && e.name === name))?.mediaType;
}

/**
 * Documented request examples (body and parameters), sent; documented response examples, checked. An example
 * that breaks its own schema is still sent, but its acceptance is in doubt (a warning naming the defect).
 */
async function examples(ctx: ScenarioContext, op: OperationEntry): Promise<void> {
  for (const r of op.responses) {
    const status = /^\d{3}$/.test(r.status) ? Number(r.status) : Number(`${r.status[0]}00`) || 200;
    for (const m of r.content)
      for (const e of m.examples) {
        const request = {
          method: op.method,
          url: `(documented ${r.status} example "${e.name}")`,
          path: op.path,
          query: {},
          headers: {},
        };
        // A text example is its text; any other is the JSON it shows.
        const bodyText = typeof e.value === "string" && !isJsonMedia(m.mediaType) ? e.value : JSON.stringify(e.value);
        const response = {
          status,
          headers: {},
          contentType: m.mediaType,
          bodyText,
          json: e.value,
          bodyBytes: 0,
          elapsedMs: 0,
        };
        ctx.verdict.check({ operation: op.operationId, request, response, documented: true }, [], {
          intent: "conforming",
        });
      }
  }
  await ready(ctx, op);
  const values = base(ctx, op);
  const sends: Array<{ values: Values; pair?: string | undefined; doubt?: string | undefined }> = [];
  const bodyExamples = planOf(op).body?.media.examples ?? [];
  if (!bodyExamples.length) sends.push({ values });
  for (const e of bodyExamples) {
    const body = withConfiguredMembers(ctx.settings, op, structuredClone(e.value));
    sends.push({
      values: { ...cloneValues(values), body: { value: body } },
      pair: pairOf(op, e),
      doubt: exampleProblem(ctx.model, op, "body", body),
    });
  }
  for (const p of op.parameters.filter((x) => x.in !== "path"))
    for (const e of p.examples) {
      // Identifiers in examples need not exist on a live server: a linked parameter is sent with a linked value.
      const live = ctx.settings.kind === "live" && isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name);
      const value = live ? linkedValues(ctx, op).get(p.name)?.[0] : e.value;
      if (value === undefined) continue;
      const v = cloneValues(values);
      bucketOf(v, p.in)[p.name] = live && isArraySchema(ctx.model, p.schema) && !Array.isArray(value) ? [value] : value;
      sends.push({
        values: v,
        pair: live ? undefined : pairOf(op, e),
        doubt: live ? undefined : exampleProblem(ctx.model, op, p, value),
      });
    }
  for (const s of sends) {
    // The mock is asked for the pair's response example by name, in the media type that holds it.
    const media = s.pair ? pairMedia(op, s.pair) : undefined;
    const extra: Partial<RequestSpec> = s.pair
      ? {
          pairedExample: s.pair,
          ...(ctx.settings.kind === "mock"
            ? { headers: { prefer: `example=${s.pair}`, ...(media ? { accept: media } : {}) } }
            : {}),
        }
      : {};
    await ctx.send(toRequest(op, s.values, extra), s.doubt ? { inDoubt: s.doubt } : {});
  }
}

/**
 * A response's `.` or `..` (or `../../admin`) fed by a link into a path parameter is refused, as CONTRACT_PARAMS
 * refuses it (the request boundary would too).
 */
function refuseDotValue(link: string, source: string, name: string, value: unknown): void {
  if (typeof value === "string" && dotSegmentIn(value) !== undefined)
    skip(
      `skipped: refused: the link ${link} gave the path parameter ${name} the value ${JSON.stringify(value)} ` +
        `from a ${source} response; a dot segment would send the request to another path`,
    );
}

/** Values for the link-fed parameters of `op` from earlier successful responses (live targets use only these). */
function linkedValues(ctx: ScenarioContext, op: OperationEntry): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const { source, link } of linksTo(ctx.model, ctx.settings.inferLinks, op.operationId))
    for (const ex of ctx.state.successes.get(source) ?? [])
      for (const [name, expr] of Object.entries(link.parameters)) {
        const p = linkParameter(op, name);
        const v = evaluate(expr, ex);
        if (p?.in === "path") refuseDotValue(link.name, source, p.name, v);
        if (p && v !== undefined) out.set(p.name, [...(out.get(p.name) ?? []), v]);
      }
  return out;
}

/** Skips the phase, naming the document's problem, when a schema the requests are built from cannot be compiled. */
function requireCompilable(ctx: ScenarioContext, op: OperationEntry): void {
  const pointers = [planOf(op).body?.pointer, ...op.parameters.map((p) => p.schemaPointer)].filter((p): p is string =>
    Boolean(p),
  );
  for (const pointer of pointers) {
    const problem = ctx.model.validator.problem(pointer);
    if (problem) skip(`skipped: ${problem}`);
  }
}

/** Valid requests generated from the parameter and body schemas, boundary values included. */
async function positive(ctx: ScenarioContext, op: OperationEntry): Promise<void> {
  await ready(ctx, op);
  const values = base(ctx, op);
  const count = ctx.settings.examples;
  const pointer = planOf(op).body?.pointer;
  const bodies = pointer ? validSamples(ctx.model, pointer, count, ctx.settings.seed) : [];
  const linked = linkedValues(ctx, op);
  const optional = op.parameters.filter((p) => p.in !== "path" && !p.required);
  const samples = new Map(
    optional.map((p) => [p.name, validSamples(ctx.model, p.schemaPointer, count, ctx.settings.seed + p.name.length)]),
  );
  for (let i = 0; i < count; i++) {
    const v = cloneValues(values);
    if (bodies.length) v.body = { value: withConfiguredMembers(ctx.settings, op, bodies[i % bodies.length]) };
    optional.forEach((p, j) => {
      if ((i + j) % 2 !== 0) return;
      // On a live target an identifier the document links to must exist: link-fed parameters use linked values only.
      const fed = linked.get(p.name);
      const value = fed
        ? fed[i % fed.length]
        : ctx.settings.kind === "live" && isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name)
          ? undefined
          : samples.get(p.name)?.[i];
      if (value !== undefined)
        bucketOf(v, p.in)[p.name] = Array.isArray(value) || !isArraySchema(ctx.model, p.schema) ? value : [value];
    });
    await ctx.send(toRequest(op, v));
  }
  // A boundary is sent only when it is valid as a whole (a minLength string may break a format, a maximum a
  // multipleOf).
  const valid = (pointer: string, value: unknown) => ctx.model.validator.validate(pointer, value).length === 0;
  const bounds: Array<{ v: Values }> = [];
  for (const p of optional)
    for (const b of boundaries(ctx.model, p.schema))
      if (valid(p.schemaPointer, b.value))
        bounds.push({ v: { ...cloneValues(values), [p.in]: { ...values[p.in as "query"], [p.name]: b.value } } });
  const bodySchema = pointer ? ctx.model.deref({ $ref: `#${pointer}` }, pointer).schema : undefined;
  if (values.body && pointer && bodySchema?.properties)
    for (const [name, s] of Object.entries(bodySchema.properties as Record<string, unknown>))
      for (const b of boundaries(ctx.model, s)) {
        const candidate = { ...(values.body.value as object), [name]: b.value };
        if (valid(pointer, readBack(ctx.model, op, candidate)))
          bounds.push({ v: { ...cloneValues(values), body: { value: candidate } } });
      }
  for (const { v } of bounds.slice(0, ctx.settings.kind === "live" ? 2 : 8)) await ctx.send(toRequest(op, v));
}

const isArraySchema = (model: SpecModel, schema: unknown) => model.deref(schema, "").schema?.type === "array";
const isLinkTarget = (model: SpecModel, infer: boolean, op: OperationEntry, name: string) =>
  linksTo(model, infer, op.operationId).some((l) =>
    Object.keys(l.link.parameters).some((k) => linkParameter(op, k)?.name === name),
  );

/** Requests the document rules out, each expected to get a 4xx. */
async function negative(ctx: ScenarioContext, op: OperationEntry): Promise<void> {
  await ready(ctx, op);
  const values = base(ctx, op);
  const cases: Array<{ spec: RequestSpec; what: string; demand: Mutation["demand"]; ambiguous: boolean }> = [];
  const add = (spec: RequestSpec, what: string, demand: Mutation["demand"] = "error", ambiguous = false) =>
    cases.push({ spec, what, demand, ambiguous });
  const body = planOf(op).body;
  const pointer = body?.pointer;
  if (body && values.body && pointer) {
    const invalid = (candidate: unknown) =>
      ctx.model.validator.validate(pointer, readBack(ctx.model, op, candidate)).length > 0;
    const noBody = toRequest(op, { ...values, body: undefined } as Values);
    if (body.required) add(noBody, "no body where one is required");
    if (body.writing === "json") {
      add(
        toRequest(op, values, {
          rawBody: JSON.stringify(values.body.value),
          contentType: "text/plain",
          json: undefined,
        }),
        "a JSON body sent as text/plain",
      );
      add(
        toRequest(op, values, { rawBody: JSON.stringify(values.body.value).slice(0, -1) || "{", json: undefined }),
        "malformed JSON",
      );
    }
    const { schema = {}, pointer: at } = ctx.model.deref({ $ref: `#${pointer}` }, pointer);
    // The members the mutations start from: none when the valid body is no object (null for a nullable schema).
    const members: Record<string, unknown> = isMapping(values.body.value) ? values.body.value : {};
    const bodies: Array<[unknown, string, Mutation["demand"]]> = [
      ...invalidValues(ctx.model, { $ref: `#${pointer}` }),
      ...moreInvalidValues(ctx.model, { $ref: `#${pointer}` }, pointer, values.body.value),
    ].map((m) => [m.value, `a body that is ${m.what}`, m.demand]);
    bodies.push([{}, "an empty object", "error"]);
    for (const name of (schema.required as string[] | undefined) ?? []) {
      const { [name]: _dropped, ...rest } = members;
      bodies.push([rest, `missing required member ${name}`, "error"]);
    }
    for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>))
      for (const m of [
        ...invalidValues(ctx.model, s),
        ...moreInvalidValues(ctx.model, s, `${at}/properties/${name}`, members[name]),
      ])
        bodies.push([{ ...members, [name]: m.value }, `${name}: ${m.what}`, m.demand]);
    // An optional body (`required` defaults to false) written as nothing (an empty form) is a body left out: allowed.
    const leftOut = (candidate: unknown) => !body.required && readsAsNoBody(op, candidate);
    for (const [candidate, what, demand] of bodies)
      if (invalid(candidate) && !leftOut(candidate))
        add(toRequest(op, { ...values, body: { value: candidate } }), what, demand);
  }
  // A required parameter left out (Schemathesis's missing_parameter; missing_required_header for headers); a
  // header the transport writes anyway (Host, Content-Length with a body, User-Agent) cannot be left out.
  for (const p of requiredParameters(op)) {
    if (p.in === "header" && writtenByTransport(p.name, values.body !== undefined)) continue;
    const v = cloneValues(values);
    delete bucketOf(v, p.in)[p.name];
    add(toRequest(op, v), `required ${p.in} parameter ${p.name} left out`);
  }
  for (const p of op.parameters)
    for (const m of [
      ...invalidValues(ctx.model, p.schema),
      ...moreInvalidValues(ctx.model, p.schema, p.schemaPointer, bucketOf(values, p.in)[p.name]),
    ]) {
      const wire = serialize(p, m.value);
      // An empty path segment would change the route, not the parameter; a value still valid on the wire is no
      // negative.
      const errors =
        p.in === "path" && (wire === "" || m.value === null)
          ? []
          : ctx.model.validator.validate(p.schemaPointer, fromWire(ctx.model, p, wire));
      if (errors.length === 0) continue;
      const v = cloneValues(values);
      bucketOf(v, p.in)[p.name] = m.value;
      // On the wire every value is text: say what the server reads and the rule that text breaks.
      const sent =
        `sent as ${JSON.stringify(Array.isArray(wire) ? wire.join(",") : wire).slice(0, 80)}, ` +
        `which breaks ${errors[0]!.keyword}`;
      // An empty value cannot be told apart from a parameter left out: its rejection is implied, not demanded.
      // An object written by a style (no JSON content) has no wire form for a non-object: its rejection is implied too.
      const styledObject = p.contentType === undefined && ctx.model.deref(p.schema, "").schema?.type === "object";
      add(
        toRequest(op, v),
        `${p.in} parameter ${p.name}: ${m.what}; ${sent}`,
        wire === "" || styledObject ? "warning" : m.demand,
        wire === "" || (Array.isArray(wire) && wire.every((w) => w === "")),
      );
    }
  if (cases.length === 0) skip("skipped: the document rules out no input of this operation");
  // Invalid input answered with a 5xx: the valid base it was built on is asked once. A base that fails already is
  // reported once, as its own failure; the invalid inputs built on it and answered with a 5xx are not judged again
  // (one server bug must not read as many missing validations).
  let baseAnswer: Exchange | undefined;
  for (const c of cases) {
    const judged = {
      intent: "rejection" as const,
      demand: c.demand,
      mutation: c.what,
      ...(c.ambiguous ? { ambiguous: true } : {}),
    };
    const ex = await ctx.sendUnjudged(c.spec);
    if (ex.response.status >= 500) {
      baseAnswer ??= await ctx.send(toRequest(op, values));
      const failed = baseAnswer.response.status;
      if (failed >= 500 && !documentedServerCondition(ctx.model, op.operationId, failed)) {
        ctx.verdict.only(ex, [], judged);
        continue;
      }
    }
    ctx.verdict.check(ex, [], judged);
  }
}

/** No key, an empty key, a wrong key: each refused with a 4xx. */
async function auth(ctx: ScenarioContext, op: OperationEntry): Promise<void> {
  const plan = authPlan(op);
  if (plan.kind === "none" && !plan.optional) skip("skipped: the operation requires no authentication");
  if (plan.kind !== "unsupported" && plan.optional)
    skip("skipped: the document lets the operation be called without a credential (an empty security alternative, {})");
  if (plan.kind === "unsupported")
    skip(
      `skipped: the suite cannot present a credential for ${plan.schemes.join(", ")} (it sends ` +
        `apiKey, http bearer/basic, oauth2 and openIdConnect credentials)`,
    );
  await ready(ctx, op);
  const spec = toRequest(op, base(ctx, op));
  await ctx.send({ ...spec, key: "none" }, { intent: "no-key" });
  // Against the mock only: on a live target such a probe is a wrong credential, which must be refused.
  const emptyDoubt = ctx.settings.kind === "live" ? undefined : emptyProbeDoubt(op, plan);
  await ctx.send({ ...spec, key: "empty" }, { intent: "empty-key", ...(emptyDoubt ? { inDoubt: emptyDoubt } : {}) });
  // Prism's mock accepts any non-empty key, so only a live server can show a wrong key is refused.
  if (ctx.settings.kind === "live") await ctx.send({ ...spec, key: "wrong" }, { intent: "wrong-key" });
}

/**
 * Follows a link with values from a successful response, and with well-formed values that do not exist. A
 * link from a delete leads to what the delete removed: its answer must be a refusal (use after free). On a
 * live target a link feeds an operation that changes data only with a resource the run created.
 */
async function followLink(ctx: ScenarioContext, sourced: SourcedLink): Promise<void> {
  const { source, link } = sourced;
  if (!ctx.model.has(link.operationId))
    skip(`skipped: the link names an operation the document does not have (${link.operationId})`);
  const target = ctx.model.operation(link.operationId);
  const live = ctx.settings.kind === "live";
  // The report names each inferred link it followed, so a reader can check it.
  if (sourced.inferred) ctx.verdict.notes.push(link.name);
  const afterDelete = ctx.model.has(source) && ctx.model.operation(source).method === "DELETE";
  if (afterDelete && !live) skip(NEEDS_LIVE);
  const from = (ctx.state.successes.get(source) ?? [])
    .filter((ex) => ex.response.status === Number(sourced.status) || !/^\d+$/.test(sourced.status))
    .at(-1);
  if (!from) skip(`skipped: no successful ${source} response to follow the link from`);
  const params = Object.entries(link.parameters).map(([name, expr]) => ({
    p: linkParameter(target, name),
    value: evaluate(expr, from),
    all: everyValue(expr, from),
  }));
  const usableParams = params.filter((x) => x.p && x.value !== undefined);
  for (const x of usableParams) if (x.p!.in === "path") refuseDotValue(link.name, source, x.p!.name, x.value);
  if (usableParams.length === 0) skip(`skipped: the link's expressions found nothing in the ${source} response`);
  if (live && !target.safe && !afterDelete)
    for (const x of usableParams.filter((u) => u.p!.in === "path")) {
      const family = familyOf(target.path, x.p!.name);
      // One the run created and deleted since is replaced by one that exists when the request is sent.
      if (family && !isCreated(ctx.state.resources, family, x.value))
        skip(
          `skipped: against a live target, a link feeds ${target.operationId} (which changes data) only ` +
            `with a resource this run created; ${JSON.stringify(x.value)} is not one`,
        );
    }
  const linkedPath = Object.fromEntries(
    usableParams.filter((x) => x.p!.in === "path").map((x) => [x.p!.name, x.value]),
  );
  const values = base(ctx, target, linkedPath);
  const put = (v: Values, name: string, inWhere: string, value: unknown) => {
    const bucket = bucketOf(v, inWhere);
    bucket[name] =
      isArraySchema(ctx.model, target.parameters.find((x) => x.name === name)?.schema) && !Array.isArray(value)
        ? [value]
        : value;
  };
  const fed = cloneValues(values);
  for (const x of usableParams) put(fed, x.p!.name, x.p!.in, x.value);
  const promise = linkPointer(ctx.model, sourced);
  if (afterDelete) {
    await ctx.send(toRequest(target, fed), {
      intent: "after-delete",
      deletedBy: source,
      linked: link.name,
      linkPromise: promise,
    });
    return;
  }
  await ctx.send(toRequest(target, fed), {
    intent: "acceptance",
    linked: link.name,
    linkPromise: promise,
    ...(sourced.inferred ? { linkInferred: true } : {}),
  });
  // A well-formed identifier that does not exist, in place of each linked string value. Through an inferred link
  // only on a live target: the static mock answers any id alike, and the unknown-ids phase covers it there.
  const probed = usableParams.filter(
    (u) => typeof u.value === "string" && (target.safe || !live) && (live || !sourced.inferred),
  );
  for (const x of probed) {
    const seen = new Set(x.all.map(String));
    const unknown = validSamples(ctx.model, x.p!.schemaPointer, 5, ctx.settings.seed + 7)
      .map((v) => (Array.isArray(v) ? v[0] : v))
      .find((v) => typeof v === "string" && !seen.has(v));
    if (unknown === undefined) continue;
    const v = cloneValues(fed);
    put(v, x.p!.name, x.p!.in, unknown);
    await ctx.send(toRequest(target, v), {
      intent: "unknown-resource",
      unknownIn: x.p!.in as "path",
      foreignIds: [unknown as string],
      linked: link.name,
      linkPromise: promise,
    });
  }
}

/** With a second account's key: none of the first account's identifiers come back, listed or asked for. */
async function isolation(ctx: ScenarioContext, op: OperationEntry, links: readonly SourcedLink[]): Promise<void> {
  if (!ctx.settings.secondApiKey) skip("skipped: needs CONTRACT_SECOND_API_KEY (a key of another account)");
  if (ctx.settings.kind !== "live") skip(NEEDS_LIVE);
  await ready(ctx, op);
  const spec = toRequest(op, base(ctx, op));
  const mine = await ctx.send(spec);
  const ids = [
    ...new Set(
      links
        .flatMap((l) => Object.values(l.link.parameters).flatMap((e) => everyValue(e, mine)))
        .filter((v): v is string => typeof v === "string"),
    ),
  ];
  if (ids.length === 0) skip("skipped: needs records on the first account (its response named no identifier)");
  await ctx.send({ ...spec, key: "second" }, { intent: "other-account", foreignIds: ids });
  for (const { link } of links) {
    const target = ctx.model.has(link.operationId) ? ctx.model.operation(link.operationId) : undefined;
    if (!target?.safe) continue;
    for (const [name] of Object.entries(link.parameters)) {
      const p = linkParameter(target, name);
      if (!p) continue;
      const v = base(ctx, target, p.in === "path" ? { [p.name]: ids[0] } : {});
      if (p.in !== "path") bucketOf(v, p.in)[p.name] = isArraySchema(ctx.model, p.schema) ? ids.slice(0, 3) : ids[0];
      await ctx.send({ ...toRequest(target, v), key: "second" }, { intent: "other-account", foreignIds: ids });
    }
  }
}

/** Every generic scenario of one operation, in the order they run. */
export function genericScenarios(model: SpecModel, settings: Settings, op: OperationEntry): Scenario[] {
  const id = op.operationId;
  const links = linksFrom(model, settings.inferLinks, id);
  const out: Scenario[] = [
    {
      id: `${id}/examples`,
      operation: id,
      phase: "examples",
      title:
        "examples: every documented request example is answered as " +
        "documented; every documented response example matches its schema",
      run: (c) => examples(c, op),
    },
    {
      id: `${id}/positive`,
      operation: id,
      phase: "positive",
      title:
        `positive data: ${settings.examples} valid generated requests and boundary ` +
        `values are accepted with documented answers`,
      run: (c) => positive(c, op),
    },
    {
      id: `${id}/negative`,
      operation: id,
      phase: "negative",
      title: "negative data: requests the document rules out get a 4xx, never a 2xx or 5xx",
      run: (c) => negative(c, op),
    },
    {
      id: `${id}/auth`,
      operation: id,
      phase: "auth",
      title: "auth: no key, an empty key and a wrong key are each refused with a 4xx",
      run: (c) => auth(c, op),
    },
  ];
  for (const l of links)
    out.push({
      // A link is known by its operation, response and name: a name written on two responses gets the status too.
      id: l.inferred
        ? `${id}/links/inferred/${l.status}/${l.link.operationId}`
        : links.filter((x) => x.link.name === l.link.name).length > 1
          ? `${id}/links/${l.status}/${l.link.name}`
          : `${id}/links/${l.link.name}`,
      operation: id,
      phase: "links",
      title:
        op.method === "DELETE"
          ? `links: ${l.link.name} feeds a ${l.status} response into ${l.link.operationId}; ` +
            `what the delete removed is refused with a 4xx (use after free)`
          : `links: ${l.link.name}${l.inferred ? "" : ` feeds a ${l.status} response into ${l.link.operationId}`}; ` +
            `the linked resource is available and unknown ones are not`,
      run: (c) => followLink(c, l),
    });
  if (op.safe && links.length > 0)
    out.push({
      id: `${id}/isolation`,
      operation: id,
      phase: "isolation",
      title: "isolation: another account's key never sees this account's records",
      run: (c) => isolation(c, op, links),
    });
  // Last: an edge answer (an empty page far beyond the end) is no response for a link to start from.
  const method = unsupportedMethodFor(model, settings, op);
  if (method)
    out.push({
      id: `${id}/unsupported-method`,
      operation: id,
      phase: "unsupported-method",
      title:
        `unsupported method: ${method} ${op.path}, which the document does not list, is ` +
        `refused with 405 and an Allow header (RFC 9110; warnings only)`,
      run: (c) => unsupportedMethod(c, op, method),
    });
  const linkFed = (p: { name: string }) =>
    settings.kind === "live" && isLinkTarget(model, settings.inferLinks, op, p.name);
  if (hasEdges(model.forRequests, op, op.safe || settings.kind !== "live", linkFed))
    out.push({
      id: `${id}/edges`,
      operation: id,
      phase: "edges",
      title:
        "edges: valid values at the far edge of what the document allows where it sets no bound (format limits, " +
        "long strings, many items, 64-bit integers) get a documented answer, never a 5xx; null for a nullable " +
        "value and text outside ASCII are accepted",
      run: async (c) => {
        await ready(c, op);
        // The link-fed values are gathered once per run of the scenario (each walks every link and kept response).
        let fed: Map<string, unknown[]> | undefined;
        return edges(c, op, base(c, op), (p) => {
          if (!isLinkTarget(c.model, c.settings.inferLinks, op, p.name) || c.settings.kind !== "live") return undefined;
          fed ??= linkedValues(c, op);
          return fed.get(p.name) ?? [];
        });
      },
    });
  return out;
}
