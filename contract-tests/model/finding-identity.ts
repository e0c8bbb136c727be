/**
 * What makes two findings one failure (issue 33: the server's answer decides): their check and kind (rule), their
 * place (an instance path, indices folded) and the answer's signature (its status, media type and the server's own
 * words with what varies between occurrences masked). The input that triggered a finding is not part of it: inputs
 * that get the same answer are occurrences of one finding, which lists them and keeps the shortest as its example.
 * Only an answer that tells causes nothing apart (an empty body, a framework's default error page) lets the
 * operation and the parameter or member that carried the unusual value split findings. One response is one
 * finding: the most specific check's, the others noted under it (`oneFindingPerResponse`). Computed here and
 * nowhere else: per exchange, per scenario (`distinct`), across a run (the report's merge) and for the baseline.
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
/**
 * A quoted text not part of a word (the apostrophe of "can't" opens no quote): straight quotes, backticks, curly
 * ones.
 */
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
      // Either straight quote is one mask: a value is quoted as the language's repr chose ('Y', but "'").
      return quote === "`" ? "`<value>`" : quote ? "'<value>'" : `${all.charAt(0)}<value>${all.charAt(all.length - 1)}`;
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

/**
 * The message in a JSON value: a string, a message-like member, one level of nesting down; arrays by their first
 * item.
 */
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

/** The parameter or member an input names ("query parameter page", "body member title"), as the engine words it. */
const CARRIER = /\b(?:body member|(?:path|query|header|cookie) parameter) [^\s,;:()]+/;
const CARRIERS = new RegExp(CARRIER.source, "g");

/** The parameter or member that carried the unusual value of an input (its cause), or undefined. */
function carrierOf(cause: string | undefined): string | undefined {
  return cause?.match(CARRIER)?.[0];
}

/**
 * Words of an answer that tell no cause apart: HTTP reason phrases, the filler of a framework's default error page
 * (Flask, Spring's Whitelabel page, Tomcat, nginx, Django).
 */
const FILLER = new Set(
  (
    "a an the this that is was has have been and or of for to in on as at by so you are your we our it its be " +
    "error errors server internal unexpected unknown occurred occured something went wrong oops sorry please try " +
    "again later http status code n type report message description exception request requests failed failure " +
    "bad gateway service unavailable timeout not found forbidden unauthorized conflict unprocessable entity " +
    "content too large many method allowed implemented gone precondition expectation unsupported media " +
    "encountered condition prevented from fulfilling unable complete either overloaded there application " +
    "whitelabel page no explicit mapping seeing fallback nginx apache tomcat openresty iis cloudflare " +
    "temporarily issue problem processing handling"
  ).split(" "),
);

/**
 * True when an answer's signature carries words that tell one cause from another (a message, an exception); false
 * for no words, or words of a default page ("500 text/html: 500 Internal Server Error nginx").
 */
export function tellsCause(signature: string): boolean {
  if (signature.startsWith("no HTTP answer")) return true;
  const words = signature.match(/^\d{3} [^:]*?(?: \(unreadable: [^)]*\))?: (.*)$/s)?.[1];
  if (!words) return false;
  const tokens = words
    .toLowerCase()
    .replace(/<[^<>]*>/g, " ")
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !FILLER.has(w));
  return tokens.length > 0;
}

/** A text as a slug (lowercase words joined by "-"), at most 80 characters. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80) || "finding";

/**
 * The failing schema keyword of a conformance finding (the last part of its schema path: `required`, `type`,
 * `pattern`), or undefined (another check, or a conditional rule, whose kind is its title).
 */
function keywordOf(f: Pick<Finding, "check" | "schemaPath">): string | undefined {
  if (!BY_PLACE.has(f.check) || !f.schemaPath) return undefined;
  const keyword = f.schemaPath.slice(f.schemaPath.lastIndexOf("/") + 1);
  return /^[a-zA-Z$]+$/.test(keyword) && keyword !== "if" && keyword !== "then" ? keyword : undefined;
}

