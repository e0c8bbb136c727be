/**
 * Which component schemas the operations of a document use, through any chain of local `$ref`s. A
 * change to such a schema also shows up inside each operation that uses it, where the comparison knows
 * whether it is request or response; the context-free copy under /components/schemas is then redundant.
 */
import { resolvePointer, type OpenApiDocument } from "../../openapi/lib/spec.js";

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)/;

/** Names of the component schemas reachable from `paths` and `webhooks`. */
export function schemasUsedByOperations(doc: OpenApiDocument): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== "$ref" || typeof value !== "string") {
        visit(value);
        continue;
      }
      if (!value.startsWith("#/") || seen.has(value)) continue;
      seen.add(value);
      const name = SCHEMA_REF.exec(value)?.[1];
      if (name) names.add(name.replace(/~1/g, "/").replace(/~0/g, "~"));
      visit(resolvePointer(doc, value.slice(1)));
    }
  };
  visit(doc.paths);
  visit(doc.webhooks);
  return names;
}
