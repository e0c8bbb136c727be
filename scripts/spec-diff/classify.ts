/**
 * The thin layer over api-smart-diff: it runs the library's OpenAPI comparison and maps each diff to
 * one of three classes (breaking, non-breaking, annotation). The library's own classification is kept
 * except where a rule below says otherwise; each such case carries its reason into the report.
 */
import { apiCompare, type Diff } from "api-smart-diff";
import { toPointer, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { schemasUsedByOperations } from "./refs.js";

/** The three classes of the report. */
export type ChangeClass = "breaking" | "non-breaking" | "annotation";

/** One classified change. */
export interface Change {
  cls: ChangeClass;
  action: Diff["action"];
  /** JSON pointer of the change; under /paths it runs through resolved $refs. */
  pointer: string;
  /** `METHOD /path (operationId)` when the change lies inside an operation. */
  operation?: string;
  /** api-smart-diff's human-readable text, without its `[Action]` prefix. */
  text: string;
  before?: unknown;
  after?: unknown;
  /** The library's classification and any remapping applied to it. */
  reason: string;
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const ANNOTATION_KEYS = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "links"]);
const VERBS: Record<Diff["action"], string> = { add: "Added", remove: "Removed", replace: "Replaced", rename: "Renamed" };

function isAnnotationPath(path: ReadonlyArray<string | number>): boolean {
  if (path[0] === "tags") return true;
  return path.some((seg, i) => typeof seg === "string" && path[i - 1] !== "properties" && (seg.startsWith("x-") || ANNOTATION_KEYS.has(seg)));
}

/** "request" or "response" for a diff inside an operation, else undefined. */
function side(path: ReadonlyArray<string | number>): "request" | "response" | undefined {
  if (path[0] !== "paths") return undefined;
  if (path.includes("responses")) return "response";
  return path.includes("requestBody") || path.includes("parameters") ? "request" : undefined;
}

const typeSet = (t: unknown): string[] => (Array.isArray(t) ? t : [t]).map(String);
/** Whether every value of type set `a` is also a value of type set `b` (integer lies in number). */
const within = (a: string[], b: string[]) => a.every((t) => b.includes(t) || (t === "integer" && b.includes("number")));

/**
 * api-smart-diff rates every replaced `type` by direction alone (breaking in requests, non-breaking in
 * responses). Judged on the type sets instead: a request may widen, a response may narrow.
 */
function typeReplacement(diff: Diff): { cls: ChangeClass; why: string } | undefined {
  const { path } = diff;
  const last = path.length - 1;
  const dir = side(path);
  if (diff.action !== "replace" || !dir) return undefined;
  if (path[last - 1] === "type" && typeof path[last] === "number" && path[last - 2] !== "properties") {
    return { cls: "breaking", why: "one member of the type set replaced by another: neither wider nor narrower" };
  }
  if (path[last] !== "type" || path[last - 1] === "properties") return undefined;
  const [before, after] = [typeSet(diff.before), typeSet(diff.after)];
  const safe = dir === "request" ? within(before, after) : within(after, before);
  const how = within(before, after) ? "widened" : within(after, before) ? "narrowed" : "changed";
  return { cls: safe ? "non-breaking" : "breaking", why: `${dir} type ${how}` };
}

function classify(diff: Diff, baseMissing: boolean): { cls: ChangeClass; reason: string } {
  const lib = `api-smart-diff: ${diff.type}`;
  const typeRule = typeReplacement(diff);
  if (typeRule) {
    const same = typeRule.cls === diff.type;
    return { cls: typeRule.cls, reason: same ? `${lib} (${typeRule.why})` : `${lib}; reclassified ${typeRule.cls}: ${typeRule.why}` };
  }
  if (diff.type === "unclassified") {
    return isAnnotationPath(diff.path)
      ? { cls: "annotation", reason: `${lib}; annotation (description, example, link or x- extension)` }
      : { cls: "breaking", reason: `${lib}; treated as breaking so that a person decides` };
  }
  if (diff.type === "deprecated") return { cls: "non-breaking", reason: `${lib} (a deprecation)` };
  if (diff.type === "breaking" && baseMissing) return { cls: "non-breaking", reason: `${lib}; no base document, so nothing to break` };
  return { cls: diff.type, reason: lib };
}

/**
 * api-smart-diff words every added or removed parameter that has a `required` key as "required", even
 * `required: false`; keep the word only for a parameter that is required.
 */
function describe(diff: Diff, pointer: string): string {
  const text = diff.description ? diff.description.replace(/^\[(\w+)\] /, "$1 ") : `${VERBS[diff.action]} ${pointer}`;
  const param = (diff.action === "add" ? diff.after : diff.before) as { required?: unknown } | undefined;
  const isParam = diff.path[diff.path.length - 2] === "parameters" && typeof diff.path[diff.path.length - 1] === "number";
  return isParam && param?.required !== true ? text.replace(/\brequired (\w+ parameter)/, "$1") : text;
}

function operationOf(path: ReadonlyArray<string | number>, docs: OpenApiDocument[]): string | undefined {
  const [root, route, method] = path;
  if (root !== "paths" || typeof route !== "string" || typeof method !== "string" || !METHODS.has(method)) return undefined;
  const id = docs.map((d) => d.paths?.[route]?.[method]?.operationId).find((x) => typeof x === "string");
  return `${method.toUpperCase()} ${route}${id ? ` (${id})` : ""}`;
}

/** Compares two documents (base null: an empty one) and returns every change, classified. */
export function classifyChanges(base: OpenApiDocument | null, head: OpenApiDocument): Change[] {
  const before = base ?? { openapi: head.openapi, info: {}, paths: {} };
  const pristine = [structuredClone(head), structuredClone(before)];
  const used = new Set([...schemasUsedByOperations(pristine[0]!), ...schemasUsedByOperations(pristine[1]!)]);
  // apiCompare mutates both documents (it caches resolved references in them): give it copies.
  const { diffs } = apiCompare(structuredClone(before), structuredClone(head));
  return diffs
    .filter((d) => !(d.path[0] === "components" && d.path[1] === "schemas" && used.has(String(d.path[2]))))
    .map((d) => {
      const pointer = toPointer(d.path);
      const text = describe(d, pointer);
      const operation = operationOf(d.path, pristine);
      return { ...classify(d, base === null), action: d.action, pointer, text, before: d.before, after: d.after, ...(operation ? { operation } : {}) };
    });
}
