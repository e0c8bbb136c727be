/**
 * The negative phase: requests the document rules out (each confirmed invalid by ajv as the server reads it),
 * each expected to get a 4xx. The rejection is demanded (an error) where the document promises one, else implied.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import { documentedServerCondition } from "../../checks/not-a-server-error.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import type { Exchange } from "../../model/types.js";
import { fromWire } from "../../model/wire-values.js";
import { writtenByTransport } from "../../model/wire.js";
import type { RequestSpec } from "../../transport/target.js";
import { moreInvalidValues, requiredParameters } from "../coverage.js";
import { invalidValues, type Mutation } from "../generate.js";
import { planOf } from "../plan.js";
import { bucketOf, cloneValues, readBack, readsAsNoBody, serialize, toRequest, type Values } from "../requests.js";
import type { Judgement, ScenarioContext } from "../scenario.js";
import { readyBase } from "../values.js";
import { oncePerKind } from "../mock-plan.js";
import { type Phase, scenarioOf } from "./phase.js";

/** One invalid request: what makes it invalid, and whether its refusal is demanded or implied. */
interface Case {
  spec: RequestSpec;
  what: string;
  demand: Mutation["demand"];
  /** It cannot be told apart from a valid request (an empty value, read as absent). */
  ambiguous: boolean;
  /** The kind of rule it breaks, where (`query: maxLength`, `body: required`): the mock gets one of each. */
  kind: string;
  /**
   * A wrong JSON type beyond the first of its place (see wrongTypes): sent within the operation's allowance of such
   * values, the lowest first.
   */
  extra?: number;
}

/**
 * How many wrong JSON types beyond the first of each member and parameter one operation sends. The first of each is
 * always sent (as before); the others (a body of null or an array, a member of null, an array, a boolean, ...) go
 * within this allowance, so that a body of many members does not spend the run's request budget (about 17 to 20
 * requests per operation on public documents) on types alone.
 */
const EXTRA_WRONG_TYPES = 12;

/** The order the extra wrong types go in: the ones servers trip on most first (a null read as an object). */
const EXTRA_ORDER = ["null", "array", "boolean", "object", "integer", "number", "string"];

/** The invalid bodies built on the valid one: media, syntax, the schema's own rules, each member's. */
function bodyCases(ctx: ScenarioContext, op: OperationEntry, values: Values, add: (c: Case) => void): void {
  const body = planOf(op).body;
  const pointer = body?.pointer;
  if (!body || !values.body || !pointer) return;
  const send = (spec: RequestSpec, what: string, kind: string, demand: Mutation["demand"] = "error", extra?: number) =>
    add({ spec, what, demand, ambiguous: false, kind: `body: ${kind}`, ...(extra !== undefined ? { extra } : {}) });
  /** The first rule `candidate` breaks, or undefined when it is valid. */
  const broken = (candidate: unknown) =>
    ctx.model.validator.validate(pointer, readBack(ctx.model, op, candidate))[0]?.keyword;
  if (body.required)
    send(toRequest(op, { ...values, body: undefined } as Values), "no body where one is required", "none");
  if (body.writing === "json") {
    const text = JSON.stringify(values.body.value);
    send(
      toRequest(op, values, { rawBody: text, contentType: "text/plain", json: undefined }),
      "a JSON body sent as text/plain",
      "media type",
    );
    send(toRequest(op, values, { rawBody: text.slice(0, -1) || "{", json: undefined }), "malformed JSON", "syntax");
  }
  const { schema = {}, pointer: at } = ctx.model.deref({ $ref: `#${pointer}` }, pointer);
  // The members the mutations start from: none when the valid body is no object (null for a nullable schema).
  const members: Record<string, unknown> = isMapping(values.body.value) ? values.body.value : {};
  // Written as text (a form, multipart, text), wrong types read alike: one per member and place (see wrongTypes).
  const text = body.writing !== "json";
  const whole = wrongTypes(text, 0);
  const bodies: Array<[unknown, string, Mutation["demand"], number?]> = [];
  for (const m of [
    ...invalidValues(ctx.model, { $ref: `#${pointer}` }),
    ...moreInvalidValues(ctx.model, { $ref: `#${pointer}` }, pointer, values.body.value),
  ]) {
    const rank = whole(m);
    if (rank !== false) bodies.push([m.value, `a body that is ${m.what}`, m.demand, rank]);
  }
  bodies.push([{}, "an empty object", "error"]);
  for (const name of (schema.required as string[] | undefined) ?? []) {
    const { [name]: _dropped, ...rest } = members;
    bodies.push([rest, `missing required member ${name}`, "error"]);
  }
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const rank = wrongTypes(text, 1);
    for (const m of [
      ...invalidValues(ctx.model, s),
      ...moreInvalidValues(ctx.model, s, `${at}/properties/${name}`, members[name]),
    ]) {
      const r = rank(m);
      if (r !== false) bodies.push([{ ...members, [name]: m.value }, `${name}: ${m.what}`, m.demand, r]);
    }
  }
  // An optional body (`required` defaults to false) written as nothing (an empty form) is a body left out: allowed.
  const leftOut = (candidate: unknown) => !body.required && readsAsNoBody(op, candidate);
  // The same bytes are one request, whatever value they were built from (a form writes several alike).
  const sent = new Set<string>();
  for (const [candidate, what, demand, extra] of bodies) {
    const keyword = broken(candidate);
    if (keyword === undefined || leftOut(candidate)) continue;
    const spec = toRequest(op, { ...values, body: { value: candidate } });
    const bytes = spec.rawBody ?? (spec.json === undefined ? "" : `json:${JSON.stringify(spec.json)}`);
    const key = `${spec.contentType}\u0000${JSON.stringify(spec.headers)}\u0000${bytes}`;
    if (sent.has(key)) continue;
    sent.add(key);
    // JSON null for an optional body: many readers (Prism, body parsers) take it as no body, which is allowed.
    if (candidate === null && !body.required)
      add({
        spec,
        what,
        demand: "warning",
        ambiguous: true,
        kind: `body: ${keyword}`,
        ...(extra !== undefined ? { extra } : {}),
      });
    else send(spec, what, keyword, demand, extra);
  }
}

