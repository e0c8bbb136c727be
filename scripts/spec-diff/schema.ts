/**
 * Compares two JSON Schemas (OpenAPI 3.1 semantics: the documents are upgraded first) on one side of the
 * exchange and reports each difference under a rule of rules.ts. Sets are compared as sets (types, enum
 * values, required names, alternatives); `$ref`s are followed in each document, with a guard against
 * cycles; keywords are compared only where they apply to the schema's types.
 */
import { derefSchema, isMapping, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { pointerSegment } from "../../openapi/lib/document-error.js";

/** One difference, before it is classified: the rule, where it lies, and the values. */
export interface Finding {
  rule: string;
  /** JSON pointer of the changed place (in the revision, or in the base when it is gone there). */
  pointer: string;
  /** Human words for the place: "query parameter `status`", "response 200 body (application/json) property `a.b`". */
  where: string;
  operation?: string;
  action: "add" | "remove" | "replace";
  before?: unknown;
  after?: unknown;
}

/** Where a schema sits and how its values travel. */
export interface SchemaContext {
  side: "request" | "response";
  /**
   * Both documents, as seen by this side (readOnly properties dropped from requests, writeOnly ones not required in
   * responses).
   */
  base: OpenApiDocument;
  head: OpenApiDocument;
  /** The place's words, without the property path. */
  where: string;
  operation?: string;
  /** True for parameters and headers in a simple style: every value is text on the wire. */
  text: boolean;
  emit: (finding: Finding) => void;
  /**
   * True where the place judges the top schema's `default` itself (a parameter: the value the server uses when it is
   * omitted).
   */
  ownDefault?: boolean;
  /** True for an allOf member: its properties were compared with the whole object's. */
  member?: boolean;
  /** How many schemas deep the walk is. */
  depth?: number;
  /**
   * Pairs of schemas already compared for this place (shared by the whole walk: cycles end, shared components are
   * walked once).
   */
  seen?: Set<string>;
}

const ANNOTATIONS = new Set(["description", "title", "example", "examples", "$comment", "externalDocs", "xml"]);
const NUMERIC = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]);
const STRING = new Set(["minLength", "maxLength", "pattern"]);
const ARRAY = new Set([
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedItems",
]);
const OBJECT = new Set([
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
]);
/** Keywords compared below by a rule of their own. */
const HANDLED = new Set([
  ...NUMERIC,
  ...STRING,
  ...ARRAY,
  ...OBJECT,
  ...ANNOTATIONS,
  "type",
  "enum",
  "const",
  "format",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "default",
  "readOnly",
  "writeOnly",
  "deprecated",
  "discriminator",
  "x-extensible-enum",
  "$ref",
  "$schema",
  "$id",
  "$anchor",
  "$defs",
  "definitions",
]);
/** Nesting beyond this is refused with a message (far beyond any real document, well within the stack). */
const MAX_DEPTH = 200;
const SUBSCHEMAS = [
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
] as const;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isNullSchema = (s: unknown): boolean =>
  isMapping(s) &&
  (s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null")) &&
  Object.keys(s).every((k) => k === "type" || ANNOTATIONS.has(k));

/** The schema's JSON types without "null" (undefined: any type), and whether null is allowed. */
function typesOf(doc: OpenApiDocument, schema: any, depth = 0): { types: Set<string> | undefined; nullable: boolean } {
  if (!isMapping(schema) || depth > 8) return { types: undefined, nullable: true };
  if (schema.type !== undefined) {
    const list = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
    return { types: new Set(list.filter((t: string) => t !== "null")), nullable: list.includes("null") };
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) {
    const parts = members(alternatives).map((m) => typesOf(doc, derefSchema(doc, m).schema, depth + 1));
    if (parts.some((p) => p.types === undefined)) return { types: undefined, nullable: true };
    const nullable = parts.some((p) => p.nullable) || members(alternatives).length < alternatives.length;
    return { types: new Set(parts.flatMap((p) => [...p.types!])), nullable };
  }
  if (Array.isArray(schema.allOf)) {
    // Every member holds: the types its typed members all allow.
    const typed = schema.allOf
      .map((m: unknown) => typesOf(doc, derefSchema(doc, m).schema, depth + 1))
      .filter((p: { types?: Set<string> }) => p.types !== undefined);
    if (typed.length > 0) {
      const [first, ...rest] = typed as Array<{ types: Set<string>; nullable: boolean }>;
      const types = new Set(
        [...first!.types].filter((t) =>
          rest.every((p) => p.types.has(t) || (t === "integer" && p.types.has("number"))),
        ),
      );
      return { types, nullable: typed.every((p: { nullable: boolean }) => p.nullable) };
    }
  }
  if ("const" in schema || Array.isArray(schema.enum)) {
    const values: unknown[] = "const" in schema ? [schema.const] : schema.enum;
    const types = values.map((v) =>
      v === null
        ? "null"
        : Array.isArray(v)
          ? "array"
          : Number.isInteger(v)
            ? "integer"
            : typeof v === "number"
              ? "number"
              : typeof v,
    );
    return { types: new Set(types.filter((t) => t !== "null")), nullable: types.includes("null") };
  }
  return { types: undefined, nullable: true };
}

/** Whether a string schema takes any text (so, on the wire, every number and boolean too). */
const freeText = (s: any): boolean =>
  !["format", "pattern", "enum", "const", "minLength", "maxLength"].some((k) => k in s);

/** Whether every value of type set `inner` lies in type set `outer` (undefined: any type). */
function covers(
  outer: Set<string> | undefined,
  outerSchema: any,
  inner: Set<string> | undefined,
  text: boolean,
): boolean {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  return [...inner].every(
    (t) =>
      outer.has(t) ||
      (t === "integer" && outer.has("number")) ||
      (text && outer.has("string") && freeText(outerSchema) && ["integer", "number", "boolean"].includes(t)),
  );
}

/** Whether keywords of a family apply to a schema allowing `types` (undefined: any). */
function applies(keyword: string, types: Set<string> | undefined): boolean {
  if (types === undefined) return true;
  if (NUMERIC.has(keyword)) return types.has("number") || types.has("integer");
  if (STRING.has(keyword)) return types.has("string");
  if (ARRAY.has(keyword)) return types.has("array");
  if (OBJECT.has(keyword)) return types.has("object");
  return true;
}

interface Bound {
  value: number;
  exclusive: boolean;
}

/** The effective lower (`min`) or upper bound from minimum/exclusiveMinimum or maximum/exclusiveMaximum. */
function bound(s: any, which: "min" | "max"): Bound | undefined {
  const [incl, excl] = which === "min" ? [s.minimum, s.exclusiveMinimum] : [s.maximum, s.exclusiveMaximum];
  const options: Bound[] = [];
  if (typeof incl === "number") options.push({ value: incl, exclusive: false });
  if (typeof excl === "number") options.push({ value: excl, exclusive: true });
  if (options.length === 0) return undefined;
  const sign = which === "min" ? 1 : -1;
  // The stricter of the two: the higher lower bound (the lower upper bound); exclusive wins a tie.
  return options.reduce((a, b) => (sign * (b.value - a.value) > 0 || (b.value === a.value && b.exclusive) ? b : a));
}

/** +1 when bound `b` is stricter than `a`, -1 when looser, 0 when the same. */
function stricter(a: Bound | undefined, b: Bound | undefined, which: "min" | "max"): number {
  if (same(a, b)) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const sign = which === "min" ? 1 : -1;
  if (a.value !== b.value) return sign * (b.value - a.value) > 0 ? 1 : -1;
  return b.exclusive ? 1 : -1;
}

const showBound = (b: Bound | undefined, which: "min" | "max"): string | undefined =>
  b === undefined ? undefined : `${which === "min" ? (b.exclusive ? ">" : "≥") : b.exclusive ? "<" : "≤"} ${b.value}`;

/** Members of a oneOf/anyOf/allOf list without the bare `{type: null}` ones (nullability is compared on its own). */
const members = (list: unknown): unknown[] => (Array.isArray(list) ? list.filter((m) => !isNullSchema(m)) : []);

/** Pairs members of two lists: same `$ref`, then same content, then the rest in order. */
function pairMembers(
  a: unknown[],
  b: unknown[],
): { pairs: Array<[number, number]>; removed: number[]; added: number[] } {
  const key = (m: any) => (isMapping(m) && typeof m.$ref === "string" ? `ref:${m.$ref}` : `json:${JSON.stringify(m)}`);
  const freeA = a.map((_, i) => i);
  const freeB = b.map((_, i) => i);
  const pairs: Array<[number, number]> = [];
  for (const i of [...freeA]) {
    const j = freeB.find((x) => key(b[x]) === key(a[i]));
    if (j !== undefined) {
      pairs.push([i, j]);
      freeA.splice(freeA.indexOf(i), 1);
      freeB.splice(freeB.indexOf(j), 1);
    }
  }
  // Inline members that changed: paired in order, unless one side is a $ref (a different schema, not an edit).
  while (
    freeA.length > 0 &&
    freeB.length > 0 &&
    !(isMapping(a[freeA[0]!]) && (a[freeA[0]!] as any).$ref) &&
    !(isMapping(b[freeB[0]!]) && (b[freeB[0]!] as any).$ref)
  ) {
    pairs.push([freeA.shift()!, freeB.shift()!]);
  }
  return { pairs, removed: freeA, added: freeB };
}

/** A schema as an object: `true` (and anything that is not a schema) allows every value, `false` none (`not: {}`). */
const asSchema = (schema: unknown): Record<string, any> =>
  isMapping(schema) ? schema : schema === false ? { not: {} } : {};

/** "request body (application/json) property `a.b[]`", or "… item `[]`" for the items of the top schema. */
const placeOf = (where: string, path: string): string =>
  !path ? where : `${where} ${/^[[{]/.test(path) ? "item" : "property"} \`${path}\``;

/** Per pair of documents: whether the schema at a pointer, with everything it references, reads the same in both. */
const closures = new WeakMap<OpenApiDocument, WeakMap<OpenApiDocument, Map<string, boolean>>>();

/** Local `$ref` targets anywhere inside a value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (isMapping(value))
    for (const [k, v] of Object.entries(value))
      k === "$ref" && typeof v === "string" && v.startsWith("#") ? out.push(v.slice(1)) : refsIn(v, out);
  return out;
}

/**
 * Whether the schema at `pointer` and all it reaches are written the same in both documents (then nothing below it
 * changed).
 */
function unchanged(base: OpenApiDocument, head: OpenApiDocument, pointer: string): boolean {
  let byHead = closures.get(base);
  if (!byHead) {
    byHead = new WeakMap();
    closures.set(base, byHead);
  }
  let memo = byHead.get(head);
  if (!memo) {
    memo = new Map();
    byHead.set(head, memo);
  }
  const known = memo.get(pointer);
  if (known !== undefined) return known;
  const todo = [pointer];
  const reached = new Set(todo);
  let result = true;
  while (result && todo.length > 0) {
    const at = todo.pop()!;
    const [a, b] = [resolvePointer(base, at), resolvePointer(head, at)];
    if (JSON.stringify(a) !== JSON.stringify(b)) result = false;
    else
      for (const ref of refsIn(a))
        if (!reached.has(ref)) {
          reached.add(ref);
          todo.push(ref);
        }
  }
  memo.set(pointer, result);
  return result;
}

/**
 * Whether an allOf member says more than the object's properties already say: anything besides properties,
 * required names, annotations and a type the object has, or a property the other version of the object
 * (`other`, read in `otherDoc`) defines differently. A member that only repeats or adds properties is judged
 * by those, on the whole object.
 */
function constrainsBeyondProperties(
  doc: OpenApiDocument,
  member: unknown,
  outer: Set<string> | undefined,
  otherDoc: OpenApiDocument,
  other: Map<string, { schema: unknown }>,
  depth = 0,
): boolean {
  const m = derefSchema(doc, member).schema;
  if (!isMapping(m)) return m === false;
  if (depth > 16) return true;
  const resolved = (d: OpenApiDocument, x: unknown) => JSON.stringify(derefSchema(d, x).schema);
  return Object.entries(m).some(([k, v]) => {
    if (k === "required" || ANNOTATIONS.has(k) || k.startsWith("x-") || k === "deprecated") return false;
    if (k === "properties")
      return (
        isMapping(v) &&
        Object.entries(v).some(
          ([name, p]) => other.has(name) && resolved(doc, p) !== resolved(otherDoc, other.get(name)!.schema),
        )
      );
    if (k === "type") return !covers(typesOf(doc, m).types, m, outer, false);
    if (k === "allOf")
      return !Array.isArray(v) || v.some((x) => constrainsBeyondProperties(doc, x, outer, otherDoc, other, depth + 1));
    return true;
  });
}

/**
 * Compares the schema `a` (at `pa` in the base) with `b` (at `pb` in the revision); `path` is the property path
 * inside the place.
 */
export function compareSchema(a: unknown, pa: string, b: unknown, pb: string, ctx: SchemaContext, path = ""): void {
  // OpenAPI 3.1 allows keywords beside a $ref (a description, a constraint): they are compared where they are written.
  const beside = (x: unknown) =>
    isMapping(x) && typeof x.$ref === "string"
      ? Object.fromEntries(Object.entries(x).filter(([k]) => k !== "$ref"))
      : undefined;
  const [na, nb] = [beside(a), beside(b)];
  if ((na || nb) && !same(na ?? {}, nb ?? {})) compareSchema(na ?? {}, pa, nb ?? {}, pb, ctx, path);
  const ra = derefSchema(ctx.base, a ?? {}, pa);
  const rb = derefSchema(ctx.head, b ?? {}, pb);
  // The same component on both sides, unchanged with all it references: nothing to find (and much to skip in a large
  // document).
  if (
    isMapping(a) &&
    isMapping(b) &&
    typeof a.$ref === "string" &&
    a.$ref === b.$ref &&
    ra.pointer === rb.pointer &&
    unchanged(ctx.base, ctx.head, ra.pointer)
  )
    return;
  const sa: any = asSchema(ra.schema);
  const sb: any = asSchema(rb.schema);
  // Each pair of schemas once per place and reading: this ends cycles, and keeps shared components from being walked
  // again and again.
  const seen = ctx.seen ?? new Set<string>();
  const pairKey = `${ctx.side}|${ctx.text}|${ra.pointer}|${rb.pointer}`;
  if (seen.has(pairKey)) return;
  seen.add(pairKey);
  const depth = (ctx.depth ?? 0) + 1;
  if (depth > MAX_DEPTH)
    throw new Error(
      `${ctx.where}: the schema at ${rb.pointer || ra.pointer} is nested more than ` +
        `${MAX_DEPTH} levels deep; the gate does not compare deeper`,
    );
  const inner: SchemaContext = { ...ctx, ownDefault: false, member: false, seen, depth };
  const at = rb.schema !== undefined && b !== undefined ? rb.pointer : ra.pointer;
  const where = placeOf(ctx.where, path);
  const emit = (
    kind: string,
    action: Finding["action"],
    before?: unknown,
    after?: unknown,
    keyword?: string,
    side: string = ctx.side,
  ) => {
    ctx.emit({
      rule: side === "none" ? kind : `${side}-${kind}`,
      pointer: keyword ? `${at}/${keyword.split("/").map(pointerSegment).join("/")}` : at,
      where,
      ...(ctx.operation ? { operation: ctx.operation } : {}),
      action,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    });
  };
  const change = (x: unknown, y: unknown): Finding["action"] =>
    x === undefined ? "add" : y === undefined ? "remove" : "replace";

  // Types and nullability.
  const ta = typesOf(ctx.base, sa);
  const tb = typesOf(ctx.head, sb);
  const explicit =
    sa.type !== undefined ||
    sb.type !== undefined ||
    sa.oneOf ||
    sb.oneOf ||
    sa.anyOf ||
    sb.anyOf ||
    sa.allOf ||
    sb.allOf;
  if (explicit && !(same(sa.type, sb.type) && sa.type !== undefined)) {
    const widened = covers(tb.types, sb, ta.types, ctx.text);
    const narrowed = covers(ta.types, sa, tb.types, ctx.text);
    const equalSets = ta.types && tb.types && same([...ta.types].sort(), [...tb.types].sort());
    const kind =
      equalSets || (ta.types === undefined && tb.types === undefined)
        ? undefined
        : widened && narrowed
          ? "type-rewritten"
          : widened
            ? "type-widened"
            : narrowed
              ? "type-narrowed"
              : "type-changed";
    if (kind)
      emit(
        kind,
        "replace",
        ta.types ? [...ta.types].join("|") : "any",
        tb.types ? [...tb.types].join("|") : "any",
        "type",
      );
  }
  // Nullability on its own only where both sides name their types (from or to "any", the type change says it all).
  if (ta.nullable !== tb.nullable && ta.types !== undefined && tb.types !== undefined)
    emit(tb.nullable ? "became-nullable" : "became-not-nullable", "replace", ta.nullable, tb.nullable, "type");
  const types = ta.types === undefined || tb.types === undefined ? undefined : new Set([...ta.types, ...tb.types]);

  // Values: enum, const, x-extensible-enum.
  const values = (s: any) =>
    Array.isArray(s.enum)
      ? s.enum.filter((v: unknown) => v !== null).map((v: unknown) => JSON.stringify(v))
      : undefined;
  const [ea, eb] = [values(sa), values(sb)];
  if (ea && !eb) emit("enum-removed", "remove", sa.enum, undefined, "enum");
  else if (!ea && eb) emit("became-enum", "add", undefined, sb.enum, "enum");
  else if (ea && eb) {
    for (const v of ea) if (!eb.includes(v)) emit("enum-value-removed", "remove", JSON.parse(v), undefined, "enum");
    for (const v of eb) if (!ea.includes(v)) emit("enum-value-added", "add", undefined, JSON.parse(v), "enum");
  }
  if (!same(sa.const, sb.const))
    emit(
      !("const" in sa) ? "const-added" : !("const" in sb) ? "const-removed" : "const-changed",
      change(sa.const, sb.const),
      sa.const,
      sb.const,
      "const",
    );
  const xa: unknown[] = Array.isArray(sa["x-extensible-enum"]) ? sa["x-extensible-enum"] : [];
  const xb: unknown[] = Array.isArray(sb["x-extensible-enum"]) ? sb["x-extensible-enum"] : [];
  for (const v of xa)
    if (!xb.some((w) => same(v, w))) emit("extensible-enum-value-removed", "remove", v, undefined, "x-extensible-enum");
  for (const v of xb)
    if (!xa.some((w) => same(v, w))) emit("extensible-enum-value-added", "add", undefined, v, "x-extensible-enum");

  // Bounds, lengths, counts.
  const boundKinds = { min: "minimum", max: "maximum" } as const;
  for (const which of ["min", "max"] as const) {
    const [ba, bb] = [bound(sa, which), bound(sb, which)];
    const dir = stricter(ba, bb, which);
    if (dir === 0) continue;
    const keyword =
      which === "min"
        ? bb?.exclusive
          ? "exclusiveMinimum"
          : "minimum"
        : bb?.exclusive
          ? "exclusiveMaximum"
          : "maximum";
    const narrowing = dir > 0;
    const kind = `${boundKinds[which]}-${(which === "min") === narrowing ? "increased" : "decreased"}`;
    emit(
      applies("minimum", types) ? kind : "keyword-without-effect",
      change(ba, bb),
      showBound(ba, which),
      showBound(bb, which),
      keyword,
    );
  }
  const counts = [
    ["minLength", "min-length", 0],
    ["maxLength", "max-length", Infinity],
    ["minItems", "min-items", 0],
    ["maxItems", "max-items", Infinity],
    ["minProperties", "min-properties", 0],
    ["maxProperties", "max-properties", Infinity],
  ] as const;
  for (const [keyword, kind, none] of counts) {
    const [va, vb] = [
      typeof sa[keyword] === "number" ? sa[keyword] : none,
      typeof sb[keyword] === "number" ? sb[keyword] : none,
    ];
    if (va === vb) continue;
    emit(
      applies(keyword, types) ? `${kind}-${vb > va ? "increased" : "decreased"}` : "keyword-without-effect",
      change(sa[keyword], sb[keyword]),
      sa[keyword],
      sb[keyword],
      keyword,
    );
  }
  if (!same(sa.multipleOf, sb.multipleOf)) {
    const [ma, mb] = [sa.multipleOf, sb.multipleOf];
    const multiple = (x: number, y: number) => Number.isInteger(x / y);
    const kind =
      ma === undefined
        ? "multiple-of-narrowed"
        : mb === undefined
          ? "multiple-of-widened"
          : multiple(mb, ma)
            ? "multiple-of-narrowed"
            : multiple(ma, mb)
              ? "multiple-of-widened"
              : "multiple-of-changed";
    emit(applies("multipleOf", types) ? kind : "keyword-without-effect", change(ma, mb), ma, mb, "multipleOf");
  }
  if (Boolean(sa.uniqueItems) !== Boolean(sb.uniqueItems))
    emit(
      applies("uniqueItems", types)
        ? sb.uniqueItems
          ? "unique-items-added"
          : "unique-items-removed"
        : "keyword-without-effect",
      "replace",
      sa.uniqueItems,
      sb.uniqueItems,
      "uniqueItems",
    );
  if (!same(sa.pattern, sb.pattern)) {
    const anything = (p: unknown) => p === undefined || ["", ".*", "^.*$", "^.*", ".*$"].includes(String(p));
    const kind =
      anything(sa.pattern) && anything(sb.pattern)
        ? undefined
        : anything(sb.pattern)
          ? "pattern-removed"
          : anything(sa.pattern)
            ? "pattern-added"
            : "pattern-changed";
    if (kind)
      emit(
        applies("pattern", types) ? kind : "keyword-without-effect",
        change(sa.pattern, sb.pattern),
        sa.pattern,
        sb.pattern,
        "pattern",
      );
  }
  if (!same(sa.format, sb.format))
    emit(
      sa.format === undefined ? "format-added" : sb.format === undefined ? "format-removed" : "format-changed",
      change(sa.format, sb.format),
      sa.format,
      sb.format,
      "format",
    );
  if (!same(sa.default, sb.default) && !(path === "" && ctx.ownDefault))
    emit("default-changed", change(sa.default, sb.default), sa.default, sb.default, "default");
  for (const keyword of ["readOnly", "writeOnly"])
    if (Boolean(sa[keyword]) !== Boolean(sb[keyword]))
      emit("access-changed", "replace", sa[keyword], sb[keyword], keyword);
  if (Boolean(sa.deprecated) !== Boolean(sb.deprecated))
    emit("property-deprecated", "replace", sa.deprecated, sb.deprecated, "deprecated");
  if (!same(sa.discriminator, sb.discriminator))
    emit(
      "discriminator-changed",
      change(sa.discriminator, sb.discriminator),
      sa.discriminator,
      sb.discriminator,
      "discriminator",
    );

  // Objects: properties, required, additionalProperties.
  const composed = Array.isArray(sa.allOf) || Array.isArray(sb.allOf);
  if (applies("properties", types) || isMapping(sa.properties) || isMapping(sb.properties) || composed)
    compareObject(sa, ra.pointer, sb, rb.pointer, inner, path, emit, ctx.member === true);

  // Arrays.
  if (sa.items !== undefined || sb.items !== undefined) {
    if (sa.items === undefined) emit("subschema-added", "add", undefined, undefined, "items");
    else if (sb.items === undefined) emit("subschema-removed", "remove", undefined, undefined, "items");
    else compareSchema(sa.items, `${ra.pointer}/items`, sb.items, `${rb.pointer}/items`, inner, `${path}[]`);
  }
  const pia: unknown[] = Array.isArray(sa.prefixItems) ? sa.prefixItems : [];
  const pib: unknown[] = Array.isArray(sb.prefixItems) ? sb.prefixItems : [];
  for (let i = 0; i < Math.max(pia.length, pib.length); i++) {
    if (i >= pia.length) emit("subschema-added", "add", undefined, undefined, `prefixItems/${i}`);
    else if (i >= pib.length) emit("subschema-removed", "remove", undefined, undefined, `prefixItems/${i}`);
    else
      compareSchema(
        pia[i],
        `${ra.pointer}/prefixItems/${i}`,
        pib[i],
        `${rb.pointer}/prefixItems/${i}`,
        inner,
        `${path}[${i}]`,
      );
  }

  // Composition.
  for (const keyword of ["oneOf", "anyOf", "allOf"] as const) {
    const [ma, mb] = [members(sa[keyword]), members(sb[keyword])];
    if (ma.length === 0 && mb.length === 0) continue;
    const { pairs, removed, added } = pairMembers(ma, mb);
    const [addKind, removeKind] =
      keyword === "allOf" ? ["all-of-added", "all-of-removed"] : ["alternative-added", "alternative-removed"];
    const label = (m: any) => (isMapping(m) && typeof m.$ref === "string" ? m.$ref : undefined);
    const ia = (sa[keyword] ?? []) as unknown[];
    const ib = (sb[keyword] ?? []) as unknown[];
    // An allOf member that only brings properties and required names is judged by those, on the whole object.
    const flat =
      keyword === "allOf" && (removed.length > 0 || added.length > 0)
        ? [flatObject(ctx.base, sa, ra.pointer).props, flatObject(ctx.head, sb, rb.pointer).props]
        : [];
    for (const i of removed)
      if (keyword !== "allOf" || constrainsBeyondProperties(ctx.base, ma[i], ta.types, ctx.head, flat[1]!))
        emit(removeKind, "remove", label(ma[i]), undefined, `${keyword}/${ia.indexOf(ma[i])}`);
    for (const j of added)
      if (keyword !== "allOf" || constrainsBeyondProperties(ctx.head, mb[j], tb.types, ctx.base, flat[0]!))
        emit(addKind, "add", undefined, label(mb[j]), `${keyword}/${ib.indexOf(mb[j])}`);
    const memberCtx = keyword === "allOf" ? { ...inner, member: true } : inner;
    for (const [i, j] of pairs)
      compareSchema(
        ma[i],
        `${ra.pointer}/${keyword}/${ia.indexOf(ma[i])}`,
        mb[j],
        `${rb.pointer}/${keyword}/${ib.indexOf(mb[j])}`,
        memberCtx,
        path,
      );
  }
  for (const keyword of SUBSCHEMAS) {
    if (sa[keyword] === undefined && sb[keyword] === undefined) continue;
    if (sa[keyword] === undefined) emit("subschema-added", "add", undefined, undefined, keyword);
    else if (sb[keyword] === undefined) emit("subschema-removed", "remove", undefined, undefined, keyword);
    else if (!same(sa[keyword], sb[keyword])) emit("schema-changed", "replace", undefined, undefined, keyword);
  }

  // Documentation, and anything no rule covers.
  for (const key of new Set([...Object.keys(sa), ...Object.keys(sb)])) {
    const annotation = ANNOTATIONS.has(key) || (key.startsWith("x-") && key !== "x-extensible-enum");
    if ((!annotation && HANDLED.has(key)) || same(sa[key], sb[key])) continue;
    emit(
      annotation ? "annotation-changed" : "schema-changed",
      change(sa[key], sb[key]),
      sa[key],
      sb[key],
      key,
      annotation ? "none" : ctx.side,
    );
  }
}

type Emit = (kind: string, action: Finding["action"], before?: unknown, after?: unknown, keyword?: string) => void;

/**
 * An object's properties and required names, its own and those of its allOf members (at any depth), each property
 * with the pointer where it is written.
 */
function flatObject(
  doc: OpenApiDocument,
  schema: any,
  pointer: string,
): { props: Map<string, { schema: unknown; pointer: string }>; required: Set<string> } {
  const props = new Map<string, { schema: unknown; pointer: string }>();
  const required = new Set<string>();
  const visited = new Set<string>();
  const visit = (s: any, at: string, depth: number) => {
    if (!isMapping(s) || visited.has(at) || depth > 16) return;
    visited.add(at);
    if (isMapping(s.properties))
      for (const [name, p] of Object.entries(s.properties))
        if (!props.has(name)) props.set(name, { schema: p, pointer: `${at}/properties/${pointerSegment(name)}` });
    if (Array.isArray(s.required)) for (const r of s.required) required.add(String(r));
    if (Array.isArray(s.allOf))
      s.allOf.forEach((m: unknown, i: number) => {
        const r = derefSchema(doc, m, `${at}/allOf/${i}`);
        visit(r.schema, r.pointer, depth + 1);
      });
  };
  visit(schema, pointer, 0);
  return { props, required };
}

/**
 * Properties and required names, compared on the object as its allOf members add up (so moving properties
 * into a shared member is no change), then additionalProperties. In an allOf member (`member`), the
 * properties were compared with the whole object already.
 */
function compareObject(
  sa: any,
  pa: string,
  sb: any,
  pb: string,
  ctx: SchemaContext,
  path: string,
  emit: Emit,
  member: boolean,
): void {
  const sub = (name: string) => (path ? `${path}.${name}` : name);
  const emitAt = (kind: string, name: string, action: Finding["action"], pointer: string) => {
    ctx.emit({
      rule: kind.startsWith("request-") || kind.startsWith("response-") ? kind : `${ctx.side}-${kind}`,
      pointer,
      where: placeOf(ctx.where, sub(name)),
      ...(ctx.operation ? { operation: ctx.operation } : {}),
      action,
    });
  };
  const [fa, fb] = [flatObject(ctx.base, sa, pa), flatObject(ctx.head, sb, pb)];
  const [reqA, reqB] = [fa.required, fb.required];
  // A writeOnly property never comes in a response (the request view has already dropped readOnly ones).
  const absent = (doc: OpenApiDocument, p: unknown) =>
    ctx.side === "response" && derefSchema(doc, p).schema?.writeOnly === true;
  for (const [name, a] of member ? [] : fa.props) {
    if (fb.props.has(name) || absent(ctx.base, a.schema)) continue;
    const kind =
      ctx.side === "request"
        ? "request-property-removed"
        : reqA.has(name)
          ? "response-required-property-removed"
          : "response-optional-property-removed";
    emitAt(kind, name, "remove", a.pointer);
  }
  for (const [name, b] of member ? [] : fb.props) {
    const a = fa.props.get(name);
    if (!a) {
      if (!absent(ctx.head, b.schema))
        emitAt(reqB.has(name) ? "property-added-required" : "property-added-optional", name, "add", b.pointer);
      continue;
    }
    if (reqA.has(name) !== reqB.has(name))
      emitAt(
        reqB.has(name) ? "property-became-required" : "property-became-optional",
        name,
        "replace",
        `${pb}/required`,
      );
    compareSchema(a.schema, a.pointer, b.schema, b.pointer, ctx, sub(name));
  }
  // Required names with no property of that name: the object must still have the member.
  for (const name of member ? [] : reqB)
    if (!reqA.has(name) && !fb.props.has(name)) emitAt("property-became-required", name, "replace", `${pb}/required`);
  for (const name of member ? [] : reqA)
    if (!reqB.has(name) && !fa.props.has(name)) emitAt("property-became-optional", name, "replace", `${pb}/required`);

  const open = (x: unknown) => (x === undefined || x === true ? "open" : x === false ? "closed" : "schema");
  const [oa, ob] = [open(sa.additionalProperties), open(sb.additionalProperties)];
  if (oa === "schema" && ob === "schema")
    compareSchema(
      sa.additionalProperties,
      `${pa}/additionalProperties`,
      sb.additionalProperties,
      `${pb}/additionalProperties`,
      ctx,
      `${path}{*}`,
    );
  else if (oa !== ob) {
    const wider = oa === "closed" || ob === "open";
    emit(
      wider ? "additional-properties-widened" : "additional-properties-narrowed",
      "replace",
      sa.additionalProperties,
      sb.additionalProperties,
      "additionalProperties",
    );
  }
}
