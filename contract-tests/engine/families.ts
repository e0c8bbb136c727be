/**
 * The resource families of a document a run can follow from birth to death: per family a create produces (a
 * producer link, written or inferred), its read, updates, delete and listing. The lifecycle, authorization and
 * owned-members phases share them.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isMapping, toPointer } from "../../openapi/lib/spec.js";
import type { Settings } from "../config/settings.js";
import { allLinks, bodyMember, familyOf, linkParameter, type SourcedLink } from "../model/links.js";
import type { SpecModel } from "../model/model.js";
import { validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import type { Values } from "./requests.js";
import { itemOf, producersOf } from "./resources.js";
import type { ScenarioContext } from "./scenario.js";
import { withConfiguredMembers } from "./values.js";

/** The object at `pointer` in an answer (an empty one when there is none). */
export const objectAt = (json: unknown, pointer: string): Record<string, unknown> => {
  const at = resolvePointer(json, pointer);
  return isMapping(at) ? at : {};
};

/** The operations of one resource family. */
export interface Family {
  family: string;
  param: string;
  producer: SourcedLink;
  read?: OperationEntry;
  updates: OperationEntry[];
  /** Writes on a path below the resource's own that names nothing else (`/users/{username}/password`). */
  below: OperationEntry[];
  remove?: OperationEntry;
  /** The listing of the collection, with the link that reads identifiers from its items. */
  list?: { op: OperationEntry; items: string; member: string };
}

/** The families of the run's operations a create produces. */
export function familiesOf(model: SpecModel, settings: Settings, operations: OperationEntry[]): Family[] {
  const out: Family[] = [];
  const links = allLinks(model, settings.inferLinks);
  // Families with a producer first (cheap, indexed); only they need the document's paths and links walked.
  const wanted = new Map<string, { param: string; producer: SourcedLink }>();
  for (const op of operations) {
    const item = itemOf(op);
    if (!item || wanted.has(item.family)) continue;
    const [producer] = producersOf(model, settings.inferLinks, item.family);
    if (producer) wanted.set(item.family, { param: item.param, producer });
  }
  if (wanted.size === 0) return out;
  const byPath = new Map<string, OperationEntry[]>();
  for (const o of model.operations) byPath.set(o.path, [...(byPath.get(o.path) ?? []), o]);
  const lists = new Map<string, NonNullable<Family["list"]>>();
  for (const l of links) {
    if (!model.has(l.source) || !model.has(l.link.operationId)) continue;
    const source = model.operation(l.source);
    const target = model.operation(l.link.operationId);
    if (source.method !== "GET") continue;
    for (const [name, expr] of Object.entries(l.link.parameters)) {
      const p = linkParameter(target, name);
      const family = p?.in === "path" ? familyOf(target.path, p.name) : undefined;
      const at = bodyMember(expr);
      const parts = at?.object.split("/") ?? [];
      const index = parts.lastIndexOf("0");
      if (!family || !at || index < 0 || lists.has(family) || source.path !== family.slice(0, family.lastIndexOf("/")))
        continue;
      lists.set(family, {
        op: source,
        items: parts.slice(0, index).join("/"),
        member: `${parts.length > index + 1 ? `/${parts.slice(index + 1).join("/")}` : ""}${toPointer([at.member])}`,
      });
    }
  }
  for (const [family, { param, producer }] of wanted) {
    const on = (method: string) => (byPath.get(family) ?? []).filter((o) => o.method === method);
    const list = lists.get(family);
    out.push({
      family,
      param,
      producer,
      ...(on("GET")[0] ? { read: on("GET")[0] } : {}),
      updates: [...on("PUT"), ...on("PATCH")],
      below: model.operations.filter(
        (o) =>
          ["PUT", "PATCH", "POST"].includes(o.method) &&
          o.path.startsWith(`${family}/`) &&
          !o.path.slice(family.length).includes("{"),
      ),
      ...(on("DELETE")[0] ? { remove: on("DELETE")[0] } : {}),
      ...(list ? { list } : {}),
    });
  }
  return out;
}

/** A valid body for `op` that differs from `sent` in as many members as can be (so an update is seen). */
export function differentBody(ctx: ScenarioContext, op: OperationEntry, sent: unknown, fallback: Values["body"]) {
  const pointer = planOf(op).body?.pointer;
  if (!pointer) return fallback;
  const was = sent !== null && typeof sent === "object" ? (sent as Record<string, unknown>) : {};
  const score = (b: unknown) =>
    isMapping(b) ? Object.entries(b).filter(([k, v]) => JSON.stringify(was[k]) !== JSON.stringify(v)).length : 0;
  const best = validSamples(ctx.model, pointer, 6, ctx.settings.seed + 17)
    .map((b) => withConfiguredMembers(ctx.settings, op, b))
    .sort((a, b) => score(b) - score(a))[0];
  return best !== undefined && score(best) > 0 ? { value: best } : fallback;
}
