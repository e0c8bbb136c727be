/** The leaf of openapi/lib: the error a document that cannot be read raises, and JSON pointer segments. */

/** A file that is not an OpenAPI document this project can read; the message names the file and the rule. */
export class DocumentError extends Error {
  override name = "DocumentError";
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
