/**
 * Body members that refer to another resource, as links to their values: an order's `item_id` (or `menuItemId`)
 * takes an identifier from the listing or the create of the collection it names (`/items`, `/menu-items`), read
 * from names and schemas as path links are inferred. Without it a live run sends ids it made up, gets the
 * documented 404 and never reaches what lies behind a valid reference.
 */
import { isJsonMedia, type OperationEntry } from "../../openapi/lib/operations.js";
import { type LinkDocument, perDocument, type SourcedLink } from "./link-document.js";
import { bodyMembers, EACH, firstItemPointer } from "./members.js";

/**
 * A body member (at any depth: `items[].menu_item_id`) or query parameter of `target` that refers to a resource, and
 * where an answer of `source` holds such identifiers.
 */
export interface Reference extends SourcedLink {
  /** Where it goes: a member of the request body, or a query parameter. */
  in: "body" | "query";
  /** The member as a report shows it (`items[].menu_item_id`), or the query parameter's name. */
  member: string;
  /** The member's path in the body (see model/members.ts); `[name]` for a query parameter. */
  path: readonly string[];
  /** The member takes a list of identifiers (`tag_ids`): the identifier goes in a one-item array. */
  list?: true;
}

/** A member named for a resource: `item_id`, `itemId`, `menu_item_id`, `menuItemID` (the stem, split in words). */
function stemOf(member: string): string[] | undefined {
  const m = /^(.+?)[_-]?(id|Id|ID)(s)?$/.exec(member);
  if (!m || m[1]!.length < 2) return undefined;
  return m[1]!
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .map((w) => w.toLowerCase());
}

/** The collection segments a stem may name: `menu item` -> menu-items, menu_items, menuitems, items, menu. */
function segmentsFor(words: string[]): Set<string> {
  const plural = (w: string) => (w.endsWith("y") ? `${w.slice(0, -1)}ies` : w.endsWith("s") ? `${w}es` : `${w}s`);
  const last = words.at(-1)!;
  const heads = words.slice(0, -1);
  const forms = [plural(last), last];
  const out = new Set<string>();
  for (const f of forms) {
    for (const sep of ["-", "_", ""]) out.add([...heads, f].join(sep));
    out.add(f);
  }
  // camelCase collections: menuItems.
  for (const f of forms) out.add([...heads, ...(heads.length ? [f[0]!.toUpperCase() + f.slice(1)] : [f])].join(""));
  // The head alone names a collection too: `menu_item_id` -> /menu.
  if (heads.length) for (const h of [heads.join(""), plural(heads.join(""))]) out.add(h);
  return new Set([...out].map((s) => s.toLowerCase()));
}

/** The JSON schema of an operation's first 2xx JSON answer. */
function answerSchema(doc: LinkDocument, op: OperationEntry): { schema: any; pointer: string } | undefined {
  for (const r of op.responses.filter((x) => /^2/.test(x.status))) {
    const media = r.content.find((m) => isJsonMedia(m.mediaType) && m.schemaPointer);
    if (media?.schemaPointer) return doc.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer);
  }
  return undefined;
}

/**
 * Where an answer holds the identifiers: `/id` of a created object (or of the object its envelope wraps:
 * `/data/id`), `/0/id` or `/items/0/id` of a listing, at any depth (`/data/items/0/id`).
 */
function idPointer(doc: LinkDocument, op: OperationEntry, listing: boolean): string | undefined {
  const answer = answerSchema(doc, op);
  if (!answer?.schema) return undefined;
  const ids = bodyMembers(doc, answer.pointer).filter(
    (m) => m.name === "id" && m.inArray === listing && m.path.filter((s) => s === EACH).length <= 1,
  );
  // The shallowest first: a listing's items' own id before an id inside each item.
  const id = ids.sort((a, b) => a.path.length - b.path.length)[0];
  if (!id || (!listing && id.path.length > 2)) return undefined;
  return firstItemPointer(id.path);
}

const cache = new WeakMap<OperationEntry[], Map<boolean, Reference[]>>();

/** Every reference of the document (none without inference: they are the suite's reading, not the document's). */
export function references(linkDoc: LinkDocument, infer: boolean): Reference[] {
  if (!infer) return [];
  return perDocument(cache, linkDoc, infer, (doc) => {
    const collections = new Map<string, OperationEntry[]>();
    for (const op of doc.operations) {
      if (op.path.includes("{") || (op.method !== "GET" && op.method !== "POST")) continue;
      const segment = op.path.split("/").filter(Boolean).at(-1)?.toLowerCase();
      if (segment) collections.set(segment, [...(collections.get(segment) ?? []), op]);
    }
    const out: Reference[] = [];
    const add = (target: OperationEntry, where: Reference["in"], path: readonly string[], shown: string, raw: any) => {
      const words = stemOf(path.at(-1)!);
      const schema = doc.deref(raw, "").schema;
      const itemType = schema?.type === "array" ? doc.deref(schema.items, "").schema?.type : undefined;
      const type = itemType ?? schema?.type;
      if (!words || (type !== "integer" && type !== "string")) return;
      const sources = [...segmentsFor(words)].flatMap((s) => collections.get(s) ?? []);
      for (const source of sources.filter((s) => s !== target)) {
        const at = idPointer(doc, source, source.method === "GET");
        if (!at) continue;
        const place = where === "body" ? "body" : "query";
        const name = `inferred: ${source.operationId} body \`${at}\` -> ${target.operationId} ${place} \`${shown}\``;
        out.push({
          source: source.operationId,
          status: "2XX",
          inferred: true,
          in: where,
          member: shown,
          path,
          ...(itemType ? { list: true as const } : {}),
          link: {
            name,
            operationId: target.operationId,
            parameters: { [`${place}.${shown}`]: `$response.body#${at}` },
          },
        });
      }
    };
    for (const target of doc.operations) {
      for (const p of target.parameters.filter((x) => x.in === "query"))
        add(target, "query", [p.name], p.name, p.schema);
      const media = target.requestBody?.content.find((m) => m.schemaPointer);
      if (!media?.schemaPointer) continue;
      for (const m of bodyMembers(doc, media.schemaPointer)) add(target, "body", m.path, m.shown, m.schema);
    }
    return out;
  });
}
