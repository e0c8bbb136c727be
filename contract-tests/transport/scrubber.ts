/**
 * The contract suite's scrubber of many secrets: the keys of its settings and every token, password and form of
 * them a run learns (contract-tests/transport/credentials.ts). Each secret in every form a server may echo it in
 * (wire/redact.ts's forms, the client's too); a text is decoded once and only the patterns of the secrets found in
 * it run, so a run that holds many secrets scans a text once. The client holds one key: wire/redact.ts's
 * createScrubber, which this file leaves out of the client's bundle.
 */
import { NO_SCRUBBER, patternOf, REDACTED, scrubValue, type Scrubber } from "../../wire/redact.js";

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

/**
 * Builds one scrubber of several secrets (`patterns`: a cache of their patterns, for a caller that builds it again
 * as it learns more): one pattern for all of them (a text is scanned once, however many secrets
 * a run holds), longer secrets first so one holding another is replaced whole.
 */
export function createScrubberOf(secrets: readonly string[], patterns = new Map<string, RegExp>()): Scrubber {
  const kept = [...new Set(secrets.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return NO_SCRUBBER;
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
  return { mayContain, text, value: (v) => scrubValue(v, text) };
}
