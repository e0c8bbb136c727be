/**
 * The two readings of one document that `readOnly` and `writeOnly` call for (OpenAPI 3.x): in a request, a
 * `readOnly` property is not sent, so it is neither generated nor required; in a response, a `writeOnly`
 * property is not returned, so it is not required. Schemas shared by requests and responses (an `id` that
 * is `readOnly` and required) then hold each side to what it really promises.
 */
import { derefSchema, forEachNode, isMapping, type OpenApiDocument } from "./spec.js";

/** Which side of the exchange a view is for. */
export type Direction = "request" | "response";

/**
 * A copy of `doc` for `direction`: for requests, `readOnly` properties are removed (and so no longer required);
 * for responses, `writeOnly` properties stay listed but are no longer required. A document without either
 * keyword comes back unchanged (the same object).
 */
export function documentView(doc: OpenApiDocument, direction: Direction): OpenApiDocument {
  const flag = direction === "request" ? "readOnly" : "writeOnly";
  if (!JSON.stringify(doc).includes(`"${flag}":true`)) return doc;
  const copy = structuredClone(doc);
  forEachNode(copy, (node) => {
    if (!isMapping(node.properties)) return;
    const properties = node.properties;
    // Decided on the original document: a property that is a $ref to a readOnly schema counts too.
    const marked = Object.keys(properties).filter((name) => derefSchema(doc, properties[name]).schema?.[flag] === true);
    if (marked.length === 0) return;
    if (Array.isArray(node.required)) node.required = node.required.filter((r: unknown) => !marked.includes(String(r)));
    if (direction === "request") for (const name of marked) delete properties[name];
  });
  return copy;
}
