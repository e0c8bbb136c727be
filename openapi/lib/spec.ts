/**
 * Reads the OpenAPI document from its YAML source and compiles any of its schemas with ajv
 * (JSON Schema 2020-12 semantics, formats on). Shared by the spec tests and the contract suite, which
 * must read the YAML itself so a stale `generated/` cannot hide drift.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { upgrade } from "@scalar/openapi-upgrader";
import { fileURLToPath } from "node:url";
import { ajvRegExp } from "./regex.js";
import { DocumentError, pointerSegment, refPointer, resolvePointer } from "./document-error.js";
import { assertSelfContained, readDocumentFile } from "./self-contained.js";

type AddFormats = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS; under NodeNext its default import is the module object, under tsx the function.
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

/** Absolute path of the project's OpenAPI document (the source of truth). */
export const SPEC_PATH = fileURLToPath(new URL("../openapi.yaml", import.meta.url));

/** The parsed document, as plain JSON data. */
export type OpenApiDocument = Record<string, any>;

/** The id under which the whole document is registered with ajv. */
const SPEC_ID = "https://webauto-api.local/openapi.yaml";

/** True for a JSON object (not null, not an array). */
export const isMapping = (v: unknown): v is Record<string, any> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Parses an OpenAPI document (YAML or JSON) from disk, as OpenAPI 3.1: a Swagger 2.0 or OpenAPI 3.0 document
 * is upgraded (`nullable` to a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` to numbers,
 * schema `example` to `examples`...) by @scalar/openapi-upgrader, so its schemas are read with the JSON
 * Schema 2020-12 semantics every tool here uses. A 3.1 (or 3.2) document is returned as written.
 * Throws {@link DocumentError} for a file that is not YAML/JSON or not an OpenAPI 2.0/3.x document.
 */
export function loadSpec(path: string = SPEC_PATH): OpenApiDocument {
  // A copy: the upgrade and the nullable rewrite change the document in place, and the parse is shared.
  return readSpec(structuredClone(readDocumentFile(path)), path);
}

/** {@link loadSpec} on a document already parsed; `path` names it in errors. */
export function readSpec(doc: unknown, path: string): OpenApiDocument {
  if (!isMapping(doc))
    throw new DocumentError(
      `${path} is not an OpenAPI document: expected a mapping with an "openapi" field at the top, got ${Array.isArray(doc) ? "a list" : doc === null || doc === undefined ? "nothing" : `a ${typeof doc}`}`,
    );
  const openapi = typeof doc.openapi === "string" ? doc.openapi : undefined;
  if (!(openapi && /^3\.[0-2]\.\d/.test(openapi)) && String(doc.swagger) !== "2.0") {
    throw new DocumentError(
      `${path} is not an OpenAPI document this suite reads: "openapi" must be 3.0.x, 3.1.x or 3.2.x ` +
        `(or "swagger": "2.0"), got ${shownVersion(doc.openapi ?? doc.swagger ?? null)}`,
    );
  }
  if (doc.paths !== undefined && !isMapping(doc.paths))
    throw new DocumentError(`${path}: "paths" must be a mapping of paths to path items`);
  assertSelfContained(doc, path);
  checkReferences(doc, path);
  checkOperationIds(doc, path);
  const read =
    openapi && !openapi.startsWith("3.0") ? doc : (upgrade(doc as never, "3.1") as unknown as OpenApiDocument);
  return nullableWithoutType(read);
}

/**
 * A version field as shown in an error: a version-like text as it is, anything else by its type only (never a
 * secret's text).
 */
const shownVersion = (v: unknown) =>
  (typeof v === "string" && /^\d{1,3}(\.\d{1,3}){0,3}$/.test(v)) || typeof v === "number" || v === null
    ? JSON.stringify(v)
    : `a ${typeof v} that is not a version`;

/**
 * `nullable: true` where no `type` is written (OpenAPI 3.0's way of making a `$ref` or an `allOf` nullable,
 * which the upgrader leaves as it is; ajv refuses to compile it) becomes the 3.1 null union:
 * `anyOf: [<the schema>, {type: "null"}]`. A `nullable` of false, or one with nothing to attach to, is dropped.
 */
function nullableWithoutType(doc: OpenApiDocument): OpenApiDocument {
  forEachNode(doc, (node) => {
    if (!("nullable" in node) || node.type !== undefined) return;
    const { nullable, ...rest } = node;
    for (const key of Object.keys(node)) delete node[key];
    const constrained = ["$ref", "allOf", "oneOf", "anyOf", "properties", "items", "enum", "const"].some(
      (k) => k in rest,
    );
    Object.assign(node, nullable === true && constrained ? { anyOf: [rest, { type: "null" }] } : rest);
  });
  return doc;
}

/** An operationId names one operation: two operations with the same one would be mistaken for each other. */
function checkOperationIds(doc: Record<string, unknown>, path: string): void {
  const seen = new Map<string, string>();
  for (const [route, written] of Object.entries(isMapping(doc.paths) ? doc.paths : {})) {
    const item = derefSchema(doc, written).schema as unknown;
    if (!isMapping(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      const id = isMapping(op) && typeof op.operationId === "string" ? op.operationId : undefined;
      if (id === undefined) continue;
      const where = `${method.toUpperCase()} ${route}`;
      const first = seen.get(id);
      if (first)
        throw new DocumentError(
          `${path}: the operationId ${JSON.stringify(id)} is used twice (${first} ` +
            `and ${where}); operationIds must be unique`,
        );
      seen.set(id, where);
    }
  }
}

/** Keys whose values are data (examples, defaults, enums, consts), never schemas or references. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * Maps whose keys are names (of properties, responses, media types, components...), not keywords: a member
 * there called `default` or `enum` (the `default` response, a property named `enum`) is entered.
 */
const NAMED_MAPS = new Set([
  "paths",
  "responses",
  "content",
  "headers",
  "links",
  "callbacks",
  "encoding",
  "schemas",
  "parameters",
  "requestBodies",
  "securitySchemes",
  "pathItems",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/**
 * Visits every object of an OpenAPI document (schemas, operations, responses...) once, iteratively, with its
 * JSON pointer; `visit` may rewrite the object in place before its members are entered. Data (examples,
 * defaults, enums, consts) and `x-` extensions are not entered, except where a named map calls a member so.
 */
export function forEachNode(doc: unknown, visit: (node: Record<string, unknown>, at: string) => void): void {
  const stack: Array<[unknown, string, boolean]> = [[doc, "", false]];
  while (stack.length > 0) {
    const [node, at, named] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        stack.push([item, `${at}/${i}`, false]);
      });
      continue;
    }
    if (!isMapping(node)) continue;
    if (!named) visit(node, at);
    for (const [key, value] of Object.entries(node)) {
      if (!named && (DATA_KEYS.has(key) || key.startsWith("x-"))) continue;
      stack.push([value, `${at}/${pointerSegment(key)}`, !named && NAMED_MAPS.has(key)]);
    }
  }
}

/**
 * Every `$ref` must resolve: a dangling one names where it is. (That every `$ref` is local is checked before,
 * by assertSelfContained.)
 */
function checkReferences(doc: Record<string, unknown>, path: string): void {
  forEachNode(doc, (node, at) => {
    const ref = node.$ref;
    if (typeof ref !== "string") return;
    if (resolvePointer(doc, ref) === undefined)
      throw new DocumentError(
        `${path}: the $ref ${JSON.stringify(ref)} at ${at || "/"} does not resolve (no such place in the document)`,
      );
  });
}

/** Builds a JSON pointer from raw segments. */
export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.length === 0 ? "" : `/${segments.map((s) => pointerSegment(String(s))).join("/")}`;
}

/** Follows local `$ref`s (`#/...`) from `schema` (found at `pointer`) to a schema without one. */
export function derefSchema(root: unknown, schema: any, pointer = ""): { schema: any; pointer: string } {
  let cur = schema;
  let at = pointer;
  for (let hops = 0; cur && typeof cur === "object" && typeof cur.$ref === "string" && hops < 20; hops++) {
    at = refPointer(cur.$ref);
    cur = resolvePointer(root, at);
  }
  return { schema: cur, pointer: at };
}

/** Compiles schemas of one document; `validator("/components/schemas/X")` is cached per pointer. */
export class SpecValidator {
  readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly spec: OpenApiDocument = loadSpec()) {
    // verbose: each error carries the schema object it failed in, so schemaPathOf can say where in the document it is.
    // Patterns run on RE2 (linear time): a document's catastrophic pattern cannot hang validation.
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateFormats: true,
      verbose: true,
      code: { regExp: ajvRegExp },
    });
    addFormats(this.ajv);
    // The whole document is one resource, so `#/components/schemas/...` references resolve in place.
    this.ajv.addSchema(spec, SPEC_ID);
  }

  /**
   * The compiled validator of the schema at `pointer` (a JSON pointer into the document). A schema that is
   * not valid JSON Schema (e.g. an `allOf` that is not a list) throws a {@link DocumentError} naming the place.
   */
  validator(pointer: string): ValidateFunction {
    let fn = this.cache.get(pointer);
    if (!fn) {
      if (resolvePointer(this.spec, pointer) === null)
        throw new DocumentError(
          `the schema at ${pointer} is null, which is no schema (a schema is an object or a boolean)`,
        );
      try {
        // A pointer to nothing (a parameter without a schema) constrains nothing.
        fn = this.ajv.compile(
          resolvePointer(this.spec, pointer) === undefined
            ? {}
            : { $ref: `${SPEC_ID}#${pointer.replace(/%/g, "%25")}` },
        );
      } catch (err) {
        throw new DocumentError(
          `the schema at ${pointer} (or one it refers to) is not valid JSON Schema: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`,
        );
      }
      this.cache.set(pointer, fn);
    }
    return fn;
  }

  private pointers: WeakMap<object, string> | undefined;

  /**
   * Where an error's keyword is in the document, e.g. `#/components/schemas/Page/required` (ajv's own
   * schemaPath is relative to the last `$ref` it followed, e.g. `#/required`).
   */
  schemaPathOf(err: ErrorObject): string {
    if (!this.pointers) {
      const map = new WeakMap<object, string>();
      const walk = (node: unknown, at: string): void => {
        if (node === null || typeof node !== "object" || map.has(node)) return;
        map.set(node, at);
        for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      };
      walk(this.spec, "");
      this.pointers = map;
    }
    const owner =
      err.parentSchema && typeof err.parentSchema === "object" ? this.pointers.get(err.parentSchema) : undefined;
    const relative = err.schemaPath.replace(SPEC_ID, "");
    return owner === undefined ? relative : `#${owner}/${relative.split("/").pop()}`;
  }

  /** Validates `value` against the schema at `pointer`; returns ajv's errors (empty when valid). */
  validate(pointer: string, value: unknown): ErrorObject[] {
    const fn = this.validator(pointer);
    return fn(value) ? [] : [...(fn.errors ?? [])];
  }

  /**
   * ajv's errors as one finding per broken rule: an `anyOf`/`oneOf` no branch matches is one error, not one
   * per losing branch, naming the branch closest to the value (its discriminator's, else the one whose type
   * and tags match with the fewest errors) in `params.closest`, and what it fails in `params.closestFails`.
   */
  explain(pointer: string, value: unknown): ErrorObject[] {
    const errors = this.validate(pointer, value);
    // ajv (allErrors) writes a failing combinator's branch errors just before its own, in branch order.
    for (let i = errors.length - 1; i >= 0; i--) {
      const err = errors[i]!;
      const branches = (err.parentSchema as Record<string, unknown> | undefined)?.[err.keyword];
      if ((err.keyword !== "anyOf" && err.keyword !== "oneOf") || !Array.isArray(branches)) continue;
      if (err.keyword === "oneOf" && err.params.passingSchemas) continue; // several matched: no branch errors
      const at = this.schemaPathOf(err);
      if (!at.startsWith("#/")) continue;
      const raw = branches.map((_b, n) => this.validate(`${at.slice(1)}/${n}`, err.data));
      const count = raw.reduce((sum, e) => sum + e.length, 0);
      const region = errors.slice(i - count, i);
      const same = (a: ErrorObject, b: ErrorObject) =>
        a.keyword === b.keyword && a.instancePath === err.instancePath + b.instancePath;
      if (i - count < 0 || !raw.flat().every((e, n) => same(region[n]!, e))) continue;
      const best = closestBranch(err, raw);
      const explained = this.explain(`${at.slice(1)}/${best}`, err.data);
      const shown = explained
        .slice(0, 3)
        .map((e) => `${err.instancePath + e.instancePath || "(root)"} ${e.message ?? e.keyword}`)
        .join("; ");
      const ref =
        isMapping(branches[best]) && typeof branches[best].$ref === "string" ? ` (${branches[best].$ref})` : "";
      errors.splice(i - count, count + 1, {
        ...err,
        params: {
          ...err.params,
          closest: `${at}/${best}${ref}`,
          closestFails: `${shown}${explained.length > 3 ? `; and ${explained.length - 3} more` : ""}`,
        },
      });
      i -= count;
    }
    return errors;
  }
}

