/**
 * A document is untrusted input (a colleague's, a fork's pull request, a staging host's), and every tool
 * that reads it resolves `$ref`s wherever they are: Prism and Redocly follow a `$ref` inside an `x-`
 * extension, an Example Object or an example value too, fetching a URL (SSRF) or reading a local file
 * (`/etc/passwd`, `../.npmrc`) and serving or publishing what they got. So before any tool sees a document
 * (the suite, the Prism mock, the docs build, the generator, the linters), it is checked here, once, whole:
 * every `$ref` anywhere must be local (`#...`). Anything else is refused with the place named; the
 * document is bundled into one file first (e.g. `npx redocly bundle`, on a document one trusts).
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { DocumentError, pointerSegment, refPointer, resolvePointer } from "./document-error.js";

/**
 * The places of non-local `$ref`s in a parsed document, anywhere (extensions and examples included); at most `limit`.
 */
function externalRefs(doc: unknown, limit = 10): Array<{ at: string; ref: unknown }> {
  const found: Array<{ at: string; ref: unknown }> = [];
  // Iterative: a 100,000-deep document cannot overflow the stack. Shared nodes (YAML aliases) are visited once.
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[doc, ""]];
  while (stack.length > 0 && found.length < limit) {
    const [node, at] = stack.pop()!;
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`]);
      continue;
    }
    const ref = (node as Record<string, unknown>).$ref;
    if (Object.hasOwn(node, "$ref") && !(typeof ref === "string" && ref.startsWith("#")))
      found.push({ at: at || "/", ref });
    const entries = Object.entries(node as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--)
      stack.push([entries[i]![1], `${at}/${pointerSegment(entries[i]![0])}`]);
  }
  return found;
}

/**
 * The deepest a document may nest, counting each level of its objects and arrays and each `$ref` followed
 * (public documents nest at most some 35 levels): every reader of a document (the YAML parser, structuredClone,
 * the 3.0 upgrade, ajv, the value generator, Prism) recurses per level, and a deeper one would exhaust its stack.
 */
const MAX_DOCUMENT_DEPTH = 256;

/** A pointer as shown in a message: at most 240 characters, its middle elided. */
const shownPointer = (at: string) => (at.length > 240 ? `${at.slice(0, 120)}...${at.slice(-120)}` : at || "/");

/**
 * Where `doc` nests deeper than `bound` levels (each object or array one level, each local `$ref` one more, a
 * `$ref` back into its own path not followed), or undefined. Iterative, each node measured once.
 */
function depthExceeded(doc: unknown, bound = MAX_DOCUMENT_DEPTH): string | undefined {
  if (doc === null || typeof doc !== "object") return undefined;
  // How many levels each node measured so far holds (itself included); the nodes of the current path.
  const height = new Map<object, number>();
  const onPath = new Set<object>();
  // A frame: its node, its keys (a followed $ref last, as null), the next to enter, its deepest child, how it was entered.
  type Frame = { node: object; keys: Array<string | null>; next: number; deepest: number; via: string | null };
  const frame = (node: object, via: string | null): Frame => {
    const keys: Array<string | null> = Object.keys(node);
    const ref = Array.isArray(node) ? undefined : (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && ref.startsWith("#")) keys.push(null);
    onPath.add(node);
    return { node, keys, next: 0, deepest: 0, via };
  };
  // The pointer of the path `stack` then `last`: each step is a member, or a $ref followed (restarting at its target).
  const pointer = (path: Frame[], last: string | null) => {
    let at = "";
    path.forEach((parent, i) => {
      const via = i + 1 < path.length ? path[i + 1]!.via : last;
      at = via === null ? refPointer((parent.node as Record<string, string>).$ref!) : `${at}/${pointerSegment(via)}`;
    });
    return at;
  };
  const stack: Frame[] = [frame(doc, null)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.keys.length) {
      const key = top.keys[top.next++]!;
      const child =
        key === null
          ? resolvePointer(doc, (top.node as Record<string, string>).$ref!)
          : (top.node as Record<string, unknown>)[key];
      if (child === null || typeof child !== "object" || onPath.has(child)) continue;
      const measured = height.get(child) ?? 1;
      if (stack.length + measured > bound) return shownPointer(pointer(stack, key));
      if (height.has(child)) top.deepest = Math.max(top.deepest, measured);
      else stack.push(frame(child, key));
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    height.set(top.node, top.deepest + 1);
    const parent = stack[stack.length - 1];
    if (parent) parent.deepest = Math.max(parent.deepest, top.deepest + 1);
  }
  return undefined;
}

const TOO_DEEP = `nests deeper than ${MAX_DOCUMENT_DEPTH} levels (each object, array and $ref followed is one), which the tools that read it cannot follow`;

/** Throws {@link DocumentError} naming the first non-local `$ref` of `doc` (`label` names the file). */
export function assertSelfContained(doc: unknown, label: string): void {
  const [first] = externalRefs(doc, 1);
  if (!first) return;
  const shown =
    typeof first.ref === "string"
      ? JSON.stringify(first.ref.slice(0, 200))
      : `a ${first.ref === null ? "null" : typeof first.ref}`;
  throw new DocumentError(
    `${label}: the $ref ${shown} at ${first.at} points outside the document; bundle it into one file first ` +
      `(e.g. npx redocly bundle): every $ref, wherever it is (extensions and examples included), must be local ` +
      `(#/...), since the tools that read the document would fetch the URL or read the file`,
  );
}

