/**
 * The auth phase: no key, an empty key, a wrong key, and (when the run's own credential is a JWT, on a live target)
 * that token forged, its signature altered and its header saying `alg: none`: each placed as the operation's
 * security scheme says, each to be refused.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import { authPlan, emptyProbeDoubt } from "../../model/wire.js";
import { toRequest } from "../requests.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { readyBase } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

/** Why the operation has no credential to probe, or undefined when it has one the suite can present. */
function noCredentialToProbe(op: OperationEntry): Outcome {
  const plan = authPlan(op);
  if (plan.kind === "none" && !plan.optional)
    return reason("not-applicable", "the operation requires no authentication");
  if (plan.kind !== "unsupported" && plan.optional)
    return reason(
      "not-applicable",
      "the document lets the operation be called without a credential (an empty security alternative, {})",
    );
  if (plan.kind === "unsupported")
    return reason(
      "not-applicable",
      `the suite cannot present a credential for ${plan.schemes.join(", ")} (it sends ` +
        `apiKey, http bearer/basic, oauth2 and openIdConnect credentials)`,
    );
  return undefined;
}

async function auth(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const none = noCredentialToProbe(op);
  if (none) return none;
  const values = await readyBase(ctx, op);
  if (isSkip(values)) return values;
  const spec = toRequest(op, values);
  const live = ctx.settings.kind === "live";
  // Against the mock only: on a live target such a probe is a wrong credential, which must be refused.
  const emptyDoubt = live ? undefined : emptyProbeDoubt(op, authPlan(op));
  const probes: Probe[] = [
    { spec: { ...spec, key: "none" }, judge: { intent: "no-key", cause: "no credential" } },
    {
      spec: { ...spec, key: "empty" },
      judge: { intent: "empty-key", cause: "an empty credential", ...(emptyDoubt ? { inDoubt: emptyDoubt } : {}) },
    },
  ];
  // Prism's mock accepts any non-empty key, so only a live server can show a wrong key is refused.
  if (live)
    probes.push({ spec: { ...spec, key: "wrong" }, judge: { intent: "wrong-key", cause: "a wrong credential" } });
  // A JWT the run holds, forged: its signature altered, and its header saying alg none with no signature.
  if (live && ctx.forgeable())
    probes.push(
      {
        spec: { ...spec, key: "forged-signature" },
        judge: { intent: "forged-credential", cause: "the run's own JWT with its signature altered" },
      },
      {
        spec: { ...spec, key: "alg-none" },
        judge: { intent: "forged-credential", cause: "the run's own JWT with alg none" },
      },
    );
  await ctx.sendAll(probes);
  return undefined;
}

/** The phase. */
export const authPhase: Phase = {
  forOperation: (_input, op) => [scenarioOf("auth", op, (c) => auth(c, op))],
};
