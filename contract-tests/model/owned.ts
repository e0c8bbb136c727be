/**
 * The members the server owns in a resource family, read from the document (OWASP API3:2023, mass assignment):
 * those its answers carry that the document marks `readOnly`, and those that no request schema of the family
 * declares (an `admin`, an `owner`, an `id`). Read from the document as responses see it, where `readOnly`
 * members are still listed (the request view drops them).
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { pointerSegment } from "../../openapi/lib/document-error.js";
import { toPointer } from "../../openapi/lib/spec.js";
import type { SpecModel } from "./model.js";
import { branches as schemaBranches } from "./undocumented.js";

/** One member a schema lists: its schema (dereferenced) and that schema's pointer. */
interface Listed {
  schema: any;
  pointer: string;
}

/** A member the server owns, and where the document says so. */
export interface OwnedMember {
  name: string;
  /** The pointer of its schema in an answer of the family: the values the suite sends are valid for it. */
  schema: string;
  /** The place of its `readOnly` keyword (`#/components/schemas/User/properties/admin/readOnly`), if marked. */
  readOnly?: string;
  /** The family's request schemas (pointers), none of which declares it as a member a client writes. */
  undeclaredIn: string[];
}

/** The operations of one family whose schemas say who owns a member. */
export interface FamilySchemas {
  /** Creates and updates: their request bodies are what a client may write. */
  writes: readonly OperationEntry[];
  /** Creates, the read and updates: their 2xx answers are what the resource holds. */
  answers: readonly OperationEntry[];
  /** Where the resource's object sits in an answer (`/data`), "" for the body itself. */
  object: string;
}

/** Most members one family's probes carry (a schema of hundreds of members still makes small requests). */
const MAX_OWNED = 16;

/**
 * The members the schema at `pointer` lists for the object at `at` inside its values (a JSON pointer, `/data`),
 * through `$ref`, `allOf`, `anyOf` and `oneOf`, each dereferenced.
 */
function listedMembers(model: SpecModel, pointer: string, at = ""): Map<string, Listed> {
  let level: Listed[] = schemaBranches(model, { $ref: `#${pointer}` }, pointer);
  for (const segment of at.split("/").slice(1)) {
    const name = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    const next: Listed[] = [];
    for (const b of level) {
      const inner =
        /^\d+$/.test(name) && b.schema.items ? { raw: b.schema.items, at: `${b.pointer}/items` } : undefined;
      const raw = inner?.raw ?? b.schema.properties?.[name];
      const where = inner?.at ?? `${b.pointer}/properties/${pointerSegment(name)}`;
      if (raw !== undefined) next.push(...schemaBranches(model, raw, where));
    }
    level = next;
  }
  const out = new Map<string, Listed>();
  for (const b of level)
    for (const [name, raw] of Object.entries((b.schema.properties ?? {}) as Record<string, unknown>))
      if (!out.has(name)) out.set(name, model.deref(raw, `${b.pointer}/properties/${pointerSegment(name)}`));
  return out;
}

/** The pointers of the JSON (or form) body schemas of an operation's request. */
function requestSchemas(op: OperationEntry): string[] {
  return (op.requestBody?.content ?? []).flatMap((m) => (m.schemaPointer ? [m.schemaPointer] : []));
}

/** The pointers of the body schemas of an operation's 2xx answers. */
function answerSchemas(op: OperationEntry): string[] {
  return op.responses
    .filter((r) => /^2/.test(r.status))
    .flatMap((r) => r.content.flatMap((m) => (m.schemaPointer ? [m.schemaPointer] : [])));
}

/** The members a family's answers list for its object, and the `readOnly` marks among them. */
function answeredOf(model: SpecModel, family: FamilySchemas) {
  const answered = new Map<string, Listed>();
  const marked = new Map<string, string>();
  for (const pointer of new Set(family.answers.flatMap(answerSchemas)))
    for (const [name, m] of listedMembers(model, pointer, family.object)) {
      if (!answered.has(name)) answered.set(name, m);
      const readOnly = readOnlyAt(m);
      if (readOnly && !marked.has(name)) marked.set(name, readOnly);
    }
  return { answered, marked };
}

/** Per request body schema (pointer) of the family's writes, the envelope it wraps the resource in (`[]`: none). */
export function writeEnvelopes(model: SpecModel, family: FamilySchemas): Map<string, string[]> {
  const names = new Set(answeredOf(model, family).answered.keys());
  const requests = new Set(family.writes.flatMap(requestSchemas));
  return new Map([...requests].map((pointer) => [pointer, requestEnvelope(model, pointer, names)]));
}

/**
 * The envelope a request body wraps its resource in (`["book"]` for `{"book": {...}}`): its one member, an object
 * schema with members, that the resource's answers do not list themselves; `[]` for a body that is the resource.
 */
function requestEnvelope(model: SpecModel, pointer: string, answered: ReadonlySet<string>): string[] {
  const top = listedMembers(model, pointer);
  if (top.size !== 1) return [];
  const [name, member] = [...top][0]!;
  const object = schemaBranches(model, member.schema, member.pointer).some((b) => b.schema.properties);
  return object && !answered.has(name) ? [name] : [];
}

const readOnlyAt = (m: Listed | undefined) => (m?.schema?.readOnly === true ? `#${m.pointer}/readOnly` : undefined);

/**
 * The members the server owns in a family: each member its answers list (top level of the resource's object)
 * that no request schema of the family declares as a member a client writes, because none lists it or because
 * the document marks it `readOnly`. A member some request schema declares without `readOnly` (a username the
 * client chooses) is the client's. No request schema at all: nothing can be said to be undeclared.
 */
export function ownedMembers(model: SpecModel, family: FamilySchemas): OwnedMember[] {
  const requests = [...new Set(family.writes.flatMap(requestSchemas))];
  if (requests.length === 0) return [];
  const { answered, marked } = answeredOf(model, family);
  // A request that wraps the resource in an envelope declares the members inside it.
  const envelopes = writeEnvelopes(model, family);
  const declared = requests.map((pointer) => ({
    pointer,
    members: listedMembers(model, pointer, toPointer(envelopes.get(pointer) ?? [])),
  }));
  const out: OwnedMember[] = [];
  for (const [name, m] of answered) {
    if (m.schema?.writeOnly === true) continue;
    const writable = declared.filter((d) => d.members.has(name) && !readOnlyAt(d.members.get(name)));
    if (writable.length > 0) continue;
    const readOnly =
      marked.get(name) ?? declared.map((d) => readOnlyAt(d.members.get(name))).find((p) => p !== undefined);
    out.push({
      name,
      schema: m.pointer,
      ...(readOnly ? { readOnly } : {}),
      undeclaredIn: declared.filter((d) => !d.members.has(name)).map((d) => d.pointer),
    });
  }
  return out.slice(0, MAX_OWNED);
}
