/**
 * The isolation phase (reads): with a second account's credential, a safe operation whose answers link to
 * identifiers is asked again, and each safe operation its links lead to is asked for the first account's
 * identifiers: none of them may come back.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { everyValue, linkParameter, linksFrom, type SourcedLink } from "../../model/links.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import { authPlan } from "../../model/wire.js";
import { bucketOf, toRequest } from "../requests.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { base, isArraySchema, readyBase } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

async function isolation(ctx: ScenarioContext, op: OperationEntry, links: readonly SourcedLink[]): Promise<Outcome> {
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const spec = toRequest(op, values);
  const mine = await ctx.send(spec, { cause: "the first account's own request" });
  const ids = [
    ...new Set(
      links
        .flatMap((l) => Object.values(l.link.parameters).flatMap((e) => everyValue(e, mine)))
        .filter((v): v is string => typeof v === "string"),
    ),
  ];
  if (ids.length === 0)
    return reason("needs-records", "needs records on the first account (its response named no identifier)");
  const probes: Probe[] = [
    {
      spec: { ...spec, key: "second" },
      judge: { intent: "other-account", foreignIds: ids, cause: "the same request with another account's credential" },
    },
  ];
  for (const { link } of links) {
    const target = ctx.model.has(link.operationId) ? ctx.model.operation(link.operationId) : undefined;
    if (!target?.safe) continue;
    for (const name of Object.keys(link.parameters)) {
      const p = linkParameter(target, name);
      if (!p) continue;
      const v = base(ctx, target, p.in === "path" ? { [p.name]: ids[0] } : {});
      if (isSkip(v)) return v;
      // A filter asks for at most three identifiers: those three are the ones that must not come back.
      const asked = p.in !== "path" && isArraySchema(ctx.model, p.schema) ? ids.slice(0, 3) : [ids[0]!];
      if (p.in !== "path") bucketOf(v, p.in)[p.name] = isArraySchema(ctx.model, p.schema) ? asked : asked[0];
      probes.push({
        spec: { ...toRequest(target, v), key: "second" },
        judge: {
          intent: "other-account",
          foreignIds: asked,
          cause: `${p.in} parameter ${p.name}: the first account's identifier`,
        },
      });
    }
  }
  await ctx.sendAll(probes);
  return undefined;
}

/** The phase: planned for a safe operation whose answers link to identifiers and that requires authentication. */
export const isolationPhase: Phase = {
  forOperation: ({ model, settings }, op) => {
    const links = linksFrom(model, settings.inferLinks, op.operationId);
    if (!op.safe || links.length === 0) return [];
    const s = scenarioOf("isolation", op, (c) => isolation(c, op, links));
    const plan = authPlan(op);
    // Another account sees what anyone sees where no credential is asked for: nothing to isolate.
    if (plan.kind === "none" || (plan.kind === "placed" && plan.optional))
      return [
        {
          ...s,
          skip: reason(
            "not-applicable",
            "the operation requires no authentication, so another account may see what anyone sees",
          ),
        },
      ];
    return [s];
  },
};
