/**
 * A request as it goes out (the executor's last step before the transport): an identifier a delete removed
 * replaced, values a server keeps unique made fresh, and the account it goes as (the one that created what it is
 * about, or a throwaway one for what can change an account the user gave).
 */
import { familyOf } from "../model/links.js";
import { isSkip, type SkipReason } from "../model/skip.js";
import type { CheckContext } from "../model/types.js";
import type { RequestSpec } from "../transport/target.js";
import { freshUnique } from "./body-values.js";
import { expandPath } from "./requests.js";
import { aliveOf, isDeleted } from "./resources.js";
import type { ScenarioContext } from "./scenario.js";

/**
 * On a live target, a request naming an identifier a successful delete removed gets one the run created that
 * exists now (created for it when none does): a probe never meets a resource the run already deleted, and a
 * delete is never sent again to what it removed as if it were fresh input.
 */
async function substitute(
  ctx: ScenarioContext,
  spec: RequestSpec,
  intent: CheckContext["intent"] | undefined,
): Promise<RequestSpec> {
  if (ctx.settings.kind !== "live" || !spec.pathParams || intent === "after-delete" || intent === "unknown-resource")
    return spec;
  if (!ctx.model.has(spec.operation)) return spec;
  const op = ctx.model.operation(spec.operation);
  let params = spec.pathParams;
  for (const [name, value] of Object.entries(spec.pathParams)) {
    const family = familyOf(op.path, name);
    if (!family || !isDeleted(ctx.state.resources, family, value)) continue;
    const r = aliveOf(ctx.state.resources, family) ?? (await ctx.produce(family));
    if (r) params = { ...params, [name]: r.value };
  }
  return params === spec.pathParams ? spec : { ...spec, pathParams: params, path: expandPath(op, params) };
}

/**
 * A request as it goes out: an identifier a delete removed replaced (see `substitute`); a request about a resource
 * a throwaway account created sent as that account; and one that changes an account (a password, an e-mail, the
 * account itself) sent as a throwaway account and addressed to it, never as an account the user gave. Why it
 * cannot go when no throwaway account can be had.
 */
export async function prepared(
  ctx: ScenarioContext,
  spec: RequestSpec,
  intent: CheckContext["intent"] | undefined,
): Promise<RequestSpec | SkipReason> {
  let out = await substitute(ctx, spec, intent);
  const accounts = ctx.state.accounts;
  // No second account given: throwaway account 2, registered where the document can, is the second.
  if (out.key === "second" && accounts?.registersSecond) {
    const second = await accounts.throwaway(ctx, 2);
    if (isSkip(second)) return second;
    out = { ...out, key: second };
  }
  if (ctx.settings.kind !== "live" || !ctx.model.has(out.operation)) return out;
  const op = ctx.model.operation(out.operation);
  // A valid create never repeats a value the server may keep unique that the run already sent (see freshUnique).
  if (
    (intent === undefined || intent === "acceptance" || intent === "conforming") &&
    out.json !== undefined &&
    out.rawBody === undefined
  ) {
    const json = freshUnique(ctx, op, out.json);
    if (json !== out.json) out = { ...out, json };
  }
  const mine = out.key === undefined || out.key === "valid";
  if (mine && out.pathParams)
    for (const [name, value] of Object.entries(out.pathParams)) {
      const family = familyOf(op.path, name);
      const r = family
        ? ctx.state.resources.created.find((x) => x.family === family && x.alive && String(x.value) === String(value))
        : undefined;
      if (r?.owner) out = { ...out, key: r.owner };
    }
  // A request that names an account the user gave (its record, its role) goes as a throwaway one, addressed to it.
  const names = accounts?.namesLogin(out) ?? false;
  if (!accounts || (!accounts.changesAccount(op) && !names)) return out;
  // A throwaway account stands in for the run's own (1) and for the second (2); any other key goes as it is.
  const n = out.key === undefined || out.key === "valid" ? 1 : out.key === "second" ? 2 : undefined;
  if (n === undefined) return out;
  const account = await accounts.throwaway(ctx, n);
  if (isSkip(account)) return account;
  const own = accounts.throwaways.find((t) => t.account === account)!;
  if (names) {
    out = accounts.readdressed(out, own.username);
    if (out.pathParams) out = { ...out, path: expandPath(op, out.pathParams) };
  }
  // Addressed to the throwaway account itself where the path names an account (a probe about its path value, an
  // invalid or unknown one, keeps it).
  const probe = intent !== undefined && intent !== "acceptance" && intent !== "conforming";
  const param =
    accounts.family && !probe
      ? op.parameters.find((p) => p.in === "path" && accounts.family === familyOf(op.path, p.name))
      : undefined;
  if (param && out.pathParams) {
    const params = { ...out.pathParams, [param.name]: own.username };
    out = { ...out, pathParams: params, path: expandPath(op, params) };
  }
  return { ...out, key: account };
}
