/**
 * The members of a body schema at any depth: inside an envelope (`{"user": {...}}`, `{"data": {...}}`), nested
 * objects and arrays of objects, each with its path (`user.email`, `items[].menu_item_id`), its schema and that
 * schema's pointer. Every reader of "a body member" (the login's and the register's user name and password, the
 * identifiers a client chooses, references, hostile strings, unique values) walks a body through this one walker,
 * and reads or writes a value at a member's path with `valuesAt` and `setAt`.
 *
 * The walk follows `$ref`, `allOf` (its branches' members together), `oneOf` and `anyOf` (every branch's members, the
 * first one listed winning a name), and the `items` of an array; it stops at {@link MAX_DEPTH} levels, at
 * {@link MAX_MEMBERS} members, and where a schema contains itself (a tree of comments, a person's friends).
 */
import { pointerSegment } from "../../openapi/lib/document-error.js";
import { isMapping } from "../../openapi/lib/spec.js";

/** A path step meaning "every item of the array" (`items[].id` is `["items", EACH, "id"]`). */
export const EACH = "[]";

/** The levels of objects a member may sit under (an envelope, an object, an array's items, one more object). */
export const MAX_DEPTH = 5;
/** Most members one body lists (a schema of thousands of members is walked no further). */
const MAX_MEMBERS = 400;

/** One member of a body schema. */
export interface BodyMember {
  /** Its property names from the body down, EACH for an array's items: `["items", EACH, "menu_item_id"]`. */
  path: readonly string[];
  /** Its own property name (`menu_item_id`). */
  name: string;
  /** As a report shows it: `items[].menu_item_id`, `user.email`. */
  shown: string;
  /** Its schema, `$ref` followed (its first branch where it has several). */
  schema: any;
  /** The pointer of that schema (what the document's validator checks its values with). */
  pointer: string;
  /** Required at every level from the body down (an array's items count as required where the array is). */
  required: boolean;
  /** Inside an array's items somewhere along its path. */
  inArray: boolean;
}

/** What the walker reads of the document. */
export interface SchemaReader {
  deref(schema: unknown, pointer: string): { schema: any; pointer: string };
}

/** `path` as a report shows it: `user.email`, `items[].menu_item_id`. */
const shownPath = (path: readonly string[]): string =>
  path.reduce((out, step) => (step === EACH ? `${out}[]` : out ? `${out}.${step}` : step), "");

type Branch = { schema: any; pointer: string };

/** A schema dereferenced with its composition branches (nested ones too), each with its pointer. */
function branchesOf(doc: SchemaReader, schema: unknown, pointer: string, depth = 0): Branch[] {
  const own = doc.deref(schema, pointer);
  if (!isMapping(own.schema)) return [];
  const out: Branch[] = [own];
  if (depth > 8) return out;
  for (const kw of ["allOf", "oneOf", "anyOf"]) {
    const list = own.schema[kw];
    if (Array.isArray(list))
      list.forEach((s, i) => {
        out.push(...branchesOf(doc, s, `${own.pointer}/${kw}/${i}`, depth + 1));
      });
  }
  return out;
}

const cache = new WeakMap<object, Map<string, BodyMember[]>>();

/**
 * Every member of the body schema at `pointer`, at any depth, parents before their members (`user` before
 * `user.email`), in document order; kept per document and pointer.
 */
export function bodyMembers(doc: SchemaReader, pointer: string): BodyMember[] {
  let byPointer = cache.get(doc);
  if (!byPointer) {
    byPointer = new Map();
    cache.set(doc, byPointer);
  }
  const kept = byPointer.get(pointer);
  if (kept) return kept;
  const out: BodyMember[] = [];
  walk(doc, { $ref: `#${pointer}` }, pointer, [], true, false, new Set(), out);
  byPointer.set(pointer, out);
  return out;
}

