/**
 * The edges phase: valid values at the far edge of what the document allows where it sets no bound, and the value
 * classes real bugs hide behind (null for a nullable value, text outside ASCII, 64-bit integers); the values are
 * built in engine/edges.ts. An edge answer need only be documented and no 5xx; null and text are to be accepted.
 */
import type { OperationEntry, ParameterEntry } from "../../../openapi/lib/operations.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import { edgeRequests, hasEdges } from "../edges.js";
import { valueClassRequests } from "../value-classes.js";
import { toRequest } from "../requests.js";
import type { ScenarioContext } from "../scenario.js";
import { isLinkTarget, linkedValues, readyBase } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";
import { edgeKind, oncePerKind } from "../mock-plan.js";

async function edges(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const live = ctx.settings.kind === "live";
  // On a live target a parameter a link feeds is an identifier: it grows only from values the links gave.
  let fed: Map<string, unknown[]> | undefined;
  if (live) {
    const linked = linkedValues(ctx, op);
    if (isSkip(linked)) return linked;
    fed = linked;
  }
  const linkFed = (p: ParameterEntry) =>
    fed && isLinkTarget(ctx.model, ctx.settings.inferLinks, op, p.name) ? (fed.get(p.name) ?? []) : undefined;
  const all = [
    ...edgeRequests(ctx.model, op, values, linkFed),
    ...valueClassRequests(ctx.model, op, values, linkFed, op.safe || !live),
  ];
  // On the mock, each class of edge value once per place (engine/mock-plan.ts).
  const requests = live
    ? all
    : oncePerKind(all.map((r) => ({ r, kind: edgeKind(r.what), demand: r.intent ?? "", ambiguous: false }))).map(
        (x) => x.r,
      );
  if (requests.length === 0)
    return reason(
      "not-applicable",
      "the document bounds every value of this operation (or sets none the suite can grow; a link-fed identifier " +
        "is left as the link gave it)",
    );
  await ctx.sendAll(
    requests.map((r) => ({
      spec: toRequest(op, r.values, r.extra),
      judge: { intent: r.intent ?? "conforming", cause: r.what },
    })),
  );
  return undefined;
}

/** The phase: planned where the operation has a value with an edge or a value class. */
export const edgesPhase: Phase = {
  forOperation: ({ model, settings }, op) => {
    const live = settings.kind === "live";
    const linkFed = (p: { name: string }) => live && isLinkTarget(model, settings.inferLinks, op, p.name);
    return hasEdges(model, op, op.safe || !live, linkFed) ? [scenarioOf("edges", op, (c) => edges(c, op))] : [];
  },
};