/**
 * Why a file could not be parsed, without quoting it (a file named by mistake may be a secret: an `.npmrc`,
 * `/proc/self/environ`): the parser's error code and the line and column, never its message or excerpt.
 */
function parseErrorPlace(err: unknown): string {
  const e = err as { code?: unknown; linePos?: Array<{ line: number; col: number }> };
  const code = typeof e?.code === "string" ? e.code : "a syntax error";
  const pos = e?.linePos?.[0];
  return pos ? `${code} at line ${pos.line}, column ${pos.col}` : code;
}

/**
 * A document's text parsed: a JSON text with JSON.parse (the yaml parser takes some 15 s per MB of JSON,
 * and public documents are often megabytes of JSON), anything else as YAML. Throws the parser's error, or a
 * {@link DocumentError} naming `label` for a document nested deeper than {@link MAX_DOCUMENT_DEPTH}.
 */
export function parseDocumentText(text: string, label = "the document"): unknown {
  let doc: unknown;
  let json = false;
  if (/^\s*[{[]/.test(text)) {
    try {
      doc = JSON.parse(text);
      json = true;
    } catch {
      // Not JSON after all (YAML flow style): the YAML parser decides.
    }
  }
  if (!json) {
    try {
      doc = parse(text);
    } catch (err) {
      // The YAML parser recurses per level: a document nested some 800 levels deep exhausts its stack first.
      if ((err as { code?: unknown }).code === "RESOURCE_EXHAUSTION" && /call stack/i.test(String(err)))
        throw new DocumentError(
          `${label} ${TOO_DEEP}: the YAML parser ran out of stack at ${parseErrorPlace(err).replace(/^\S+ at /, "")}`,
        );
      throw err;
    }
  }
  // Bounded once, here, before any reader (a clone, the upgrade, ajv, Prism) recurses through it.
  const at = depthExceeded(doc);
  if (at !== undefined) throw new DocumentError(`${label} ${TOO_DEEP}: the bound is crossed at ${at}`);
  return doc;
}

/**
 * A JSON file parsed (a baseline, a report, a config file, a shard record). A file that is not JSON is
 * `fail`ed with the position only: the parser's own message quotes the file, which may be a secret named by
 * mistake (`/proc/self/environ`, an `.npmrc`). `what` names the file in the message.
 */
export function readJsonFile(path: string, what: string, fail: (message: string) => Error): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message)?.[1];
    throw fail(`${what} is not valid JSON${at ? ` (at character ${at})` : ""}; its content is not shown`);
  }
}

/** The last document file parsed (its path and text), so the tools of one run parse a file once. */
let lastRead: { path: string; text: string; doc: unknown } | undefined;

/**
 * A document file parsed as {@link parseDocumentText} does, as it is written. A run reads its document
 * several times (the suite's model, the written form, the check before Prism starts): the last file read is
 * kept, and its text compared, so it is parsed once. The result is shared: a caller that changes it clones it.
 * Throws {@link DocumentError} naming the file and the place; its content is never quoted (a file named by
 * mistake may be a secret).
 */
export function readDocumentFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
    if (lastRead?.path === path && lastRead.text === text) return lastRead.doc;
  } catch (err) {
    throw new DocumentError(`${path} cannot be read as YAML or JSON (${parseErrorPlace(err)})`);
  }
  let doc: unknown;
  try {
    doc = parseDocumentText(text, path);
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError(`${path} cannot be read as YAML or JSON (${parseErrorPlace(err)})`);
  }
  lastRead = { path, text, doc };
  return doc;
}

/**
 * Reads a document file and checks it is self-contained, before it is handed to a tool that reads it itself
 * (Prism, Redocly). Throws {@link DocumentError} naming the file and the rule; its content is never quoted.
 */
export function assertSelfContainedFile(path: string): void {
  assertSelfContained(readDocumentFile(path), path);
}
