/**
 * The resources a run created on a live target, and what it may change there. A resource is known by its
 * family (the path up to its identifier's segment, `/posts/{postId}`) and its identifier; it is recorded from
 * every successful answer of a create the links (written or inferred) read identifiers from, and marked gone
 * after every successful delete of it. On a live target an operation that changes data takes only identifiers
 * of resources the run created that still exist (or ones the settings name); a listed one is only read.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isSuccess } from "../model/exchange.js";
import type { Exchange } from "../model/types.js";
import type { Account } from "../transport/credentials.js";
import {
  allLinks,
  evaluate,
  familyOf,
  linkParameter,
  linksFrom,
  perDocument,
  type LinkDocument,
  type SourcedLink,
} from "../model/links.js";

/** One resource the run created. */
export interface Resource {
  family: string;
  /** The path parameter that names it. */
  param: string;
  value: unknown;
  /** The operation whose answer created it. */
  createdBy: string;
  /** The create's exchange (its request and response). */
  created: Exchange;
  /** False once a delete of it succeeded. */
  alive: boolean;
  /** The account that created it, when not the run's own (`valid`): requests about it go as that account. */
  owner?: Account;
}

/** The run's record of what it created and deleted. */
export interface Resources {
  created: Resource[];
  /** `family value` of every identifier a successful delete removed (created by the run or not). */
  deleted: Set<string>;
}

const keyOf = (family: string, value: unknown) => `${family}\u0000${String(value)}`;

/** The family and parameter of the resource an operation's path names last (`DELETE /posts/{postId}`). */
export function itemOf(op: OperationEntry): { family: string; param: string } | undefined {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const last = names.at(-1);
  const family = last === undefined ? undefined : familyOf(op.path, last);
  return family && family.length === op.path.length && last ? { family, param: last } : undefined;
}

const producers = new WeakMap<OperationEntry[], Map<boolean, Map<string, SourcedLink[]>>>();

/**
 * The links (written or inferred) that feed `family` from the answers of an operation that creates (POST); indexed
 * once per document.
 */
export function producersOf(linkDoc: LinkDocument, infer: boolean, family: string): SourcedLink[] {
  const index = perDocument(producers, linkDoc, infer, (doc) => {
    const byFamily = new Map<string, SourcedLink[]>();
    const byId = new Map(doc.operations.map((o) => [o.operationId, o]));
    for (const l of allLinks(doc, infer)) {
      const target = byId.get(l.link.operationId);
      if (byId.get(l.source)?.method !== "POST" || !target) continue;
      const families = new Set(
        Object.keys(l.link.parameters).flatMap((k) => {
          const p = linkParameter(target, k);
          const f = p?.in === "path" ? familyOf(target.path, p.name) : undefined;
          return f ? [f] : [];
        }),
      );
      for (const f of families) byFamily.set(f, [...(byFamily.get(f) ?? []), l]);
    }
    return byFamily;
  });
  return index.get(family) ?? [];
}

/** The document has a create whose answers feed an identifier (so a run may create resources to clean up). */
export function mayCreate(doc: LinkDocument, infer: boolean): boolean {
  return doc.operations.some((op) => {
    const f = itemOf(op)?.family;
    return f !== undefined && producersOf(doc, infer, f).length > 0;
  });
}

/** Records what a successful answer created (a create a link reads identifiers from) or deleted. */
export function track(doc: LinkDocument, infer: boolean, resources: Resources, ex: Exchange): void {
  if (ex.documented || !isSuccess(ex)) return;
  const op = doc.operations.find((o) => o.operationId === ex.operation && o.method === ex.request.method.toUpperCase());
  if (!op || (op.method !== "DELETE" && op.method !== "POST")) return;
  if (op.method === "DELETE") {
    const item = itemOf(op);
    const value = item && ex.request.pathParams?.[item.param];
    if (!item || value === undefined) return;
    resources.deleted.add(keyOf(item.family, value));
    for (const r of resources.created)
      if (r.family === item.family && String(r.value) === String(value)) r.alive = false;
    return;
  }
  if (op.method !== "POST") return;
  for (const l of linksFrom(doc, infer, op.operationId)) {
    if (/^\d+$/.test(l.status) && Number(l.status) !== ex.response.status) continue;
    const target = doc.operations.find((o) => o.operationId === l.link.operationId);
    if (!target) continue;
    for (const [name, expr] of Object.entries(l.link.parameters)) {
      const p = linkParameter(target, name);
      const family = p?.in === "path" ? familyOf(target.path, p.name) : undefined;
      const value = evaluate(expr, ex);
      if (!family || !p || value === undefined || value === null || typeof value === "object") continue;
      if (resources.created.some((r) => r.family === family && String(r.value) === String(value))) continue;
      const key = ex.request.key;
      const owner = key === "second" || key?.startsWith("account-") ? (key as Account) : undefined;
      resources.created.push({
        family,
        param: p.name,
        value,
        createdBy: op.operationId,
        created: ex,
        alive: true,
        ...(owner ? { owner } : {}),
      });
    }
  }
}

/** The newest resource of `family` the run created that still exists. */
export function aliveOf(resources: Resources, family: string): Resource | undefined {
  return resources.created.filter((r) => r.family === family && r.alive).at(-1);
}

/** A successful delete removed this identifier of `family`. */
export const isDeleted = (resources: Resources, family: string, value: unknown): boolean =>
  resources.deleted.has(keyOf(family, value));

/** The identifier names a resource of `family` the run created and that still exists. */
export const isAlive = (resources: Resources, family: string, value: unknown): boolean =>
  resources.created.some((r) => r.family === family && r.alive && String(r.value) === String(value));

/** The identifier names a resource of `family` the run created (whether or not it still exists). */
export const isCreated = (resources: Resources, family: string, value: unknown): boolean =>
  resources.created.some((r) => r.family === family && String(r.value) === String(value));
