/**
 * Hostile strings, as an attacker types them, for the hostile phase: quotes and a backslash, SQL and bind syntax,
 * template markers, control characters, text outside ASCII (value-classes.ts's, reused) and, in a path parameter
 * of a safe operation, a path separator and an encoded dot segment. Each goes only where the schema lets it
 * through as the server reads the wire (checked with the document's validator), grown from the valid value where
 * a length or format needs it (`name1'`), and at most HOSTILE_REQUESTS_PER_OPERATION go per operation, each
 * carrying a class in every string, so every string meets every class (rotated deterministically from the seed).
 */
import { isMapping } from "../../openapi/lib/spec.js";
import type { OperationEntry, ParameterEntry } from "../../openapi/lib/operations.js";
import { type BodyMember, bodyMembers as membersOf, setAt, valuesAt } from "../model/members.js";
import type { SpecModel } from "../model/model.js";
import { fromWire } from "../model/wire-values.js";
import { RefusedRequest, requestUrl } from "../transport/boundary.js";
import { typesOf, validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import { bucketOf, cloneValues, expandPath, readBack, serialize, type Values } from "./requests.js";
import { NON_ASCII_TEXT, type Schema } from "./value-classes.js";

/**
 * The most hostile requests per operation: one per class (eight where no path takes a separator), each with a class
 * in every string, so a live run (billed, rate-limited) stays cheap however many strings an operation has. A
 * request that fails is narrowed: one more request per string it carried, each with its class alone.
 */
export const HOSTILE_REQUESTS_PER_OPERATION = 8;

/** One class of hostile string: what it is (in a finding's cause), its text, and where it may go. */
export interface HostileClass {
  what: string;
  text: string;
  /** Only in a path parameter (a separator, a dot segment): the other places carry them as plain text. */
  pathOnly?: boolean;
  /** Not in a header or cookie: control characters and text outside ASCII cannot go there as written. */
  notInHeaders?: boolean;
}

/**
 * The classes, in the order they are spread. `../x` is not one: the request boundary (transport/boundary.ts)
 * refuses a dot segment in any spelling a single decoding shows, so `..%2F` (read `../` only by a server that
 * decodes twice) stands for it.
 */
export const HOSTILE_CLASSES: readonly HostileClass[] = [
  { what: "a single quote", text: "'" },
  { what: "a double quote and a backslash", text: '"\\' },
  { what: "SQL syntax", text: "' OR '1'='1" },
  { what: "bind-parameter syntax", text: "a :b ?" },
  { what: "template markers", text: "{{7*7}} ${7*7} <%= 7*7 %>" },
  { what: "a NUL character", text: "a\u0000b", notInHeaders: true },
  { what: "CR and LF", text: "a\r\nb", notInHeaders: true },
  { what: "text outside ASCII", text: NON_ASCII_TEXT, notInHeaders: true },
  { what: "a path separator", text: "a/b", pathOnly: true },
  { what: "an encoded dot segment", text: "..%2F", pathOnly: true },
];

/** Where a hostile string goes: a parameter, or a top-level member of the body. */
type Target = { accepts(v: string): boolean; place: ParameterEntry["in"] | "body"; current: string | undefined } & (
  | { kind: "parameter"; p: ParameterEntry }
  | { kind: "member"; name: string; path: readonly string[]; pointer: string }
);

/** A body member that carries a hostile string, which the answer must show back. */
export interface HostileMember {
  name: string;
  sent: string;
  /** JSON pointer of the member's schema in the request body (the promise that let the string through). */
  pointer: string;
  /** The class of its string (`template markers`). */
  what: string;
}

/** One hostile string in one place, the others as valid: a part of a hostile request, and how it is narrowed. */
export interface HostilePart {
  /** Its cause: `body member title: a single quote, "'"`. */
  what: string;
  values: Values;
  /**
   * A body member's hostile string, which the answer must show back. Absent for a member that copies a path
   * parameter (`id` beside `/schemas/{id}`): which of the two a server keeps is its own choice.
   */
  member?: HostileMember;
}

/**
 * One hostile request: a class in every string it may carry (request i gives the string j class i + j of those it
 * takes), its cause naming each, its values, the body members it must show back, and its parts (each string with
 * its class alone, the request a failure is narrowed to).
 */
export interface HostileRequest {
  what: string;
  values: Values;
  members: HostileMember[];
  parts: HostilePart[];
}

/** What decides which strings may change: a safe operation's path parameters do; identifiers a link feeds may. */
export interface HostileScope {
  /** The operation may get other identifiers (a safe one): its path parameters and link-fed ones take strings. */
  changeIds: boolean;
  /** True for a parameter a link (written or inferred) feeds: an identifier. */
  linkFed(p: ParameterEntry): boolean;
  seed: number;
}

/** True when the (dereferenced) schema is a string's that no enum or const pins (the validator decides the rest). */
function takesText(model: SpecModel, schema: unknown, pointer: string): boolean {
  const s = model.deref(schema, pointer).schema as Schema | undefined;
  return isMapping(s) && typesOf(s).includes("string") && s.enum === undefined && s.const === undefined;
}

/** May a string go into the parameter `p` at all (its place, and whether its identifier may change)? */
function parameterOpen(p: ParameterEntry, scope: Pick<HostileScope, "changeIds" | "linkFed">): boolean {
  // A parameter with content is JSON or a media type: not a plain string on the wire.
  if (p.contentType !== undefined) return false;
  return (p.in !== "path" && !scope.linkFed(p)) || scope.changeIds;
}

/**
 * The string-holding members of the body's object schema at any depth (model/members.ts: inside an envelope, nested
 * objects, arrays of objects), with the pointer of each one's schema.
 */
function bodyMembers(model: SpecModel, op: OperationEntry): Array<BodyMember & { schema: unknown }> {
  const pointer = planOf(op).body?.pointer;
  if (!pointer) return [];
  return membersOf(model, pointer).filter((m) => !m.schema?.properties && m.schema?.items === undefined);
}

/**
 * True when some parameter or body member of `op` may take a string the hostile phase sends (for planning): one with
 * no pattern or format, else (`precise`: generating values costs, and a run that cannot send them need not) one where
 * a class grown from a generated value passes them.
 */
export function hasHostileTargets(
  model: SpecModel,
  op: OperationEntry,
  scope: Omit<HostileScope, "seed">,
  precise = true,
): boolean {
  const open = (schema: unknown, pointer: string, place: Target["place"], read: (v: string) => unknown) => {
    if (!takesText(model, schema, pointer)) return false;
    const s = model.deref(schema, pointer).schema as Schema;
    if (!precise || (s.pattern === undefined && s.format === undefined)) return true;
    const accepts = (v: string) => model.validator.validate(pointer, read(v)).length === 0;
    const current = validText(model, undefined, pointer);
    return HOSTILE_CLASSES.some((c) => placed(c, place) && grownValue(c.text, current, accepts) !== undefined);
  };
  return (
    op.parameters.some(
      (p) =>
        parameterOpen(p, scope) && open(p.schema, p.schemaPointer, p.in, (v) => fromWire(model, p, serialize(p, v))),
    ) || bodyMembers(model, op).some((m) => open(m.schema, m.pointer, "body", (v) => v))
  );
}

/** The valid string a hostile one grows from: the request's own, else one generated from the schema. */
function validText(model: SpecModel, current: unknown, pointer: string): string | undefined {
  return typeof current === "string"
    ? current
    : validSamples(model, pointer, 3).find((v): v is string => typeof v === "string");
}

/** Where the hostile strings of `op` may go, built on `values`, in document order (parameters, then the body). */
function targetsOf(model: SpecModel, op: OperationEntry, values: Values, scope: HostileScope): Target[] {
  const out: Target[] = [];
  for (const p of op.parameters) {
    if (!parameterOpen(p, scope) || !takesText(model, p.schema, p.schemaPointer)) continue;
    const accepts = (v: string) =>
      model.validator.validate(p.schemaPointer, fromWire(model, p, serialize(p, v))).length === 0;
    const current = validText(model, bucketOf(values, p.in)[p.name], p.schemaPointer);
    out.push({ kind: "parameter", p, place: p.in, accepts, current });
  }
  const body = values.body?.value;
  const pointer = planOf(op).body?.pointer;
  if (pointer && isMapping(body))
    for (const m of bodyMembers(model, op)) {
      if (!takesText(model, m.schema, m.pointer)) continue;
      const accepts = (v: string) =>
        model.validator.validate(pointer, readBack(model, op, setAt(body, m.path, v))).length === 0;
      const current = validText(model, valuesAt(body, m.path)[0], m.pointer);
      out.push({
        kind: "member",
        name: m.shown,
        path: m.path,
        place: "body",
        accepts,
        current,
        pointer: m.pointer,
      });
    }
  return out;
}

/**
 * The class's string for a target, still valid: the text alone, else grown from the valid value (after it, before
 * it, or over its end where a maxLength bounds it), else undefined.
 */
function grownValue(text: string, current: string | undefined, accepts: (v: string) => boolean): string | undefined {
  const from = current ?? "";
  const kept = [...from];
  const candidates = [
    text,
    `${from}${text}`,
    `${text}${from}`,
    ...(kept.length > [...text].length ? [`${kept.slice(0, kept.length - [...text].length).join("")}${text}`] : []),
  ];
  return candidates.find((c) => accepts(c));
}

/** True when the request boundary would send `op` to its path with these path values (no dot segment shows). */
function withinBoundary(op: OperationEntry, path: Record<string, unknown>): boolean {
  try {
    requestUrl("http://127.0.0.1", expandPath(op, path), "", op.operationId);
    return true;
  } catch (err) {
    if (err instanceof RefusedRequest) return false;
    throw err;
  }
}

/** A small, stable number of a text (so each operation spreads the classes from its own start). */
const hashOf = (text: string) => [...text].reduce((h, c) => (h * 31 + c.codePointAt(0)!) >>> 0, 7);

/** May the class go to `place` (a separator only in a path; control characters and non-ASCII not in a header)? */
const placed = (c: HostileClass, place: Target["place"]) =>
  !(c.pathOnly && place !== "path") && !(c.notInHeaders && (place === "header" || place === "cookie"));

/** The class's string for a target, or undefined where its place, schema or the boundary rules it out. */
function classValue(op: OperationEntry, values: Values, t: Target, c: HostileClass): string | undefined {
  if (!placed(c, t.place)) return undefined;
  const value = grownValue(c.text, t.current, t.accepts);
  if (value === undefined || t.kind !== "parameter" || t.place !== "path") return value;
  return withinBoundary(op, { ...values.path, [t.p.name]: value }) ? value : undefined;
}

/**
 * The hostile requests of `op` built on `values`: as many as the string that takes the most classes takes (at most
 * HOSTILE_REQUESTS_PER_OPERATION); request i gives the string j (parameters, then body members, in document order)
 * the class (start + i + j) of those it takes, the start rotated by the seed and the operation, so every string
 * meets every class it takes (all of them, where it takes no more than the budget) and no two strings carry the same
 * class in one request where they take the same classes.
 */
export function hostileRequests(
  model: SpecModel,
  op: OperationEntry,
  values: Values,
  scope: HostileScope,
): HostileRequest[] {
  // Per target, the classes it takes (with the value each would get), in the classes' order.
  const open = targetsOf(model, op, values, scope)
    .map((t) => ({
      t,
      list: HOSTILE_CLASSES.flatMap((c) => {
        const value = classValue(op, values, t, c);
        return value === undefined ? [] : [{ c, value }];
      }),
    }))
    .filter((x) => x.list.length > 0);
  const start = (scope.seed + hashOf(op.operationId)) >>> 0;
  const pathNames = new Set(op.parameters.filter((p) => p.in === "path").map((p) => p.name.toLowerCase()));
  const copiesPath = (name: string) => pathNames.size > 0 && (pathNames.has(name.toLowerCase()) || /^id$/i.test(name));
  const bodyPointer = planOf(op).body?.pointer;
  const validBody = (body: unknown) =>
    !bodyPointer || model.validator.validate(bodyPointer, readBack(model, op, body)).length === 0;
  const rounds = Math.min(HOSTILE_REQUESTS_PER_OPERATION, Math.max(0, ...open.map((o) => o.list.length)));
  const out: HostileRequest[] = [];
  for (let i = 0; i < rounds; i++) {
    const v = cloneValues(values);
    const parts: HostilePart[] = [];
    for (const [j, { t, list }] of open.entries()) {
      const { c, value } = list[(start + i + j) % list.length]!;
      const shown = `${c.what}, ${JSON.stringify(value).slice(0, 80)}`;
      if (t.kind === "parameter") {
        const bucket = bucketOf(v, t.p.in);
        const was = bucket[t.p.name];
        bucket[t.p.name] = value;
        // Path values together may show a dot segment none shows alone: that one stays as it was.
        if (t.place === "path" && !withinBoundary(op, v.path)) {
          bucket[t.p.name] = was;
          continue;
        }
        const alone = cloneValues(values);
        bucketOf(alone, t.p.in)[t.p.name] = value;
        parts.push({ what: `${t.p.in} parameter ${t.p.name}: ${shown}`, values: alone });
      } else {
        const body = setAt(v.body!.value, t.path, value);
        // Strings valid one by one may break the schema together (a rule across members): that one stays valid.
        if (!validBody(body)) continue;
        v.body = { value: body };
        const alone = cloneValues(values);
        alone.body = { value: setAt(values.body!.value, t.path, value) };
        // Only a top-level member is read back from the answer (a nested one's place there is not known).
        const readable = t.path.length === 1 && !copiesPath(t.name);
        parts.push({
          what: `body member ${t.name}: ${shown}`,
          values: alone,
          ...(readable ? { member: { name: t.name, sent: value, pointer: t.pointer, what: c.what } } : {}),
        });
      }
    }
    if (parts.length === 0) continue;
    out.push({
      what: parts.map((p) => p.what).join("; "),
      values: parts.length === 1 ? parts[0]!.values : v,
      members: parts.flatMap((p) => (p.member ? [p.member] : [])),
      parts,
    });
  }
  return out;
}