function walk(
  doc: SchemaReader,
  schema: unknown,
  pointer: string,
  path: string[],
  required: boolean,
  inArray: boolean,
  open: Set<string>,
  out: BodyMember[],
): void {
  const branches = branchesOf(doc, schema, pointer);
  const level = path.filter((s) => s !== EACH).length;
  if (branches.length === 0 || level >= MAX_DEPTH) return;
  // A schema met again further down its own path (a tree) is not walked again.
  const here = branches.map((b) => b.pointer);
  if (here.some((p) => open.has(p))) return;
  const inner = new Set([...open, ...here]);
  const items = branches.find((b) => b.schema.items !== undefined);
  if (items && !branches.some((b) => b.schema.properties)) {
    walk(doc, items.schema.items, `${items.pointer}/items`, [...path, EACH], required, true, inner, out);
    return;
  }
  const needed = new Set(branches.flatMap((b) => (Array.isArray(b.schema.required) ? b.schema.required : [])));
  const seen = new Set<string>();
  for (const b of branches)
    for (const [name, raw] of Object.entries((b.schema.properties ?? {}) as Record<string, unknown>)) {
      if (seen.has(name) || name === EACH || out.length >= MAX_MEMBERS) continue;
      seen.add(name);
      const at = doc.deref(raw, `${b.pointer}/properties/${pointerSegment(name)}`);
      const memberPath = [...path, name];
      const member: BodyMember = {
        path: memberPath,
        name,
        shown: shownPath(memberPath),
        schema: at.schema,
        pointer: at.pointer,
        required: required && needed.has(name),
        inArray,
      };
      out.push(member);
      walk(
        doc,
        raw,
        `${b.pointer}/properties/${pointerSegment(name)}`,
        memberPath,
        member.required,
        inArray,
        inner,
        out,
      );
    }
}

/** The JSON types a member's schema names (its branches' too); empty where it names none. */
export function typesOfMember(doc: SchemaReader, member: Pick<BodyMember, "schema" | "pointer">): string[] {
  const types = branchesOf(doc, member.schema, member.pointer).flatMap((b) =>
    b.schema.type === undefined ? [] : [b.schema.type].flat(),
  );
  return [...new Set(types.map(String))];
}

/** Every value of `body` at `path` (an array's items fanned out); none where the body has nothing there. */
export function valuesAt(body: unknown, path: readonly string[]): unknown[] {
  let level: unknown[] = [body];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of level) {
      if (step === EACH) {
        if (Array.isArray(v)) next.push(...v);
      } else if (isMapping(v) && !Array.isArray(v) && Object.hasOwn(v, step)) next.push(v[step]);
    }
    level = next;
  }
  return level;
}

/**
 * `body` with the member at `path` set to `value` (a function: computed from the value there) in every item of the
 * arrays along it; objects and arrays missing on the way are made (an array with one item). The body itself is not
 * changed: what the path crosses is copied.
 */
export function setAt(body: unknown, path: readonly string[], value: unknown): unknown {
  const [step, ...rest] = path;
  const compute = (old: unknown) =>
    rest.length > 0 ? setAt(old, rest, value) : typeof value === "function" ? value(old) : value;
  if (step === undefined) return body;
  if (step === EACH) {
    const items = Array.isArray(body) && body.length > 0 ? body : [undefined];
    return items.map((item) => compute(item));
  }
  const base = isMapping(body) && !Array.isArray(body) ? body : {};
  const out = Object.assign(Object.create(null) as Record<string, unknown>, base);
  out[step] = compute(base[step]);
  return { ...out };
}

/** The JSON pointer of a member's value in a body where every array along its path has one item (`/items/0/id`). */
export const firstItemPointer = (path: readonly string[]): string =>
  path.map((s) => `/${s === EACH ? "0" : pointerSegment(s)}`).join("");

/** The path a JSON pointer into a body names (`/user/email`), array indexes read as EACH. */
export const pathOfPointer = (pointer: string): string[] =>
  pointer
    .split("/")
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? EACH : s.replace(/~1/g, "/").replace(/~0/g, "~")));

/** The member of the body schema at `pointer` whose path is `path`, or undefined. */
export function memberAt(doc: SchemaReader, pointer: string, path: readonly string[]): BodyMember | undefined {
  const key = path.join("\u0000");
  return bodyMembers(doc, pointer).find((m) => m.path.join("\u0000") === key);
}
