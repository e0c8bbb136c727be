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

/**
 * `t` with every encoding a server may echo a secret in undone (JSON escapes, percent-encoding, HTML character
 * references, `+` for a space): a cheap first look for a secret, whose pattern then replaces it in `t` itself.
 */
function decodedForms(t: string): string {
  return t
    .replace(/\\[uU]([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\(["\\/bfnrt])/g, (_m, c: string) => ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" })[c] ?? c)
    .replace(/&#([xX]?)0*([0-9a-fA-F]+);/g, (_m, x: string, n: string) =>
      String.fromCodePoint(Math.min(Number.parseInt(n, x ? 16 : 10), 0x10ffff)),
    )
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m.replace(/%([0-9a-fA-F]{2})/g, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      }
    });
}

/** A secret's pattern of every form it may be written in. */
const patternOf = (secret: string): RegExp => new RegExp([...secret].map(charForms).join(""), "g");

/** Builds the scrubber of `secret` (an empty secret scrubs nothing). Short secrets are scrubbed too. */
export function createScrubber(secret: string | undefined): Scrubber {
  return createScrubberOf(secret ? [secret] : []);
}

/**
 * Builds one scrubber of several secrets (`patterns`: a cache of their patterns, for a caller that builds it again
 * as it learns more): one pattern for all of them (a text is scanned once, however many secrets
 * a run holds), longer secrets first so one holding another is replaced whole.
 */
export function createScrubberOf(secrets: readonly string[], patterns = new Map<string, RegExp>()): Scrubber {
  const kept = [...new Set(secrets.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return { mayContain: () => false, text: (t) => t, value: (v) => v };
  // A secret's pattern of every encoded form is built when a text first holds it (a run adds a secret per token it
  // gets, and most are never echoed).
  const pattern = (secret: string) => {
    const known = patterns.get(secret);
    if (known) return known;
    const built = patternOf(secret);
    patterns.set(secret, built);
    return built;
  };
  const wanted = kept.map((secret) => ({ secret, all: () => pattern(secret) }));
  // Encoded forms need one of these markers in the text; without any, only a plain secret can be there. With one,
  // the text decoded once says which secrets may be there: only theirs (slow) patterns run.
  const markers = ["\\", "%", "&#", ...(kept.some((s) => s.includes(" ")) ? ["+"] : [])];
  const present = (t: string) => {
    const decoded = markers.some((m) => t.includes(m)) ? decodedForms(t) : t;
    // A form writes a space as `+`: a secret with a space is looked for that way too.
    const spaced = decoded.includes("+") ? decoded.replace(/\+/g, " ") : decoded;
    return wanted.filter((p) => t.includes(p.secret) || decoded.includes(p.secret) || spaced.includes(p.secret));
  };
  const mayContain = (t: string) => present(t).length > 0;
  const text = (t: string) => {
    let out = t;
    for (const p of present(t)) out = out.replace(p.all(), REDACTED);
    return out;
  };
  const value = <T>(root: T): T => {
    if (typeof root === "string") return text(root) as T;
    // Iterative: a hostile body may nest deeper than the call stack allows.
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
  };
  return { mayContain, text, value };
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
