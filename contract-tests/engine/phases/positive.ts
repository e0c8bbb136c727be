/** The positive phase: valid requests generated from the parameter and body schemas, boundary values included. */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isSkip, type Outcome } from "../../model/skip.js";
import { boundaries, validSamples } from "../generate.js";
import { planOf } from "../plan.js";
import { bucketOf, cloneValues, readBack, toRequest, type Values } from "../requests.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { withReferences } from "../body-values.js";
import { fitted, isLinkTarget, linkedValues, readyBase, withConfiguredMembers } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

/** The most boundary requests per operation: on a live target each may cost, so fewer. */
const BOUNDS = { live: 4, mock: 8 } as const;

/** Boundaries one per parameter or member in turn (its first, then the next one's...), so a few reach each. */
function roundRobin(bounds: Probe[]): Probe[] {
  const by = new Map<string, Probe[]>();
  for (const b of bounds) {
    const at = String(b.judge?.cause).split(":")[0]!;
    by.set(at, [...(by.get(at) ?? []), b]);
  }
  const out: Probe[] = [];
  for (let i = 0; out.length < bounds.length; i++) for (const list of by.values()) if (list[i]) out.push(list[i]!);
  return out;
}

async function positive(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const linked = linkedValues(ctx, op);
  if (isSkip(linked)) return linked;
  const count = ctx.settings.examples;
  const pointer = planOf(op).body?.pointer;
  const bodies = pointer ? validSamples(ctx.model, pointer, count, ctx.settings.seed) : [];
  const optional = op.parameters.filter((p) => p.in !== "path" && !p.required);
  const samples = new Map(
    optional.map((p) => [p.name, validSamples(ctx.model, p.schemaPointer, count, ctx.settings.seed + p.name.length)]),
  );
  const probes: Probe[] = [];
  for (let i = 0; i < count; i++) {
    const v = cloneValues(values);
    if (bodies.length)
      v.body = { value: withReferences(ctx, op, withConfiguredMembers(ctx.settings, op, bodies[i % bodies.length])) };
    optional.forEach((p, j) => {
      if ((i + j) % 2 !== 0) return;
      // On a live target an identifier the document links to must exist: link-fed parameters use linked values only.
      const fed = linked.get(p.name);
      const value = fed
        ? fed[i % fed.length]
        : ctx.settings.kind === "live" && isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name)
          ? undefined
          : samples.get(p.name)?.[i];
      if (value !== undefined) bucketOf(v, p.in)[p.name] = fitted(ctx.model, p, value);
    });
    probes.push({ spec: toRequest(op, v), judge: { cause: "a generated valid request" } });
  }
  // A boundary is sent only when it is valid as a whole (a minLength string may break a format, a maximum a
  // multipleOf).
  const valid = (at: string, value: unknown) => ctx.model.validator.validate(at, value).length === 0;
  const bounds: Probe[] = [];
  for (const p of optional)
    for (const b of boundaries(ctx.model, p.schema))
      if (valid(p.schemaPointer, b.value)) {
        const v: Values = { ...cloneValues(values), [p.in]: { ...values[p.in as "query"], [p.name]: b.value } };
        bounds.push({ spec: toRequest(op, v), judge: { cause: `${p.in} parameter ${p.name}: ${b.what}` } });
      }
  const bodySchema = pointer ? ctx.model.deref({ $ref: `#${pointer}` }, pointer).schema : undefined;
  if (values.body && pointer && bodySchema?.properties)
    for (const [name, s] of Object.entries(bodySchema.properties as Record<string, unknown>))
      for (const b of boundaries(ctx.model, s)) {
        const candidate = { ...(values.body.value as object), [name]: b.value };
        if (valid(pointer, readBack(ctx.model, op, candidate)))
          bounds.push({
            spec: toRequest(op, { ...cloneValues(values), body: { value: candidate } }),
            judge: { cause: `body member ${name}: ${b.what}` },
          });
      }
  await ctx.sendAll([
    ...probes,
    ...roundRobin(bounds).slice(0, BOUNDS[ctx.settings.kind === "live" ? "live" : "mock"]),
  ]);
  return undefined;
}

/** The phase. */
export const positivePhase: Phase = {
  forOperation: ({ settings }, op) => [
    scenarioOf("positive", op, (c) => positive(c, op), {
      title: `${settings.examples} valid generated requests and boundary values are accepted with documented answers`,
    }),
  ],
};