/**
 * A filter of one member's or parameter's mutations, and the rank of an extra wrong type. Written as JSON, every wrong
 * JSON type goes: the first of each place (value, item) as always, the others as extras ranked by EXTRA_ORDER (`level`
 * 0 for the body itself, 1 for its members and parameters: the body first at the same type). Written as text (a
 * styled parameter, a form or multipart field, a text body), where a boolean, a number and a string are all just
 * text, null an empty value, and an array or an object changes the fields rather than the type, only the first wrong
 * type per place goes. False: not sent; undefined: sent, no extra.
 */
function wrongTypes(text: boolean, level: 0 | 1): (m: Mutation) => number | undefined | false {
  const taken = new Set<string>();
  return (m) => {
    if (!m.wrongType) return undefined;
    if (!taken.has(m.wrongType.at)) {
      taken.add(m.wrongType.at);
      return undefined;
    }
    if (text) return false;
    const order = EXTRA_ORDER.indexOf(m.wrongType.type);
    return (order < 0 ? EXTRA_ORDER.length : order) * 2 + level;
  };
}

/** Required parameters left out, and parameters that break their schemas as the server reads the wire. */
function parameterCases(ctx: ScenarioContext, op: OperationEntry, values: Values, add: (c: Case) => void): void {
  // A required parameter left out (Schemathesis's missing_parameter; missing_required_header for headers); a
  // header the transport writes anyway (Host, Content-Length with a body, User-Agent) cannot be left out.
  for (const p of requiredParameters(op)) {
    if (p.in === "header" && writtenByTransport(p.name, values.body !== undefined)) continue;
    const v = cloneValues(values);
    delete bucketOf(v, p.in)[p.name];
    add({
      spec: toRequest(op, v),
      what: `required ${p.in} parameter ${p.name} left out`,
      demand: "error",
      ambiguous: false,
      kind: `${p.in}: required`,
    });
  }
  for (const p of op.parameters) {
    // An empty path segment would change the route, not the parameter; a value still valid on the wire is no
    // negative.
    const wireErrors = (value: unknown) => {
      const wire = serialize(p, value);
      return p.in === "path" && (wire === "" || value === null)
        ? []
        : ctx.model.validator.validate(p.schemaPointer, fromWire(ctx.model, p, wire));
    };
    // A parameter with JSON content carries each wrong type as itself; a styled one as text (see wrongTypes).
    const rank = wrongTypes(p.contentType === undefined, 1);
    for (const m of [
      ...invalidValues(ctx.model, p.schema),
      ...moreInvalidValues(ctx.model, p.schema, p.schemaPointer, bucketOf(values, p.in)[p.name]),
    ]) {
      const extra = rank(m);
      if (extra === false) continue;
      const wire = serialize(p, m.value);
      const errors = wireErrors(m.value);
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
      add({
        spec: toRequest(op, v),
        what: `${p.in} parameter ${p.name}: ${m.what}; ${sent}`,
        demand: wire === "" || styledObject ? "warning" : m.demand,
        ambiguous: wire === "" || (Array.isArray(wire) && wire.every((w) => w === "")),
        kind: `${p.in}: ${errors[0]!.keyword}`,
        ...(extra !== undefined ? { extra } : {}),
      });
    }
  }
}

async function negative(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  let cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  bodyCases(ctx, op, values, add);
  parameterCases(ctx, op, values, add);
  // The extra wrong types within their allowance, the lowest rank first; the cases keep their order.
  const extras = new Set(
    cases
      .filter((c) => c.extra !== undefined)
      .sort((a, b) => a.extra! - b.extra!)
      .slice(0, EXTRA_WRONG_TYPES),
  );
  cases.splice(0, cases.length, ...cases.filter((c) => c.extra === undefined || extras.has(c)));
  if (cases.length === 0) return reason("not-applicable", "the document rules out no input of this operation");
  // On the mock, each kind of rule once (engine/mock-plan.ts): Prism's validator answers the others alike.
  if (ctx.settings.kind === "mock") cases = oncePerKind(cases);
  const answers = await ctx.sendAll(cases.map((c) => ({ spec: c.spec, unjudged: true })));
  // Invalid input answered with a 5xx: the valid base it was built on is asked once. A base that fails already is
  // reported once, as its own failure; the invalid inputs built on it and answered with a 5xx are not judged again
  // (one server bug must not read as many missing validations).
  let baseAnswer: Exchange | undefined;
  for (const [i, c] of cases.entries()) {
    const ex = answers[i]!;
    const judged: Judgement = {
      intent: "rejection",
      demand: c.demand,
      mutation: c.what,
      cause: c.what,
      ...(c.ambiguous ? { ambiguous: true } : {}),
    };
    if (ex.response.status >= 500) {
      baseAnswer ??= await ctx.send(toRequest(op, values), {
        cause: "the valid request the invalid ones were built on",
      });
      const failed = baseAnswer.response.status;
      if (failed >= 500 && !documentedServerCondition(ctx.model, op.operationId, failed)) {
        ctx.verdict.only(ex, [], judged);
        continue;
      }
    }
    ctx.verdict.check(ex, [], judged);
  }
  return undefined;
}

/** The phase. */
export const negativePhase: Phase = {
  forOperation: (_input, op) => [scenarioOf("negative", op, (c) => negative(c, op))],
};
