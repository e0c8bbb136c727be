/**
 * The one way an outside string (from a document, a server's response, a baseline or a setting) reaches a
 * terminal, a text file, a JUnit file or a markdown/HTML page: {@link outsideText}. A document or a server
 * controls those strings, so they must not steer what reads them:
 * - control characters (ESC and so CSI/OSC sequences such as OSC 8 hyperlinks and window titles, BEL, CR,
 *   LF, backspace, the C1 range, DEL) and the Unicode bidi and line-separator controls are written as
 *   visible escapes (`\x1B`, `\u202E`), so a name cannot recolour, retitle or clear a terminal, fake a line
 *   of a report, or read backwards;
 * - for markdown (a CI job summary, rendered as HTML by GitHub), HTML's `<`, `>` and `&` become entities and
 *   the markdown that makes links, code spans and table cells is backslash-escaped, so `</details>`,
 *   `<img onerror=…>`, `<script>`, `[x](javascript:…)` links and `# headings` show as the text they are;
 * - inside a markdown code span the text is wrapped in enough backticks that it cannot close the span;
 * - `markdown-spans` is prose that marks names as `code spans` itself (e.g. spec:diff's change texts): each
 *   marked span is written as a code span, the rest as markdown text.
 * JSON reports need none of this: JSON.stringify escapes what JSON must.
 */

/** Where an outside string is written. */
export type OutsideTarget = "terminal" | "markdown" | "markdown-code" | "markdown-spans";

/**
 * C0 and C1 controls, DEL, the bidi embeddings, overrides, isolates and marks, and the Unicode line/paragraph
 * separators.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/**
 * Markdown punctuation that can make a link or an image (`[`, `]`), a code span, or a table cell, and the
 * backslash itself. Emphasis (`*`, `_`, `~`) is left as it is: it cannot run code or hide text, and names
 * such as `link_count` stay readable. A heading needs a line start, and outside text has no newline left.
 */
const MARKDOWN = /[\\`[\]|]/g;
// No tag can open without `<`, so quotes stay as they are (readable prose, names in quotes).
const ENTITIES: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;" };

const visible = (c: string) => {
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
};

/**
 * An outside string made safe for `target`: controls made visible; for markdown, HTML and markdown escaped;
 * for `markdown-code`, the whole code span (delimiters included). Non-strings are shown as their JSON.
 */
export function outsideText(value: unknown, target: OutsideTarget = "terminal"): string {
  const text = (
    typeof value === "string" ? value : value === undefined ? "" : (JSON.stringify(value) ?? String(value))
  ).replace(CONTROLS, visible);
  if (target === "terminal") return text;
  if (target === "markdown-spans")
    return text
      .split(/(`[^`]+`)/)
      .map((part, i) => (i % 2 === 1 ? outsideText(part.slice(1, -1), "markdown-code") : outsideText(part, "markdown")))
      .join("");
  if (target === "markdown") return text.replace(/[<>&]/g, (c) => ENTITIES[c]!).replace(MARKDOWN, (c) => `\\${c}`);
  // A code span shows its text literally (no HTML, no entities): it only must not end early. Its fence is one
  // backtick longer than the longest run inside; a table cell's `|` still needs its backslash.
  const fence = fenceFor(text, 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/** A run of backticks longer than any in `text`, and at least `min` long: it cannot be closed early by `text`. */
export function fenceFor(text: string, min: number): string {
  let longest = min - 1;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(longest + 1);
}
