/**
 * OpenAPI links: runtime expressions (`$response.body#/data/results/0/id`, `$response.header.Location`,
 * `$request.path.id`, `$request.query.x`, `$request.body#/id`, `$statusCode`, constants, and strings with
 * embedded `{$...}` expressions) evaluated against an exchange.
 */
import type { LinkEntry, OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { resolvePointer } from "../../openapi/lib/spec.js";
import type { Exchange } from "../model/types.js";

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
  if (typeof expr !== "string" || !expr.startsWith("$response.body#"))
    return [evaluate(expr, ex)].filter((v) => v !== undefined);
  const segments = expr.slice("$response.body#".length).split("/").slice(1);
  let current: unknown[] = [ex.response.json];
  for (const seg of segments) {
    const key = seg.replace(/~1/g, "/").replace(/~0/g, "~");
    current = current.flatMap((node) => {
      if (/^\d+$/.test(key) && Array.isArray(node)) return node;
      return node !== null && typeof node === "object" && key in (node as object)
        ? [(node as Record<string, unknown>)[key]]
        : [];
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

const linksOf = new WeakMap<OperationEntry[], SourcedLink[]>();

/** Every link of the document, with the operation and status it leaves from (computed once per operation table). */
export function allLinks(operations: OperationEntry[]): SourcedLink[] {
  let links = linksOf.get(operations);
  if (!links) {
    links = operations.flatMap((op) =>
      op.responses.flatMap((r) => r.links.map((link) => ({ source: op.operationId, status: r.status, link }))),
    );
    linksOf.set(operations, links);
  }
  return links;
}

/**
 * The operations in the order a run needs: each link's source before its target, so values from the source's
 * responses exist when the target's scenarios need them; otherwise document order. Operations caught in a
 * cycle of links come once nothing else is ready, in document order.
 */
export function linkOrder(operations: OperationEntry[]): OperationEntry[] {
  // Kahn's algorithm with the ready operations in a min-heap of document positions: linear in operations and
  // links (times log n), where picking the first ready operation by a scan would be quadratic on a large document.
  const index = new Map(operations.map((op, i) => [op.operationId, i]));
  const waiting = operations.map(() => 0);
  const dependents: number[][] = operations.map(() => []);
  const edges = new Set<string>();
  for (const { source, link } of allLinks(operations)) {
    const from = index.get(source);
    const to = index.get(link.operationId);
    if (from === undefined || to === undefined || from === to || edges.has(`${from}>${to}`)) continue;
    edges.add(`${from}>${to}`);
    waiting[to]!++;
    dependents[from]!.push(to);
  }
  const ready = new MinHeap();
  waiting.forEach((n, i) => {
    if (n === 0) ready.push(i);
  });
  const placed = operations.map(() => false);
  const out: OperationEntry[] = [];
  let scan = 0;
  while (out.length < operations.length) {
    let next = ready.pop();
    while (next !== undefined && placed[next]) next = ready.pop();
    if (next === undefined) {
      // Only operations caught in a cycle are left: the first of them in document order.
      while (placed[scan]) scan++;
      next = scan;
    }
    placed[next] = true;
    out.push(operations[next]!);
    for (const d of dependents[next]!) if (--waiting[d]! === 0 && !placed[d]) ready.push(d);
  }
  return out;
}

/** A binary min-heap of numbers. */
class MinHeap {
  readonly #items: number[] = [];

  push(n: number): void {
    const a = this.#items;
    a.push(n);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent]! <= a[i]!) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  pop(): number | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let min = i;
        if (l < a.length && a[l]! < a[min]!) min = l;
        if (r < a.length && a[r]! < a[min]!) min = r;
        if (min === i) break;
        [a[min], a[i]] = [a[i]!, a[min]!];
        i = min;
      }
    }
    return top;
  }
}
