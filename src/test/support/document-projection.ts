/**
 * Builds the JSON projection of the document's component schemas that `src/document-schemas.ts` embeds:
 * the YAML's `components.schemas` with annotations (description, examples, x-*) removed. The drift test
 * compares the two; `UPDATE_DOCUMENT_SCHEMAS=1 npx vitest run src/test/validation.test.ts`
 * rewrites the file.
 */
import { loadSpec } from "../../../openapi/lib/spec.js";

const ANNOTATIONS = new Set(["description", "examples", "example", "summary", "title", "$comment", "deprecated"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);
const SCHEMA_LISTS = new Set(["oneOf", "anyOf", "allOf", "prefixItems"]);
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "not", "contains", "unevaluatedProperties", "propertyNames"]);

/** Strips annotations from one schema, recursing only where sub-schemas live. */
export function stripSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripSchema(v)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(stripSchema);
    else if (SCHEMA_VALUES.has(key)) out[key] = stripSchema(value);
    else out[key] = value;
  }
  return out;
}

/** The projection of the YAML's component schemas. */
export function projectComponentSchemas(): Record<string, unknown> {
  const spec = loadSpec();
  return Object.fromEntries(Object.entries(spec.components.schemas as Record<string, unknown>).map(([k, v]) => [k, stripSchema(v)]));
}

/** The source text of `src/document-schemas.ts` for the current YAML. */
export function renderDocumentSchemasModule(): string {
  return `/**
 * DO NOT EDIT. The validation-relevant part of openapi/openapi.yaml's component schemas, embedded so the
 * shipped client never reads YAML. Checked against the YAML by src/test/validation.test.ts; rewrite
 * with \`UPDATE_DOCUMENT_SCHEMAS=1 npx vitest run src/test/validation.test.ts\`.
 */

/** The document's component schemas without annotations, keyed by name. */
export const DOCUMENT_SCHEMAS: Record<string, unknown> = ${JSON.stringify(projectComponentSchemas(), null, 2)};
`;
}
