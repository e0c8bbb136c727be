/**
 * OpenAPI links: runtime expressions (`$response.body#/data/results/0/id`, `$response.header.Location`,
 * `$request.path.id`, `$request.query.x`, `$request.body#/id`, `$statusCode`, constants, and strings with
 * embedded `{$...}` expressions) evaluated against an exchange.
 */
import { isJsonMedia, type OperationEntry, type ParameterEntry } from "../../openapi/lib/operations.js";
import { toPointer } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import type { Exchange } from "./types.js";
import { type LinkDocument, perDocument, type SourcedLink } from "./link-document.js";
import { bodyMembers } from "./members.js";
import { references } from "./references.js";
import { tokenPointer } from "./accounts.js";

export { perDocument, type LinkDocument, type SourcedLink } from "./link-document.js";

const linksOf = new WeakMap<OperationEntry[], Map<boolean, SourcedLink[]>>();
const orderingOf = new WeakMap<OperationEntry[], Map<boolean, SourcedLink[]>>();

const EMBEDDED = /\{(\$[^}]+)\}/g;
/** The suite's own suffix of a header expression: the header's URL, read as its last path segment. */
const LAST_SEGMENT = "last-segment";

const lastSegment = (url: string): string | undefined => {
  const path = url.split(/[?#]/, 1)[0]!.replace(/\/+$/, "");
  const segment = path.slice(path.lastIndexOf("/") + 1);
  return segment ? decodeURIComponent(segment) : undefined;
};

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
  if (side === "response") {
    const header = where === "header" ? ex.response.headers[name.toLowerCase()] : undefined;
    // An inferred producer reads a Location header's last path segment (the suite's own `#last-segment`).
    return rest === LAST_SEGMENT && typeof header === "string" ? lastSegment(header) : header;
  }
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

/** The member names a `$response.body#/...` expression walks, unescaped (RFC 6901); undefined for any other. */
function bodySegments(expr: unknown): string[] | undefined {
  if (typeof expr !== "string" || !expr.startsWith("$response.body#")) return undefined;
  return expr
    .slice("$response.body#".length)
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * Where a body expression points: the object holding the identifier (a JSON pointer) and the identifier's member
 * (its name, unescaped).
 */
export function bodyMember(expr: unknown): { object: string; member: string } | undefined {
  const segments = bodySegments(expr);
  const member = segments?.pop();
  return member === undefined ? undefined : { object: toPointer(segments!), member };
}

/**
 * Every value a body pointer expression names across the arrays it indexes: `#/data/results/0/id` gives the
 * id of every result (the account's identifiers, for the isolation phase and for picking unknown ones).
 */
export function everyValue(expr: unknown, ex: Exchange): unknown[] {
  const segments = bodySegments(expr);
  if (!segments) return [evaluate(expr, ex)].filter((v) => v !== undefined);
  let current: unknown[] = [ex.response.json];
  for (const key of segments) {
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

/** The links of one `allLinks` answer by the operation they leave from and by the one they lead to. */
const endsOf = new WeakMap<SourcedLink[], { from: Map<string, SourcedLink[]>; to: Map<string, SourcedLink[]> }>();

function ends(links: SourcedLink[]): { from: Map<string, SourcedLink[]>; to: Map<string, SourcedLink[]> } {
  let index = endsOf.get(links);
  if (!index) {
    index = { from: new Map(), to: new Map() };
    for (const l of links) {
      index.from.set(l.source, [...(index.from.get(l.source) ?? []), l]);
      index.to.set(l.link.operationId, [...(index.to.get(l.link.operationId) ?? []), l]);
    }
    endsOf.set(links, index);
  }
  return index;
}

/** The links (see `allLinks`) that leave from the answers of `operationId` (indexed once per document). */
export const linksFrom = (doc: LinkDocument, infer: boolean, operationId: string): readonly SourcedLink[] =>
  ends(allLinks(doc, infer)).from.get(operationId) ?? [];

/** The links (see `allLinks`) that lead to `operationId` (indexed once per document). */
export const linksTo = (doc: LinkDocument, infer: boolean, operationId: string): readonly SourcedLink[] =>
  ends(allLinks(doc, infer)).to.get(operationId) ?? [];

/**
 * Every link of the document, with the operation and status it leaves from, and with `infer` the links
 * inferred where the document has none for a path parameter (computed once per operation table).
 */
export function allLinks(linkDoc: LinkDocument, infer: boolean): SourcedLink[] {
  return perDocument(linksOf, linkDoc, infer, (doc) => {
    const written = writtenLinks(doc.operations);
    return infer ? [...written, ...inferredLinks(doc, written)] : written;
  });
}

/**
 * The links that order a run and keep operations together in a shard: every link (written, and with `infer`
 * inferred), and with `infer` a create before the listing of its collection, so the listing has items to link
 * from, and a listing or create before an operation whose body refers to its resources (references.ts).
 */
export function orderingLinks(linkDoc: LinkDocument, infer: boolean): SourcedLink[] {
  return perDocument(orderingOf, linkDoc, infer, (doc) => {
    const listings = new Map<string, OperationEntry[]>();
    for (const l of doc.operations.filter((o) => o.method === "GET")) {
      const list = listings.get(l.path);
      if (list) list.push(l);
      else listings.set(l.path, [l]);
    }
    const creates = infer
      ? doc.operations
          .filter((c) => c.method === "POST")
          .flatMap((c) =>
            (listings.get(c.path) ?? []).map((l) => ({
              source: c.operationId,
              status: "",
              link: { name: "", operationId: l.operationId, parameters: {} },
            })),
          )
      : [];
    // A body member that refers to a resource (an order's item_id) after what lists or creates those resources.
    return [...allLinks(doc, infer), ...creates, ...references(doc, infer)];
  });
}

/** The links the document writes, with the operation and status each leaves from. */
export function writtenLinks(operations: OperationEntry[]): SourcedLink[] {
  return operations.flatMap((op) =>
    op.responses.flatMap((r) => r.links.map((link) => ({ source: op.operationId, status: r.status, link }))),
  );
}

/** The path of the resource a path parameter names: the path up to and including its segment (`/posts/{postId}`). */
export function familyOf(path: string, param: string): string | undefined {
  const at = path.indexOf(`/{${param}}`);
  return at < 0 ? undefined : path.slice(0, at + param.length + 3);
}

/** The JSON types a schema allows (integer counts as a number). */
function typesOf(schema: any): Set<string> | undefined {
  if (!schema || typeof schema !== "object" || schema.type === undefined) return undefined;
  const types = new Set<string>([schema.type].flat().filter((t: unknown) => t !== "null"));
  if (types.has("integer")) types.add("number");
  return types;
}

/** A member's schema can hold the parameter's values: the same type, format and pattern where both say one. */
function sameKind(param: any, member: any): boolean {
  const a = typesOf(param);
  const b = typesOf(member);
  if (!a || !b || ![...a].some((t) => b.has(t))) return false;
  // An integer member feeds an integer or number parameter; a number member never an integer parameter.
  if (a.has("integer") !== b.has("integer") && !a.has("number")) return false;
  for (const k of ["format", "pattern"])
    if (param[k] !== undefined && member[k] !== undefined && param[k] !== member[k]) return false;
  return true;
}

/** The JSON schema of a 2xx response's JSON body, with its pointer. */
function bodySchemas(doc: LinkDocument, op: OperationEntry): Array<{ status: string; schema: any; pointer: string }> {
  return op.responses
    .filter((r) => /^2/.test(r.status))
    .flatMap((r) => {
      const media = r.content.find((m) => isJsonMedia(m.mediaType) && m.schemaPointer);
      if (!media?.schemaPointer) return [];
      const { schema, pointer } = doc.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer);
      return schema ? [{ status: r.status, schema, pointer }] : [];
    });
}

/**
 * Where an object schema (or one it wraps, two levels at most) holds the identifier `param`: a member named
 * like the parameter, else `id`, whose schema matches the parameter's. Arrays are entered only when `items`.
 */
function memberPath(
  doc: LinkDocument,
  schema: any,
  pointer: string,
  names: string[],
  param: any,
  items: boolean,
  depth = 0,
): string[] | undefined {
  if (!schema || typeof schema !== "object" || depth > 3) return undefined;
  if (items) {
    if (schema.type === "array" || schema.items) {
      const { schema: item, pointer: at } = doc.deref(schema.items, `${pointer}/items`);
      const found = memberPath(doc, item, at, names, param, false, depth + 1);
      return found ? ["0", ...found] : undefined;
    }
  }
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of names)
    if (Object.hasOwn(props, name)) {
      const { schema: member } = doc.deref(props[name], `${pointer}/properties/${name}`);
      if (!items && sameKind(param, member)) return [name];
    }
  for (const [name, raw] of Object.entries(props)) {
    const { schema: inner, pointer: at } = doc.deref(raw, `${pointer}/properties/${name}`);
    if (!inner || typeof inner !== "object" || (inner.type !== "object" && inner.type !== "array" && !inner.properties))
      continue;
    const found = memberPath(doc, inner, at, names, param, items, depth + 1);
    if (found) return [name, ...found];
  }
  return undefined;
}

/**
 * Producers the document does not write as links (after RESTler and Schemathesis): for each path parameter of
 * an operation that no written link feeds, the response of a create (POST on the collection the parameter's
 * segment follows: a member named like the parameter or `id` of the created resource, else a `Location`
 * header) and the items of a listing (GET on that collection), each matched by name and schema.
 */
function inferredLinks(doc: LinkDocument, written: SourcedLink[]): SourcedLink[] {
  const out: SourcedLink[] = [];
  const byPath = new Map<string, OperationEntry[]>();
  for (const op of doc.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  // Operations on paths one fixed segment below a collection (`/users/register` under `/users`), by the collection.
  const byPrefix = new Map<string, OperationEntry[]>();
  for (const op of doc.operations) {
    if (op.path.includes("{")) continue;
    const parent = op.path.slice(0, op.path.lastIndexOf("/"));
    if (parent) byPrefix.set(parent, [...(byPrefix.get(parent) ?? []), op]);
  }
  for (const target of doc.operations)
    for (const p of target.parameters.filter((x) => x.in === "path")) {
      const fed = written.some(
        (l) =>
          l.link.operationId === target.operationId &&
          Object.keys(l.link.parameters).some((k) => linkParameter(target, k) === p),
      );
      const family = familyOf(target.path, p.name);
      if (fed || !family) continue;
      const collection = family.slice(0, family.lastIndexOf("/"));
      const { schema: param } = doc.deref(p.schema, p.schemaPointer);
      const names = p.name === "id" ? ["id"] : [p.name, "id"];
      // The collection's own create and listing, and a create below it (`POST /users/register` for
      // `/users/{username}`), never one that logs in (its answer holds a token, not a resource).
      const below = (byPrefix.get(collection) ?? []).filter((o) => o.method === "POST" && !tokenPointer(doc, o));
      for (const source of [...(byPath.get(collection) ?? []), ...below]) {
        if (source === target || (source.method !== "POST" && source.method !== "GET")) continue;
        for (const r of bodySchemas(doc, source)) {
          const path = memberPath(doc, r.schema, r.pointer, names, param, source.method === "GET");
          if (!path) continue;
          const shown = path.map((s) => (s === "0" ? "*" : s)).join("/");
          out.push(inferred(source, r.status, `body \`${shown}\``, `$response.body#${toPointer(path)}`, target, p));
        }
        // An identifier the client chooses: the create's body member named like the parameter (a title, a user name).
        const chosen =
          source.method === "POST" &&
          !out.some((l) => l.source === source.operationId && l.link.operationId === target.operationId)
            ? requestMember(doc, source, p.name, param)
            : undefined;
        if (chosen) {
          const status = source.responses.find((x) => /^2/.test(x.status))?.status ?? "2XX";
          out.push(inferred(source, status, `request body \`${p.name}\``, `$request.body#/${chosen}`, target, p));
        }
        if (
          source.method !== "POST" ||
          out.some((l) => l.source === source.operationId && l.link.operationId === target.operationId)
        )
          continue;
        for (const r of source.responses.filter((x) => /^2/.test(x.status)))
          if (r.headers.some((h) => h.name.toLowerCase() === "location"))
            out.push(
              inferred(source, r.status, "header `Location`", `$response.header.Location#${LAST_SEGMENT}`, target, p),
            );
      }
      // An operation that only reads takes an identifier not named `id` (a slug, a user name) from any listing
      // that holds a member of its name at some depth (`articles[].author.username` for `/profiles/{username}`).
      const found = out.some(
        (l) =>
          l.link.operationId === target.operationId &&
          Object.keys(l.link.parameters).some((k) => linkParameter(target, k) === p),
      );
      if (!target.safe || p.name === "id" || found) continue;
      // At most LISTINGS_PER_PARAMETER listings per parameter: the nearest to the target's path (the longest shared
      // prefix), then the shallowest member, then the document's order. A document of many listings holding an
      // `index` or a `name` would otherwise feed every reader from all; one alone may be empty (a feed of followed
      // authors), so a few are kept.
      const listed: Array<{ source: OperationEntry; status: string; path: string[]; rank: [number, number] }> = [];
      for (const source of doc.operations) {
        if (source === target || source.method !== "GET" || source.path.includes("{")) continue;
        if (source.path === collection) continue;
        for (const r of bodySchemas(doc, source)) {
          const path = memberPath(doc, r.schema, r.pointer, [p.name], param, true);
          if (path)
            listed.push({
              source,
              status: r.status,
              path,
              rank: [-sharedSegments(source.path, target.path), path.length],
            });
        }
      }
      const nearest = listed
        .sort((x, y) => x.rank[0] - y.rank[0] || x.rank[1] - y.rank[1])
        .filter((x, i, all) => all.findIndex((y) => y.source === x.source) === i)
        .slice(0, LISTINGS_PER_PARAMETER);
      for (const best of nearest) {
        const shown = best.path.map((s) => (s === "0" ? "*" : s)).join("/");
        const expr = `$response.body#${toPointer(best.path)}`;
        out.push(inferred(best.source, best.status, `body \`${shown}\``, expr, target, p));
      }
    }
  return out;
}

/** The most listings that feed one reader's identifier not named `id` (see inferredLinks). */
const LISTINGS_PER_PARAMETER = 3;

/** How many leading path segments two paths share (`/api/feats` and `/api/feats/{index}`: 2). */
function sharedSegments(a: string, b: string): number {
  const x = a.split("/").filter(Boolean);
  const y = b.split("/").filter(Boolean);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * The member of `op`'s JSON body named `name` whose schema can hold the parameter's values, the shallowest first (at
 * the top, or inside an envelope: `user/username`), outside arrays; as a JSON pointer without its leading `/`.
 */
function requestMember(doc: LinkDocument, op: OperationEntry, name: string, param: any): string | undefined {
  const media = op.requestBody?.content.find((m) => isJsonMedia(m.mediaType) && m.schemaPointer);
  if (!media?.schemaPointer) return undefined;
  const found = bodyMembers(doc, media.schemaPointer)
    .filter((m) => m.name === name && !m.inArray && sameKind(param, m.schema))
    .sort((a, b) => a.path.length - b.path.length)[0];
  return found ? toPointer(found.path).slice(1) : undefined;
}

function inferred(
  source: OperationEntry,
  status: string,
  from: string,
  expression: string,
  target: OperationEntry,
  p: ParameterEntry,
): SourcedLink {
  const name = `inferred: ${source.operationId} ${status} ${from} -> ${target.operationId} \`${p.name}\``;
  return {
    source: source.operationId,
    status,
    inferred: true,
    link: { name, operationId: target.operationId, parameters: { [`path.${p.name}`]: expression } },
  };
}

/**
 * The operations in the order a run needs: each link's source before its target, so values from the source's
 * responses exist when the target's scenarios need them (`links`: the written ones unless given, inferred ones
 * too); otherwise document order. Operations caught in a
 * cycle of links come once nothing else is ready, in document order.
 */
export function linkOrder(
  operations: OperationEntry[],
  links: SourcedLink[] = writtenLinks(operations),
): OperationEntry[] {
  // Kahn's algorithm with the ready operations in a min-heap of document positions: linear in operations and
  // links (times log n), where picking the first ready operation by a scan would be quadratic on a large document.
  const index = new Map(operations.map((op, i) => [op.operationId, i]));
  const waiting = operations.map(() => 0);
  const dependents: number[][] = operations.map(() => []);
  const edges = new Set<string>();
  for (const { source, link } of links) {
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
