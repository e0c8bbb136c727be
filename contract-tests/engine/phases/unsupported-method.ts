/**
 * The unsupported-method phase (Schemathesis's `unsupported_method`): one request per path of the document
 * with a method the path does not list, judged only by the `unsupported_method` check (warnings: the document
 * promises nothing about a method it does not list). Only GET is sent, only to a path that does not list it, and
 * only to a live target: the suite never sends an unsafe method the document does not show, which might change data.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import type { Settings } from "../../config/settings.js";
import type { SpecModel } from "../../model/model.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import { planOf } from "../plan.js";
import { emptyValues, toRequest, type Values } from "../requests.js";
import type { ScenarioContext } from "../scenario.js";
import { baseValues, parameterValue } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

/**
 * The method to send to `op`'s path: GET, when `op` is the first operation of its path, the path does not list
 * GET, and the target is live. GET is safe (RFC 9110 §9.2.1), so the request cannot change data. The Prism mock
 * is not asked: its answer for a method the document does not list (405 without Allow) says nothing of the service.
 */
export function unsupportedMethodFor(
  model: SpecModel,
  settings: Pick<Settings, "kind">,
  op: OperationEntry,
): string | undefined {
  const onPath = model.operations.filter((o) => o.path === op.path);
  if (settings.kind !== "live" || onPath[0] !== op || onPath.some((o) => o.method.toUpperCase() === "GET"))
    return undefined;
  return "GET";
}

/**
 * The path parameters of `op` for this request: the base request's when there is one, else each one's
 * configured, example or generated value (GET changes nothing, so any well-formed id will do; the body is not
 * needed).
 */
function pathValues(ctx: ScenarioContext, op: OperationEntry): Values["path"] | undefined {
  const b = baseValues(ctx.model, ctx.settings, op);
  if (!isSkip(b)) return b.path;
  const out: Values["path"] = {};
  for (const p of planOf(op).parameters.path.values()) {
    const v = parameterValue(ctx.model, ctx.settings, op, p, true);
    if (!v) return undefined;
    out[p.name] = v.value;
  }
  return out;
}

/** Sends the path's request with `method`, no body, the key, and path parameters. */
async function unsupportedMethod(ctx: ScenarioContext, op: OperationEntry, method: string): Promise<Outcome> {
  const path = pathValues(ctx, op);
  if (!path) return reason("no-value", `no value for a path parameter of ${op.path}`);
  const spec = { ...toRequest(op, { ...emptyValues(), path }), method };
  const [ex] = await ctx.sendAll([{ spec, unjudged: true }]);
  // Only this check: the document's statuses, media types and schemas are not promised for a method it does not list.
  ctx.verdict.only(ex!, ["unsupported_method"], { intent: "unsupported-method", cause: `the method ${method}` });
  return undefined;
}

/** The phase. */
export const unsupportedMethodPhase: Phase = {
  forOperation: ({ model, settings }, op) => {
    const method = unsupportedMethodFor(model, settings, op);
    return method
      ? [
          scenarioOf("unsupported-method", op, (c) => unsupportedMethod(c, op, method), {
            title:
              `${method} ${op.path}, which the document does not list, is refused with 405 and an Allow header ` +
              "(RFC 9110; warnings only)",
          }),
        ]
      : [];
  },
};