/**
 * The kind of a finding within its check: its rule id; for a conformance finding its failing keyword
 * (`schema-required`); else its title without parenthetical detail and the input it names, as a slug.
 */
export function ruleOf(f: Pick<Finding, "rule" | "title" | "cause" | "operation" | "check" | "schemaPath">): string {
  if (f.rule) return f.rule;
  const keyword = keywordOf(f);
  return keyword ? `schema-${keyword}` : slug(kindText(f));
}

/**
 * The rule issue 28's identity gave a finding of a check that set no rule id then (its title's slug, ignored_auth's
 * included): its baseline entries still match.
 */
export function legacyRuleOf(f: Pick<Finding, "title">): string {
  let title = f.title;
  for (let before = ""; before !== title; ) {
    before = title;
    title = title.replace(/\s*\([^()]*\)/g, "");
  }
  return slug(title);
}

/**
 * What a finding's title says of its kind: without parenthetical detail, the input it names (its cause, a
 * parameter or member: "<input>") and the operations it names ("<operation>": its own, the delete that removed a
 * resource; an operationId in camelCase, the common style, outside quotes).
 */
function kindText(f: Pick<Finding, "title" | "cause" | "operation">): string {
  let title = f.cause && f.cause.length > 3 ? f.title.split(f.cause).join("<input>") : f.title;
  for (let before = ""; before !== title; ) {
    before = title;
    title = title.replace(/\s*\([^()]*\)/g, "");
  }
  title = title.replace(CARRIERS, "<input>");
  if (f.operation) title = title.split(f.operation).join("<operation>");
  // Other operations a title names (the delete that removed a resource, the update that wrote it), outside quotes.
  return title.replace(/((?<!\w)(["'])[^\n]*?\2(?!\w))|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (all, quoted?: string) =>
    quoted ? all : "<operation>",
  );
}

/** The kind as identity compares it: the rule id, the failing keyword, else the title's kind text masked. */
const kindOf = (f: Pick<Finding, "rule" | "title" | "cause" | "operation" | "check" | "schemaPath">) => {
  const keyword = keywordOf(f);
  return f.rule ?? (keyword ? `keyword ${keyword}` : masked(kindText(f)));
};

/**
 * The answer's part of a finding's identity, readable: the answer's signature, and for an answer that tells causes
 * nothing apart the parameter or member that carried the unusual value ("body member title -> 500 (no
 * Content-Type)"). A signature-less finding (an older report) is known by its Received, masked.
 */
export function causeOf(f: Pick<Finding, "cause" | "signature" | "received">): string {
  return canonicalCause(f.signature ?? `received ${masked(f.received)}`, f.cause);
}

/**
 * The answer's part from a signature and the input's cause (see causeOf): a success is its status class (a verdict
 * on an answer that succeeded is the same whichever 2xx and media type it had); an error answer its signature, with
 * the carrier of the input when the answer tells nothing.
 */
function canonicalCause(signature: string, cause: string | undefined): string {
  const status = /^([1-5])\d\d /.exec(signature)?.[1];
  if (status !== undefined && status < "4") return `${status}xx`;
  const carrier = status === undefined || tellsCause(signature) ? undefined : carrierOf(cause);
  return carrier ? `${carrier} -> ${signature}` : signature;
}

/**
 * The answer's part of a baseline entry's cause as this identity has it: an entry written by issue 28's identity
 * ("the input -> the signature") keeps only what tells causes apart now.
 */
export function entryCause(cause: string): string {
  const at = cause.indexOf(" -> ");
  return at < 0 ? cause : canonicalCause(cause.slice(at + 4), cause.slice(0, at));
}

/** The checks whose findings are told apart by their place (the failing keyword is in their kind). */
const BY_PLACE: ReadonlySet<string> = new Set(["response_schema_conformance", "response_headers_conformance"]);

/**
 * The place of a finding in its identity: for a conformance finding its instance path folded, else "" (a member a
 * finding names is in its title; where it sits in a listing or a record is the same failure).
 */
export const placeIn = (f: Pick<Finding, "instancePath" | "check">) =>
  f.instancePath !== undefined && BY_PLACE.has(f.check) ? foldedPath(f.instancePath) : "";

/** True when entries of `check` are told apart by their place (see placeIn). */
export const placeCounts = (check: string) => BY_PLACE.has(check);

/**
 * True when a finding is told apart by its operation too: an error answer that tells nothing (the same empty 500
 * from two operations may be two bugs). An answer in the server's own words, or a verdict on a success, is one
 * failure wherever it occurs; the operations it occurred on are listed.
 */
function perOperation(f: Pick<Finding, "signature" | "received">): boolean {
  const signature = f.signature ?? "";
  return /^[45]\d\d /.test(signature) && !tellsCause(signature);
}

/**
 * The identity of a finding: two findings with the same one are one failure (counted, the inputs and operations
 * listed, the shortest example kept). The check, severity, kind (rule, else the title without the input it names),
 * place, the answer's signature, a warning's reason, and for an answer that tells nothing the operation and the
 * carrier of the input.
 */
export function findingIdentity(f: Finding): string {
  // A warning's reason (the document is silent, the rule only implied, ...) is part of what it says.
  const why = f.lenient?.because ?? "";
  return [f.check, f.severity, why, kindOf(f), placeIn(f), causeOf(f), perOperation(f) ? f.operation : ""].join(
    "\u0000",
  );
}

/** Most inputs and operations a finding lists (the count says how many occurrences in all). */
const MAX_LISTED = 100;

/** `list` with `items` added (distinct, in order, at most MAX_LISTED). */
function listed(list: string[] | undefined, items: readonly string[]): string[] {
  const out = [...(list ?? [])];
  for (const x of items) if (out.length < MAX_LISTED && !out.includes(x)) out.push(x);
  return out;
}

/** A finding as the first of its occurrences: its input and its operation listed. */
export function asOccurrences<F extends Finding>(f: F): F {
  return {
    ...f,
    count: f.count ?? 1,
    inputs: listed(f.inputs, f.cause ? [f.cause] : []),
    operations: listed(f.operations, [f.operation]),
  };
}

/**
 * Adds the occurrences of `f` to `into` (the same identity): counts summed, inputs and operations listed, and the
 * example (request, words, place) becomes `f`'s when its request is shorter: the shortest reproducer is shown.
 */
export function absorb<F extends Finding>(into: F, f: F): F {
  const inputs = listed(into.inputs, f.inputs ?? (f.cause ? [f.cause] : []));
  const operations = listed(into.operations, f.operations ?? [f.operation]);
  const count = (into.count ?? 1) + (f.count ?? 1);
  const shorter = f.curl.length < into.curl.length;
  const { tests } = into as { tests?: string[] };
  return Object.assign(shorter ? { ...into, ...f, ...(tests ? { tests } : {}) } : into, { count, inputs, operations });
}

/** One entry per distinct failure of a scenario, each with its shortest example and how often it occurred. */
export function distinct(findings: Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const f of findings) {
    const key = findingIdentity(f);
    const seen = byKey.get(key);
    if (seen) byKey.set(key, absorb(seen, f));
    else if (byKey.size < MAX_FINDINGS) byKey.set(key, asOccurrences(f));
  }
  return [...byKey.values()];
}

/** The inputs of a finding in a few words: "a single quote, template markers, a NUL character and 16 more". */
export function inputsText(f: Pick<Finding, "inputs" | "count">, shown = 3): string {
  const inputs = f.inputs ?? [];
  if (inputs.length === 0) return "";
  // The parameter or member they share is said once.
  const carriers = new Set(inputs.map(carrierOf));
  const [carrier] = carriers;
  const own =
    carriers.size === 1 && carrier
      ? inputs.map((i) => i.replace(carrier, "").replace(/^[\s:]+/, "") || i)
      : [...inputs];
  // A cause may hold commas (the value it shows): several are joined by semicolons.
  const head = own.slice(0, shown).join(own.some((i) => i.includes(",")) ? "; " : ", ");
  const rest = own.length - shown;
  return `${carriers.size === 1 && carrier ? `${carrier}: ` : ""}${head}${rest > 0 ? ` and ${rest} more` : ""}`;
}

/**
 * How specific a check's verdict is, most first: an answer that did not arrive whole; a verdict that knows what the
 * request meant (an identifier it deleted, another account's write, a module's rule); a server error; valid input
 * refused or invalid input accepted; an undocumented status; the media type; then the shape of the body.
 */
const SPECIFICITY: Record<string, number> = {
  server_stopped_answering: 0,
  response_readable: 0,
  not_a_server_error: 2,
  positive_data_acceptance: 3,
  negative_data_rejection: 3,
  status_code_conformance: 4,
  content_type_conformance: 5,
  response_schema_conformance: 6,
  response_headers_conformance: 6,
  undocumented_properties: 6,
  // An envelope explains the undocumented member and the schema breaks it makes.
  response_envelope: 5.5,
  body_size_limit: 6,
};
/** How specific a check's verdict is (see SPECIFICITY): 0 most. */
export const specificityOf = (check: string) => SPECIFICITY[check] ?? 1;
const specificity = (f: Finding, preferred: readonly string[]) =>
  (f.severity === "error" ? 0 : 10) + (preferred.includes(f.check) ? 0.5 : specificityOf(f.check));

/** One line noting a finding under another of the same response. */
const noted = (f: Finding) => `${f.check}: ${f.title} (${f.received.slice(0, 160)})`.slice(0, 300);

/**
 * One response, one finding: of the findings of several checks on one exchange, the most specific (errors before
 * warnings, then by {@link SPECIFICITY}, a check the scenario asked for by name (`preferred`) right after an answer
 * that did not arrive, then in check order) is the finding, and the others are noted under it
 * (`also`): a 500's undocumented status, its media type and its schema are part of the server error, and a check
 * that restates another's verdict on the same answer adds nothing.
 */
export function oneFindingPerResponse(findings: Finding[], preferred: readonly string[] = []): Finding[] {
  if (findings.length < 2) return findings;
  let primary = findings[0]!;
  for (const f of findings) if (specificity(f, preferred) < specificity(primary, preferred)) primary = f;
  const folded = findings.filter((f) => f !== primary && restates(f, primary));
  const also = folded.map(noted);
  const head = { ...primary, also: [...new Set([...(primary.also ?? []), ...also])].slice(0, 20) };
  // A verdict of its own on the same answer (invalid input accepted, beside a write-only member it shows) is
  // another broken promise: its own finding, in the checks' order.
  return findings.filter((f) => !folded.includes(f)).map((f) => (f === primary ? head : f));
}

/** The checks of an answer's form: its status against the document, its media type, headers and body's shape. */
const FORM = new Set([
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "response_headers_conformance",
  "undocumented_properties",
  "response_envelope",
  "body_size_limit",
]);
/** The checks whose verdict is the status an input got: accepted, refused. */
const ACCEPTANCE = new Set(["positive_data_acceptance", "negative_data_rejection"]);
/** The checks that say an answer failed as a whole: it did not arrive whole, or it is a server error. */
const FAILED_ANSWER = new Set(["server_stopped_answering", "response_readable", "not_a_server_error"]);

/**
 * True when `f` only restates `primary`'s verdict on the same answer: another finding of the same check (a field
 * reordered shows as one missing and one not sent), the answer's form (a 500's status, media type
 * and schema are part of the server error; a write-only member's schema break is the leak), a server error that a
 * verdict knowing what the request meant explains (an unknown identifier answered 500), or an input's acceptance or
 * refusal where the answer failed as a whole. Any other pair is two causes (invalid input accepted, and a
 * write-only member in that answer).
 */
const restates = (f: Finding, primary: Finding) =>
  f.check === primary.check ||
  FORM.has(f.check) ||
  f.check === "not_a_server_error" ||
  (ACCEPTANCE.has(f.check) && FAILED_ANSWER.has(primary.check));
