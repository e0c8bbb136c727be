/**
 * The examples phase: documented request examples (body and parameters) sent, documented response examples
 * checked against their own schemas. An example that breaks its own schema is still sent, but its acceptance is
 * in doubt (a warning naming the defect).
 */
import { isJsonMedia, type ExampleEntry, type OperationEntry } from "../../../openapi/lib/operations.js";
import { isMapping } from "../../../openapi/lib/spec.js";
import { isSkip, type Outcome } from "../../model/skip.js";
import type { RequestSpec } from "../../transport/target.js";
import { planOf } from "../plan.js";
import { bucketOf, cloneValues, exampleProblem, toRequest, type Values } from "../requests.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { fitted, isLinkTarget, linkedValues, readyBase, withConfiguredMembers } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

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

/** Every documented response example, judged as the answer it documents (nothing is sent). */
function checkResponseExamples(ctx: ScenarioContext, op: OperationEntry): void {
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
}

/** What the document gives a schema as an example value: `example`, `examples[0]`, `default`, `const`, `enum[0]`. */
function documentedValue(s: any): { value: unknown } | undefined {
  if (!s || typeof s !== "object") return undefined;
  if ("example" in s) return { value: s.example };
  if (Array.isArray(s.examples) && s.examples.length > 0) return { value: s.examples[0] };
  if (s.default !== undefined) return { value: s.default };
  if ("const" in s) return { value: s.const };
  if (Array.isArray(s.enum) && s.enum.length > 0) return { value: s.enum[0] };
  return undefined;
}

/**
 * A body composed from its members' examples (and defaults, consts, enums' first values), nested objects too, for a
 * body that has no example of its own; a required member without one takes the base body's value. Undefined when
 * no member has one.
 */
function composed(ctx: ScenarioContext, pointer: string, base: unknown, depth = 0): unknown {
  const { schema } = ctx.model.deref({ $ref: `#${pointer}` }, pointer);
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  if (depth > 3 || Object.keys(props).length === 0) return undefined;
  const from = isMapping(base) ? base : {};
  const out: Record<string, unknown> = {};
  let found = false;
  for (const [name, raw] of Object.entries(props)) {
    const { schema: member, pointer: at } = ctx.model.deref(raw, `${pointer}/properties/${name}`);
    const own = documentedValue(member);
    const inner = own ? undefined : composed(ctx, at, from[name], depth + 1);
    if (own) out[name] = structuredClone(own.value);
    else if (inner !== undefined) out[name] = inner;
    else if (((schema.required as string[] | undefined) ?? []).includes(name) && name in from) out[name] = from[name];
    else continue;
    found ||= own !== undefined || inner !== undefined;
  }
  return found ? out : undefined;
}

/**
 * A parameter without an example of its own: its schema's (example, const or first enum value; not its default,
 * which is what leaving it out means, nor null, which a styled parameter cannot carry).
 */
function schemaExample(ctx: ScenarioContext, p: OperationEntry["parameters"][number]): ExampleEntry[] {
  const s = ctx.model.deref(p.schema, p.schemaPointer).schema;
  const own = s && typeof s === "object" ? documentedValue({ ...s, default: undefined }) : undefined;
  return own && own.value !== null && own.value !== undefined
    ? [{ name: "schema", value: own.value, unnamed: true }]
    : [];
}

/** One documented request example to send: its values, the response example it pairs with, its own defect. */
interface Send {
  values: Values;
  pair?: string | undefined;
  doubt?: string | undefined;
  cause: string;
}

/** The documented request examples of `op`, each on the base values. */
function documentedSends(ctx: ScenarioContext, op: OperationEntry, values: Values): Send[] | Outcome {
  const sends: Send[] = [];
  const body = planOf(op).body;
  const bodyExamples = body?.media.examples ?? [];
  // A body without a media example: its schema's own example (`example`, or the first of `examples`), else one
  // composed from its members' examples, when they have some.
  const rootSchema = body?.pointer ? ctx.model.deref({ $ref: `#${body.pointer}` }, body.pointer).schema : undefined;
  const rootExample =
    bodyExamples.length || !isMapping(rootSchema)
      ? undefined
      : "example" in rootSchema
        ? { value: rootSchema.example }
        : Array.isArray(rootSchema.examples) && rootSchema.examples.length > 0
          ? { value: rootSchema.examples[0] }
          : undefined;
  const composedBody =
    !bodyExamples.length && !rootExample && body?.pointer ? composed(ctx, body.pointer, values.body?.value) : undefined;
  const own = rootExample
    ? { value: rootExample.value, cause: "the body schema's example" }
    : composedBody !== undefined
      ? { value: composedBody, cause: "a body composed from its members' examples" }
      : undefined;
  if (own) {
    const v = withConfiguredMembers(ctx.settings, op, structuredClone(own.value));
    sends.push({
      values: { ...cloneValues(values), body: { value: v } },
      doubt: exampleProblem(ctx.model, op, "body", v)?.replace(
        "the document's example",
        own.cause === "the body schema's example" ? own.cause : "the body composed from its members' examples",
      ),
      cause: own.cause,
    });
  } else if (!bodyExamples.length) sends.push({ values, cause: "the base request" });
  for (const e of bodyExamples) {
    const body = withConfiguredMembers(ctx.settings, op, structuredClone(e.value));
    sends.push({
      values: { ...cloneValues(values), body: { value: body } },
      pair: pairOf(op, e),
      doubt: exampleProblem(ctx.model, op, "body", body),
      cause: `the body example ${JSON.stringify(e.name)}`,
    });
  }
  const live = ctx.settings.kind === "live";
  for (const p of op.parameters.filter((x) => x.in !== "path"))
    for (const e of p.examples.length ? p.examples : schemaExample(ctx, p)) {
      // Identifiers in examples need not exist on a live server: a linked parameter is sent with a linked value.
      const linked = live && isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name);
      let value: unknown = e.value;
      if (linked) {
        const fed = linkedValues(ctx, op);
        if (isSkip(fed)) return fed;
        value = fed.get(p.name)?.[0];
      }
      if (value === undefined) continue;
      const v = cloneValues(values);
      bucketOf(v, p.in)[p.name] = linked ? fitted(ctx.model, p, value) : value;
      sends.push({
        values: v,
        pair: linked ? undefined : pairOf(op, e),
        doubt: linked ? undefined : exampleProblem(ctx.model, op, p, value),
        cause: `the ${p.in} parameter ${p.name}'s example ${JSON.stringify(e.name)}`,
      });
    }
  return sends;
}

async function examples(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  checkResponseExamples(ctx, op);
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const sends = documentedSends(ctx, op, values);
  if (!Array.isArray(sends)) return sends;
  const probes = sends.map((s): Probe => {
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
    return {
      spec: toRequest(op, s.values, extra),
      judge: { cause: s.cause, ...(s.doubt ? { inDoubt: s.doubt } : {}) },
    };
  });
  await ctx.sendAll(probes);
  return undefined;
}

/** The phase. */
export const examplesPhase: Phase = {
  forOperation: (_input, op) => [scenarioOf("examples", op, (c) => examples(c, op))],
};
