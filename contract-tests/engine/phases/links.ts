/**
 * The links phase (stateful): each link, written or inferred, followed with values from a successful answer,
 * then with well-formed values that do not exist. A link from a delete leads to what the delete removed: its
 * answer must be a refusal (use after free). On a live target a link feeds an operation that changes data only
 * with a resource the run created.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { everyValue, evaluate, familyOf, linkParameter, linksFrom, type SourcedLink } from "../../model/links.js";
import { linkPointer } from "../../model/promise.js";
import { isSkip, needs, reason, type Outcome } from "../../model/skip.js";
import { validSamples } from "../generate.js";
import { bucketOf, cloneValues, toRequest, type Values } from "../requests.js";
import { isCreated } from "../resources.js";
import type { Probe, ScenarioContext } from "../scenario.js";
import { base, dotValueRefusal, fitsParameter, fitted } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

async function followLink(ctx: ScenarioContext, sourced: SourcedLink): Promise<Outcome> {
  const { source, link } = sourced;
  if (!ctx.model.has(link.operationId))
    return reason("no-link-value", `the link names an operation the document does not have (${link.operationId})`);
  const target = ctx.model.operation(link.operationId);
  const live = ctx.settings.kind === "live";
  // The report names each inferred link it followed, so a reader can check it.
  if (sourced.inferred) ctx.verdict.notes.push(link.name);
  const afterDelete = ctx.model.has(source) && ctx.model.operation(source).method === "DELETE";
  if (afterDelete && !live) return needs("live-target");
  const from = (ctx.state.successes.get(source) ?? [])
    .filter((ex) => ex.response.status === Number(sourced.status) || !/^\d+$/.test(sourced.status))
    .at(-1);
  if (!from) return reason("no-link-value", `no successful ${source} response to follow the link from`);
  const params = Object.entries(link.parameters).map(([name, expr]) => ({
    p: linkParameter(target, name),
    value: evaluate(expr, from),
    all: everyValue(expr, from),
  }));
  const usable = params.filter((x) => x.p && x.value !== undefined);
  for (const x of usable) {
    const refused = x.p!.in === "path" ? dotValueRefusal(link.name, source, x.p!.name, x.value) : undefined;
    if (refused) return refused;
  }
  if (usable.length === 0)
    return reason("no-link-value", `the link's expressions found nothing in the ${source} response`);
  // An inferred link is the suite's guess: a value its parameter's schema rules out (another family's identifier
  // outside this one's enum) would be invalid input sent as valid.
  const misfit = sourced.inferred ? usable.find((x) => !fitsParameter(ctx, x.p!, x.value)) : undefined;
  if (misfit)
    return reason(
      "no-link-value",
      `the inferred link gave ${misfit.p!.in} parameter ${misfit.p!.name} ${JSON.stringify(misfit.value)}, ` +
        "which its schema rules out",
    );
  if (live && !target.safe && !afterDelete)
    for (const x of usable.filter((u) => u.p!.in === "path")) {
      const family = familyOf(target.path, x.p!.name);
      // One the run created and deleted since is replaced by one that exists when the request is sent.
      if (family && !isCreated(ctx.state.resources, family, x.value))
        return reason(
          "no-link-value",
          `against a live target, a link feeds ${target.operationId} (which changes data) only ` +
            `with a resource this run created; ${JSON.stringify(x.value)} is not one`,
        );
    }
  const linkedPath = Object.fromEntries(usable.filter((x) => x.p!.in === "path").map((x) => [x.p!.name, x.value]));
  const values = base(ctx, target, linkedPath);
  if (isSkip(values)) return values;
  const put = (v: Values, name: string, where: string, value: unknown) => {
    bucketOf(v, where)[name] = fitted(
      ctx.model,
      target.parameters.find((x) => x.name === name),
      value,
    );
  };
  const fed = cloneValues(values);
  for (const x of usable) put(fed, x.p!.name, x.p!.in, x.value);
  const promise = linkPointer(ctx.model, sourced);
  const cause = `the value the link ${link.name} gave`;
  if (afterDelete) {
    await ctx.send(toRequest(target, fed), {
      intent: "after-delete",
      deletedBy: source,
      linked: link.name,
      linkPromise: promise,
      cause,
    });
    return undefined;
  }
  await ctx.send(toRequest(target, fed), {
    intent: "acceptance",
    linked: link.name,
    linkPromise: promise,
    cause,
    ...(sourced.inferred ? { linkInferred: true } : {}),
  });
  // A well-formed identifier that does not exist, in place of each linked string value. Through an inferred link
  // only on a live target: the static mock answers any id alike, and the unknown-ids phase covers it there.
  const probed = usable.filter(
    (u) => typeof u.value === "string" && (target.safe || !live) && (live || !sourced.inferred),
  );
  const probes: Probe[] = [];
  for (const x of probed) {
    const seen = new Set(x.all.map(String));
    const unknown = validSamples(ctx.model, x.p!.schemaPointer, 5, ctx.settings.seed + 7)
      .map((v) => (Array.isArray(v) ? v[0] : v))
      .find((v) => typeof v === "string" && !seen.has(v));
    if (unknown === undefined) continue;
    const v = cloneValues(fed);
    put(v, x.p!.name, x.p!.in, unknown);
    probes.push({
      spec: toRequest(target, v),
      judge: {
        intent: "unknown-resource",
        unknownIn: x.p!.in as "path",
        // A valid sample of the parameter's schema.
        wellFormed: true,
        foreignIds: [unknown as string],
        linked: link.name,
        linkPromise: promise,
        cause: `${x.p!.in} parameter ${x.p!.name}: an identifier that does not exist`,
      },
    });
  }
  await ctx.sendAll(probes);
  return undefined;
}

/** A link's scenario id after its operation's: by name, or by status and name when a name repeats. */
function detailOf(l: SourcedLink, links: readonly SourcedLink[]): string {
  if (l.inferred) return `links/inferred/${l.status}/${l.link.operationId}`;
  return links.filter((x) => x.link.name === l.link.name).length > 1
    ? `links/${l.status}/${l.link.name}`
    : `links/${l.link.name}`;
}

function linkScenarios(model: { method: string }, op: OperationEntry, links: readonly SourcedLink[]) {
  return links.map((l) => {
    const s = scenarioOf("links", op, (c) => followLink(c, l), {
      title:
        model.method === "DELETE"
          ? `${l.link.name} feeds a ${l.status} response into ${l.link.operationId}; ` +
            `what the delete removed is refused with a 4xx (use after free)`
          : `${l.link.name}${l.inferred ? "" : ` feeds a ${l.status} response into ${l.link.operationId}`}; ` +
            `the linked resource is available and unknown ones are not`,
    });
    // A link is known by its operation, response and name: a name written on two responses gets the status too.
    return { ...s, id: `${op.operationId}/${detailOf(l, links)}` };
  });
}

/** The phase: one scenario per link leaving the operation. */
export const linksPhase: Phase = {
  forOperation: ({ model, settings }, op) =>
    linkScenarios(op, op, linksFrom(model, settings.inferLinks, op.operationId)),
};
