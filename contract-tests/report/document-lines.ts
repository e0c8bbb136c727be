/**
 * Where a promise is written: the line and column of a JSON pointer in the document's own text (YAML or JSON,
 * read with the `yaml` package's LineCounter), for reports that point into the file (SARIF).
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";

/** A place in the document's text, 1-based. */
interface TextPlace {
  line: number;
  column: number;
}

/** The segments of a JSON pointer (`/a/b~1c` or `#/a/b~1c`), unescaped; undefined when it is not one. */
function segmentsOf(pointer: string): string[] | undefined {
  const bare = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (bare !== "" && !bare.startsWith("/")) return undefined;
  let decoded = bare;
  try {
    decoded = decodeURIComponent(bare);
  } catch {}
  return decoded === ""
    ? []
    : decoded
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The pointer a promise starts with (`#/paths/...`), or undefined for a statement of the interface. */
export function promisePointer(promise: string | undefined): string | undefined {
  const m = promise?.match(/^#(\/\S*)?/);
  return m ? (m[1] ?? "") : undefined;
}

/** Reads a document's text once and answers where each pointer is written. */
export class DocumentLines {
  readonly #lines = new LineCounter();
  readonly #root: Node | null;

  constructor(text: string) {
    const doc = parseDocument(text, { lineCounter: this.#lines, uniqueKeys: false, strict: false });
    this.#root = (doc.contents as Node | null) ?? null;
  }

  /**
   * The place of the member the pointer names (its key), following local `$ref`s where the pointer goes through
   * one; where the text has no such member (a pointer into the document as the suite upgraded it), the deepest
   * member it has. Undefined for a pointer that is not one or a text that is not a document.
   */
  placeOf(pointer: string): TextPlace | undefined {
    const segments = segmentsOf(pointer);
    if (!segments || !this.#root) return undefined;
    let node: Node | null = this.#root;
    let at: number | undefined = this.#root.range?.[0];
    for (let i = 0, hops = 0; i < segments.length && node; i++) {
      const step = this.#child(node, segments[i]!);
      if (step) {
        node = step.node;
        at = step.at ?? at;
        continue;
      }
      const ref: Node | null | undefined = this.#child(node, "$ref")?.node;
      const target: string[] | undefined =
        isScalar(ref) && typeof ref.value === "string" ? segmentsOf(ref.value) : undefined;
      if (!target || hops++ > 20) break;
      node = this.#root;
      for (const s of target as string[]) node = node ? (this.#child(node, s)?.node ?? null) : null;
      i--;
    }
    if (at === undefined) return undefined;
    const { line, col } = this.#lines.linePos(at);
    return { line, column: col };
  }

  /** The member `key` of a mapping (where its key is written) or item `key` of a sequence. */
  #child(node: Node, key: string): { node: Node | null; at?: number } | undefined {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key;
        const name = isScalar(k) ? String(k.value) : undefined;
        if (name === key) return { node: (pair.value as Node | null) ?? null, at: (k as Node).range?.[0] };
      }
      return undefined;
    }
    if (isSeq(node) && /^(0|[1-9]\d*)$/.test(key)) {
      const item = node.items[Number(key)] as Node | undefined;
      return item ? { node: item, at: item.range?.[0] } : undefined;
    }
    return undefined;
  }
}
