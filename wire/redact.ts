/**
 * Keeping the API key out of everything the client and the contract suite print or write. A server may echo
 * the key raw, JSON-escaped (`\u002B`, `\/`), percent-encoded (`%2B`) or as an HTML entity (`&#43;`); the
 * scrubber matches the key with each character in any of those forms, in raw text (before parsing) and in
 * decoded values (after parsing). And server text made safe for a one-line message.
 */

/** The placeholder printed instead of a secret. */
export const REDACTED = "***";

/** Replaces one secret, in every encoding a server may echo it in, wherever it can reach output. */
export interface Scrubber {
  /** True when `text` may hold the secret in some encoding (a cheap test first). */
  mayContain(text: string): boolean;
  /** `text` with every occurrence of the secret, in any encoding, replaced by `***`. */
  text(text: string): string;
  /** Scrubs every string (values and member names) of a parsed JSON value, in place; returns it. */
  value<T>(value: T): T;
}

const hexClass = (digit: string) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").split("").map(hexClass).join("");
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
/** JSON's two-character escapes, as they appear in JSON text. */
const JSON_SHORT: Record<string, string> = {
  "/": "\\/",
  "\\": "\\\\",
  '"': '\\"',
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** The alternatives one character may appear as. */
function charForms(ch: string): string {
  const code = ch.codePointAt(0)!;
  const forms = [escapeRegExp(ch)];
  if (code <= 0xffff) forms.push(`\\\\[uU]${hex(code, 4)}`);
  if (JSON_SHORT[ch]) forms.push(escapeRegExp(JSON_SHORT[ch]!));
  const bytes = [...new TextEncoder().encode(ch)];
  forms.push(bytes.map((b) => `%${hex(b, 2)}`).join(""));
  forms.push(`&#0*${code};`, `&#[xX]0*${hex(code, 1)};`);
  if (ch === " ") forms.push("\\+");
  return `(?:${forms.join("|")})`;
}

/** A secret's pattern of every form it may be written in (global: it replaces every occurrence). */
export const patternOf = (secret: string): RegExp => new RegExp([...secret].map(charForms).join(""), "g");

/** The scrubber that holds no secret. */
export const NO_SCRUBBER: Scrubber = { mayContain: () => false, text: (t) => t, value: (v) => v };

/**
 * Builds the scrubber of `secret` (an empty secret scrubs nothing). Short secrets are scrubbed too. One secret, the
 * client's key: the contract suite's scrubber of many secrets (the tokens a run learns) is
 * contract-tests/transport/scrubber.ts, built on the same forms.
 */
export function createScrubber(secret: string | undefined): Scrubber {
  if (!secret) return NO_SCRUBBER;
  const all = patternOf(secret);
  const find = new RegExp(all.source);
  // Encoded forms need one of these markers in the text; without any, only the plain secret can be there.
  const markers = ["\\", "%", "&#", ...(secret.includes(" ") ? ["+"] : [])];
  const mayContain = (t: string) => t.includes(secret) || (markers.some((m) => t.includes(m)) && find.test(t));
  const text = (t: string) => (mayContain(t) ? t.replace(all, REDACTED) : t);
  return { mayContain, text, value: (v) => scrubValue(v, text) };
}

/**
 * Scrubs every string (values and member names) of a parsed JSON value with `text`, in place; returns it.
 * Iterative: a hostile body may nest deeper than the call stack allows.
 */
export function scrubValue<T>(root: T, text: (t: string) => string): T {
  if (typeof root === "string") return text(root) as T;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (typeof item === "string") node[i] = text(item);
        else stack.push(item);
      });
      continue;
    }
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const item = obj[key];
      const safeKey = text(key);
      if (safeKey !== key) {
        delete obj[key];
        obj[safeKey] = item;
      }
      if (typeof item === "string") obj[safeKey] = text(item);
      else stack.push(item);
    }
  }
  return root;
}

/** A copy of `headers` with the key scrubbed from every value (a repeated header keeps each of its values). */
export function scrubbedHeaders(headers: Headers, scrubber: Scrubber): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    out.append(name, scrubber.text(value));
  });
  return out;
}

/**
 * Text from a server made safe for a one-line message: control characters escaped (no log injection) and
 * cut to `maxChars`, saying how much was left out.
 */
export function boundedText(text: string, maxChars = 200): string {
  const cut = text.length > maxChars ? text.slice(0, maxChars) : text;
  // eslint-disable-next-line no-control-regex
  const escaped = cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === "\n"
      ? "\\n"
      : c === "\t"
        ? "\\t"
        : c === "\r"
          ? "\\r"
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return text.length > maxChars ? `${escaped}… (${text.length - maxChars} more chars)` : escaped;
}
