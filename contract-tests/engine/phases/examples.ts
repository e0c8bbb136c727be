/**
 * The examples phase: documented request examples (body and parameters) sent, documented response examples
 * checked against their own schemas. An example that breaks its own schema is still sent, but its acceptance is
 * in doubt (a warning naming the defect).
 */
import { isJsonMedia, type ExampleEntry, type OperationEntry } from "../../../openapi/lib/operations.js";
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
  const bodyExamples = planOf(op).body?.media.examples ?? [];
  if (!bodyExamples.length) sends.push({ values, cause: "the base request" });
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
    for (const e of p.examples) {
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
