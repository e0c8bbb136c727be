/**
 * What makes two findings one failure: their operation, check and kind (rule), their place (an instance path,
 * indices folded), the input that caused them and the answer's signature (its status, media type and the
 * server's own words with what varies between occurrences masked). Computed here and nowhere else: per scenario
 * (`distinct`), across a run (the report's merge) and for the baseline.
 */
import { isMapping } from "../../openapi/lib/spec.js";
import type { Exchange, Finding, ReceivedResponse } from "./types.js";

/** Most distinct findings one scenario keeps (the first ones): a hostile server cannot flood the report. */
const MAX_FINDINGS = 200;
/** The longest server's words shown in a finding's Received. */
const MAX_WORDS = 200;
/** The longest server's answer a finding carries (`Finding.answer`, in the JSON report). */
const MAX_ANSWER = 8192;
/** The most string values of a request read to tell an echoed value from a name. */
const MAX_SENT_VALUES = 1000;

/** A name in quotes ('username'): kept, unlike a quoted value. At most a two-digit suffix (`address2`, `v1`). */
const QUOTED_NAME = /^[A-Za-z_$][A-Za-z_$.-]{0,62}\d{0,2}$/;
/** Quoted prose (a message inside a JSON text): kept too. */
const QUOTED_PROSE = /^[A-Za-z][A-Za-z,;:'-]*(?: [A-Za-z,;:'-]+){2,}[.!]?$/;
/** A quoted text not part of a word (the apostrophe of "can't" opens no quote): straight quotes, backticks, curly ones. */
const QUOTED = /(?<!\w)(?:(['"`])([^\n]{0,200}?)\1|‘([^\u2019\n]{0,200})\u2019|“([^\u201d\n]{0,200})\u201d)(?!\w)/g;
/** What varies between two occurrences of one failure, most specific first; quoted values are handled apart. */
const NOISE: Array<[source: string, mask: string]> = [
  ["\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b", "<uuid>"],
  ["\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?\\b", "<time>"],
  // Prefixed ids (brq_01HX9..., dsc_4f2a): the part after the prefix carries a digit.
  ["\\b[A-Za-z][A-Za-z0-9]{1,11}_(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{4,}\\b", "<id>"],
  ["\\b(?=[\\w-]*\\d)(?=[\\w-]*[A-Za-z])[\\w-]{16,}\\b", "<token>"],
  ["\\b(?:0x)?(?=[0-9a-fA-F]*\\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\\b", "<hex>"],
  ["(?<![\\w.])-?\\b\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b", "N"],
];
/** The noise as one pattern (one pass over a text), each kind a capturing group in NOISE's order. */
const NOISY = new RegExp(NOISE.map(([source]) => `(${source})`).join("|"), "g");

/** Masked texts already computed (titles and causes repeat in every finding): bounded, cleared when full. */
const MASKED = new Map<string, string>();
const NOTHING_SENT: ReadonlySet<string> = new Set();

/**
 * `text` with what varies between occurrences of one failure masked: numbers (N), uuids, dates, prefixed ids,
 * hex strings, long tokens, and quoted values (a quoted name such as 'username', or prose, stays unless the
 * request sent it as a value: `sent`). Whitespace is collapsed. Masking replaces whole tokens only.
 */
export function masked(text: string, sent: ReadonlySet<string> = NOTHING_SENT): string {
  const cached = sent === NOTHING_SENT ? MASKED.get(text) : undefined;
  if (cached !== undefined) return cached;
  let out = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(QUOTED, (all: string, quote?: string, straight?: string, single?: string, double?: string) => {
      const value = straight ?? single ?? double ?? "";
      if ((QUOTED_NAME.test(value) || QUOTED_PROSE.test(value)) && !sent.has(value)) return all;
      return quote ? `${quote}<value>${quote}` : `${all.charAt(0)}<value>${all.charAt(all.length - 1)}`;
    });
  // Every kind of noise carries a digit: a text without one has none.
  if (/\d/.test(out))
    out = out.replace(NOISY, (...groups: unknown[]) => NOISE[groups.slice(1).findIndex((g) => g !== undefined)]![1]);
  if (sent === NOTHING_SENT) {
    if (MASKED.size >= 10_000) MASKED.clear();
    MASKED.set(text, out);
  }
  return out;
}

/** Members that hold an error's message, most telling first (RFC 9457's detail before its title). */
const MESSAGE_MEMBERS = ["message", "detail", "error_description", "error", "msg", "title", "description", "reason"];
/** Members that say which field a message is about (FastAPI's loc, JSON:API's source.pointer). */
const FIELD_MEMBERS = ["field", "loc", "path", "param", "parameter", "pointer", "property"];

/** The field a message's object names (a string, or a path as an array), or undefined. */
function fieldOf(obj: Record<string, unknown>): string | undefined {
  const holder = isMapping(obj.source) ? { ...obj.source, ...obj } : obj;
  for (const name of FIELD_MEMBERS) {
    const v = holder[name];
    if (typeof v === "string" && v) return v;
    if (Array.isArray(v) && v.length && v.every((p) => typeof p === "string" || typeof p === "number"))
      return v.join(".");
  }
  return undefined;
}

/** The message in a JSON value: a string, a message-like member, one level of nesting down; arrays by their first item. */
function messageIn(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) return messageIn(value[0], depth);
  if (!isMapping(value) || depth > 1) return undefined;
  let message: string | undefined;
  for (const name of MESSAGE_MEMBERS) {
    message = messageIn(value[name], depth + 1);
    if (message) break;
  }
  if (message && depth > 0) {
    const field = fieldOf(value);
    if (field && !message.includes(field)) message = `${field}: ${message}`;
  }
  // A general message with the first of its errors (Flask-RESTX's {"errors": {"username": ...}, "message": ...}).
  const detail = errorsIn(value.errors, depth + 1);
  return detail && detail !== message ? (message ? `${message}: ${detail}` : detail) : message;
}

/** The first error of an `errors` member: a list's first item, or a map's first field and its message. */
function errorsIn(errors: unknown, depth: number): string | undefined {
  if (!isMapping(errors) || MESSAGE_MEMBERS.some((m) => m in errors)) return messageIn(errors, depth);
  const [field, value] = Object.entries(errors)[0] ?? [];
  const message = messageIn(value, depth);
  return field !== undefined && message ? `${field}: ${message}` : undefined;
}

/** The server's own words in an answer: its message member, else the body's first bytes (tags of HTML left out). */
function wordsOf(response: ReceivedResponse): string {
  const message = response.json === undefined ? undefined : messageIn(response.json);
  const text =
    message ??
    (/html/i.test(response.contentType ?? "") ? response.bodyText.replace(/<[^>]*>/g, " ") : response.bodyText);
  return text
    .slice(0, 4 * MAX_WORDS)
    .replace(/\s+/g, " ")
    .trim();
}

/** True for an answer whose words a finding shows: a 4xx or 5xx the server sent, its body readable. */
const speaks = (ex: Exchange) => !ex.documented && ex.response.status >= 400 && !ex.response.bodyError;

/**
 * The start of the server's answer to a 4xx or 5xx (its message, else its first bytes), bounded and on one
 * line, or "(empty body)"; undefined for any other answer.
 */
export function serverWords(ex: Exchange): string | undefined {
  if (!speaks(ex)) return undefined;
  const words = wordsOf(ex.response);
  if (!words) return "(empty body)";
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS)}…` : words;
}

/** The server's answer to a 4xx or 5xx as a finding carries it (its first 8 KiB), or undefined. */
export function answerOf(ex: Exchange): string | undefined {
  if (!speaks(ex) || !ex.response.bodyText) return undefined;
  const text = ex.response.bodyText;
  return text.length > MAX_ANSWER ? `${text.slice(0, MAX_ANSWER)}… (${text.length - MAX_ANSWER} more chars)` : text;
}

/**
 * A check's `received` with the server's words after its status: "status 400 for {}" becomes
 * "status 400 ('username' is a required property) for {}" (only text that begins with the answer's status).
 */
export function withServerWords(received: string, ex: Exchange): string {
  const words = serverWords(ex);
  const head = `status ${ex.response.status}`;
  if (words === undefined || !received.startsWith(head) || /\w/.test(received.charAt(head.length))) return received;
  return `${head} (${words})${received.slice(head.length)}`;
}

/** The string values a request sent (query, path, body), to tell a value the server echoes from a name. */
function sentValues(ex: Exchange): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [ex.request.json, ex.request.query, ex.request.pathParams];
  for (let seen = 0; stack.length > 0 && out.size < MAX_SENT_VALUES && seen < 20 * MAX_SENT_VALUES; seen++) {
    const v = stack.pop();
    if (typeof v === "string" || typeof v === "number") out.add(String(v));
    else if (Array.isArray(v)) stack.push(...v.slice(0, MAX_SENT_VALUES));
    else if (isMapping(v)) stack.push(...Object.values(v).slice(0, MAX_SENT_VALUES));
  }
  return out;
}

const SIGNATURES = new WeakMap<ReceivedResponse, string>();

/**
 * The answer's signature: its status, media type (essence, lowercased) and, for a 4xx or 5xx, the server's words
 * masked ("500 application/json: User N not found"); for no answer, why, masked.
 */
export function signatureOf(ex: Exchange): string {
  let signature = SIGNATURES.get(ex.response);
  if (signature === undefined) {
    const { status, contentType, transportError, mockCrash, bodyError } = ex.response;
    const media = (contentType ?? "").split(";")[0]!.trim().toLowerCase() || "(no Content-Type)";
    const words = status === 0 ? (transportError ?? mockCrash ?? "") : speaks(ex) ? wordsOf(ex.response) : "";
    const said = words ? masked(words, sentValues(ex)).slice(0, MAX_WORDS) : "";
    signature =
      status === 0
        ? `no HTTP answer${said ? `: ${said}` : ""}`
        : `${status} ${media}${bodyError ? ` (unreadable: ${bodyError.kind})` : ""}${said ? `: ${said}` : ""}`;
    SIGNATURES.set(ex.response, signature);
  }
  return signature;
}

/** An instance path with array indices as `*` and repeated nesting folded, so one rule is one place. */
export function foldedPath(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, "/*").replace(/(\/[^/]+\/\*)\1+/g, "$1");
}

/** The kind of a finding within its check: its rule id, else its title without parenthetical detail, as a slug. */
export function ruleOf(f: Pick<Finding, "rule" | "title">): string {
  if (f.rule) return f.rule;
  let title = f.title;
  for (let before = ""; before !== title; ) {
    before = title;
    title = title.replace(/\s*\([^()]*\)/g, "");
  }
  return (
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "finding"
  );
}

/**
 * The cause of a finding, readable and masked: the input that triggered it (as the engine named it) and the
 * answer's signature, "query parameter page: the N-bit edge N -> 500 application/json: Internal error". A
 * finding recorded without a signature (an older report) is known by its Received, masked.
 */
export function causeOf(f: Pick<Finding, "cause" | "signature" | "received">): string {
  const answer = f.signature ?? `received ${masked(f.received)}`;
  return f.cause ? `${masked(f.cause)} -> ${answer}` : answer;
}

/** The place of a finding in its identity: its instance path folded, "" without one. */
export const placeIn = (f: Pick<Finding, "instancePath">) =>
  f.instancePath !== undefined ? foldedPath(f.instancePath) : "";

/**
 * The identity of a finding: two findings with the same one are one failure (counted, one example kept). The
 * operation, check, severity, rule and title (masked), place, and cause (input and signature).
 */
export function findingIdentity(f: Finding): string {
  // Without a rule id, the title stands for the kind (its slug would add nothing).
  return [f.operation, f.check, f.severity, f.rule ?? "", masked(f.title), placeIn(f), causeOf(f)].join("\u0000");
}

/** One entry per distinct failure of a scenario, each with its own example and how often it occurred. */
export function distinct(findings: Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const f of findings) {
    const key = findingIdentity(f);
    const seen = byKey.get(key);
    if (seen) seen.count = (seen.count ?? 1) + (f.count ?? 1);
    else if (byKey.size < MAX_FINDINGS) byKey.set(key, { ...f, count: f.count ?? 1 });
  }
  return [...byKey.values()];
}
