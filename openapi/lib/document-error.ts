/** The leaf of openapi/lib: the error a document that cannot be read raises, and JSON pointers. */

/** A file that is not an OpenAPI document this project can read; the message names the file and the rule. */
export class DocumentError extends Error {
  override name = "DocumentError";
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The JSON pointer a local `$ref` (`#/paths/~1%7Bid%7D`) names: a URI fragment is percent-decoded before it
 * is read as a pointer (RFC 6901, section 6). A fragment that is not valid percent-encoding is kept as written.
 */
export function refPointer(ref: string): string {
  const fragment = ref.replace(/^#/, "");
  if (!fragment.includes("%")) return fragment;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * Resolves a JSON pointer (`/a/b`, or a `$ref` fragment `#/a/b`, percent-decoded) inside a value; undefined when
 * absent.
 */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === "" || pointer === "#") return root;
  // On the hot path of every check (schemas are found by pointer): no array of decoded parts is built.
  const parts = (pointer.startsWith("#") ? refPointer(pointer) : pointer).split("/");
  let cur: any = root;
  for (let i = 1; i < parts.length; i++) {
    const raw = parts[i]!;
    const part = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    if (cur === null || typeof cur !== "object" || !(part in cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}
