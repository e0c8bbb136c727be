/**
 * Body members that refer to another resource, as links to their values: an order's `item_id` (or `menuItemId`)
 * takes an identifier from the listing or the create of the collection it names (`/items`, `/menu-items`), read
 * from names and schemas as path links are inferred. Without it a live run sends ids it made up, gets the
 * documented 404 and never reaches what lies behind a valid reference.
 */
import { isJsonMedia, type OperationEntry } from "../../openapi/lib/operations.js";
import { toPointer } from "../../openapi/lib/spec.js";
import { type LinkDocument, perDocument, type SourcedLink } from "./link-document.js";

/** A body member of `target` that refers to a resource, and where an answer of `source` holds such identifiers. */
export interface Reference extends SourcedLink {
  /** The top-level body member it fills. */
  member: string;
}

/** A member named for a resource: `item_id`, `itemId`, `menu_item_id`, `menuItemID` (the stem, split in words). */
function stemOf(member: string): string[] | undefined {
  const m = /^(.+?)[_-]?(id|Id|ID)$/.exec(member);
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

/** Where an answer holds the identifiers: `/id` of a created object, `/0/id` or `/items/0/id` of a listing. */
function idPointer(doc: LinkDocument, op: OperationEntry, listing: boolean): string | undefined {
  const answer = answerSchema(doc, op);
  if (!answer?.schema) return undefined;
  const hasId = (s: any) => s?.properties && Object.hasOwn(s.properties, "id");
  if (!listing) return hasId(answer.schema) ? "/id" : undefined;
  const itemsOf = (s: any, at: string) => doc.deref(s.items, `${at}/items`).schema;
  if (answer.schema.type === "array" || answer.schema.items)
    return hasId(itemsOf(answer.schema, answer.pointer)) ? "/0/id" : undefined;
  for (const [name, raw] of Object.entries((answer.schema.properties ?? {}) as Record<string, unknown>)) {
    const { schema, pointer } = doc.deref(raw, `${answer.pointer}/properties/${name}`);
    if ((schema?.type === "array" || schema?.items) && hasId(itemsOf(schema, pointer)))
      return toPointer([name, "0", "id"]);
  }
  return undefined;
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
    for (const target of doc.operations) {
      const media = target.requestBody?.content.find((m) => m.schemaPointer);
      if (!media?.schemaPointer) continue;
      const { schema } = doc.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer);
      for (const [member, raw] of Object.entries((schema?.properties ?? {}) as Record<string, unknown>)) {
        const words = stemOf(member);
        const type = doc.deref(raw, "").schema?.type;
        if (!words || (type !== "integer" && type !== "string")) continue;
        const sources = [...segmentsFor(words)].flatMap((s) => collections.get(s) ?? []);
        for (const source of sources.filter((s) => s !== target)) {
          const at = idPointer(doc, source, source.method === "GET");
          if (!at) continue;
          const name = `inferred: ${source.operationId} body \`${at}\` -> ${target.operationId} body \`${member}\``;
          out.push({
            source: source.operationId,
            status: "2XX",
            inferred: true,
            member,
            link: { name, operationId: target.operationId, parameters: { [`body.${member}`]: `$response.body#${at}` } },
          });
        }
      }
    }
    return out;
  });
}
