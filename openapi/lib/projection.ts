/**
 * The validation-relevant projection of a document's component schemas: annotations (description,
 * examples, `x-*`, ...) removed, structure kept. What the client embeds (generated/schemas.ts) to validate
 * responses without reading YAML.
 */
import type { OpenApiDocument } from "./spec.js";

const ANNOTATIONS = new Set(["description", "examples", "example", "summary", "title", "$comment", "deprecated"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["oneOf", "anyOf", "allOf", "prefixItems"]);
const SCHEMA_VALUES = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "unevaluatedProperties",
  "propertyNames",
  "if",
  "then",
  "else",
]);

/** Strips annotations from one schema, recursing only where sub-schemas live. */
function stripSchema(schema: unknown): unknown {
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

/** The projection of every component schema of `doc`, keyed by name. */
export function projectComponentSchemas(doc: OpenApiDocument): Record<string, unknown> {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, stripSchema(v)]));
}
