/**
 * Documents of a chosen size cut from a real one: the first N operations (document order) with every
 * component they reach through `$ref`s, transitively, and nothing else (a cut of GitHub's description keeps
 * what a real API of that size would have). Used by the corpus benchmark and to trim corpus documents.
 */
import { HTTP_METHODS } from "../../openapi/lib/operations.js";
import { isMapping, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { refPointer } from "../../openapi/lib/document-error.js";
import { pointerSegment } from "../../openapi/lib/document-error.js";

/** How many operations `doc` has. */
export function countOperations(doc: OpenApiDocument): number {
  let n = 0;
  for (const item of Object.values(isMapping(doc.paths) ? doc.paths : {}))
    for (const m of HTTP_METHODS) if (isMapping(item) && isMapping(item[m])) n++;
  return n;
}

/** Every local `$ref` reachable from `start` (through the places they point at), as pointers. */
function reachable(doc: OpenApiDocument, start: unknown): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isMapping(node)) {
      if (typeof node.$ref === "string" && node.$ref.startsWith("#")) {
        const pointer = refPointer(node.$ref);
        if (!seen.has(pointer)) {
          seen.add(pointer);
          stack.push(resolvePointer(doc, pointer));
        }
      }
      for (const v of Object.values(node)) stack.push(v);
    }
  }
  return seen;
}

/**
 * A copy of `doc` with its first `n` operations and the components they reach (Swagger 2.0 `definitions`,
 * `parameters` and `responses` too); security schemes and top-level fields are kept whole.
 */
export function firstOperations(doc: OpenApiDocument, n: number): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  let left = n;
  for (const [path, item] of Object.entries(isMapping(doc.paths) ? doc.paths : {})) {
    if (left <= 0 || !isMapping(item)) break;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) {
      if ((HTTP_METHODS as readonly string[]).includes(key)) {
        if (left <= 0) continue;
        left--;
      }
      kept[key] = value;
    }
    paths[path] = kept;
  }
  const out: OpenApiDocument = { ...doc, paths };
  delete out.webhooks;
  delete out["x-webhooks"];
  const refs = reachable(doc, paths);
  // The named entries the references point into: `/components/schemas/User/properties/id` keeps `User`.
  const named = new Set(
    [...refs].map((r) =>
      r
        .split("/")
        .slice(0, r.startsWith("/components/") ? 4 : 3)
        .join("/"),
    ),
  );
  const keep = (section: unknown, prefix: string) =>
    isMapping(section)
      ? Object.fromEntries(Object.entries(section).filter(([name]) => named.has(`${prefix}/${pointerSegment(name)}`)))
      : section;
  if (isMapping(doc.components)) {
    const components: Record<string, unknown> = {};
    for (const [kind, section] of Object.entries(doc.components))
      components[kind] = kind === "securitySchemes" ? section : keep(section, `/components/${kind}`);
    out.components = components;
  }
  for (const kind of ["definitions", "parameters", "responses"])
    if (isMapping(doc[kind])) out[kind] = keep(doc[kind], `/${kind}`);
  return out;
}