/**
 * The branch of a failing `anyOf`/`oneOf` closest to its value: the one its discriminator names, else the
 * one whose type matches, then whose tags (a `const` or `enum` member) match, then with the fewest errors.
 */
function closestBranch(err: ErrorObject, branchErrors: ErrorObject[][]): number {
  const parent = err.parentSchema as Record<string, any>;
  const branches = parent[err.keyword] as unknown[];
  const property = parent.discriminator?.propertyName;
  const tag = isMapping(err.data) && typeof property === "string" ? err.data[property] : undefined;
  if (typeof tag === "string") {
    const target = isMapping(parent.discriminator.mapping) ? parent.discriminator.mapping[tag] : undefined;
    const named = branches.findIndex(
      (b) => isMapping(b) && typeof b.$ref === "string" && (b.$ref === target || b.$ref.endsWith(`/${tag}`)),
    );
    if (named >= 0) return named;
  }
  const score = (errors: ErrorObject[]) => [
    errors.some((e) => e.instancePath === "" && e.keyword === "type") ? 1 : 0,
    errors.some((e) => (e.keyword === "const" || e.keyword === "enum") && /^\/[^/]*$/.test(e.instancePath)) ? 1 : 0,
    errors.length,
  ];
  let best = 0;
  for (let n = 1; n < branchErrors.length; n++) {
    const [a, b] = [score(branchErrors[n]!), score(branchErrors[best]!)];
    const k = a.findIndex((x, j) => x !== b[j]);
    if (k >= 0 && a[k]! < b[k]!) best = n;
  }
  return best;
}
