/**
 * OpenAPI links: runtime expressions (`$response.body#/data/results/0/id`, `$response.header.Location`,
 * `$request.path.id`, `$request.query.x`, `$request.body#/id`, `$statusCode`, constants, and strings with
 * embedded `{$...}` expressions) evaluated against an exchange.
 */
import type { LinkEntry, OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { resolvePointer } from "../../openapi/lib/spec.js";
import type { Exchange } from "../types.js";

const EMBEDDED = /\{(\$[^}]+)\}/g;

function single(expr: string, ex: Exchange): unknown {
  const [source, rest = ""] = expr.split(/#(.*)/s, 2) as [string, string?];
  if (source === "$statusCode") return ex.response.status;
  if (source === "$method") return ex.request.method;
  if (source === "$url") return ex.request.url;
  if (source === "$response.body") return resolvePointer(ex.response.json, rest);
  if (source === "$request.body") return resolvePointer(ex.request.json, rest);
  const m = /^\$(response|request)\.(header|query|path)\.(.+)$/.exec(source);
  if (!m) return undefined;
  const [, side, where, name] = m as unknown as [string, string, string, string];
  if (side === "response") return where === "header" ? ex.response.headers[name.toLowerCase()] : undefined;
  if (where === "header") return ex.request.headers[name.toLowerCase()];
  if (where === "query") return ex.request.query[name];
  return ex.request.pathParams?.[name];
}

/** The value of a link parameter expression (or constant) for `ex`; undefined when it does not resolve. */
export function evaluate(expr: unknown, ex: Exchange): unknown {
  if (typeof expr !== "string" || !expr.includes("$")) return expr;
  if (expr.startsWith("$")) return single(expr, ex);
  return expr.replace(EMBEDDED, (_m, inner: string) => String(single(inner, ex) ?? ""));
}

/**
 * Every value a body pointer expression names across the arrays it indexes: `#/data/results/0/id` gives the
 * id of every result (the account's identifiers, for the isolation phase and for picking unknown ones).
 */
export function everyValue(expr: unknown, ex: Exchange): unknown[] {
  if (typeof expr !== "string" || !expr.startsWith("$response.body#")) return [evaluate(expr, ex)].filter((v) => v !== undefined);
  const segments = expr.slice("$response.body#".length).split("/").slice(1);
  let current: unknown[] = [ex.response.json];
  for (const seg of segments) {
    const key = seg.replace(/~1/g, "/").replace(/~0/g, "~");
    current = current.flatMap((node) => {
      if (/^\d+$/.test(key) && Array.isArray(node)) return node;
      return node !== null && typeof node === "object" && key in (node as object) ? [(node as Record<string, unknown>)[key]] : [];
    });
  }
  return current.filter((v) => v !== undefined);
}

/** The target operation's parameter a link parameter name means (`ids`, or `query.ids`). */
export function linkParameter(target: OperationEntry, name: string): ParameterEntry | undefined {
  const m = /^(path|query|header|cookie)\.(.+)$/.exec(name);
  return target.parameters.find((p) => (m ? p.in === m[1] && p.name === m[2] : p.name === name));
}

/** A link with its source operation, for scenario titles and findings. */
export interface SourcedLink {
  source: string;
  status: string;
  link: LinkEntry;
}

/** Every link of the document, with the operation and status it leaves from. */
export function allLinks(operations: OperationEntry[]): SourcedLink[] {
  return operations.flatMap((op) => op.responses.flatMap((r) => r.links.map((link) => ({ source: op.operationId, status: r.status, link }))));
}

/**
 * The operations in the order a run needs: each link's source before its target, so values from the source's
 * responses exist when the target's scenarios need them; otherwise document order. Operations caught in a
 * cycle of links come once nothing else is ready, in document order.
 */
export function linkOrder(operations: OperationEntry[]): OperationEntry[] {
  const sources = new Map<string, Set<string>>(operations.map((op) => [op.operationId, new Set<string>()]));
  for (const { source, link } of allLinks(operations)) if (source !== link.operationId) sources.get(link.operationId)?.add(source);
  const placed = new Set<string>();
  const out: OperationEntry[] = [];
  while (out.length < operations.length) {
    // The first operation (in document order) whose sources are all placed; in a cycle, the first unplaced one.
    const ready = operations.find((op) => !placed.has(op.operationId) && [...sources.get(op.operationId)!].every((s) => placed.has(s) || !sources.has(s)));
    const next = ready ?? operations.find((op) => !placed.has(op.operationId))!;
    placed.add(next.operationId);
    out.push(next);
  }
  return out;
}
