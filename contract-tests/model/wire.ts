/**
 * What the document says about each request on the wire that is not a parameter: where the run's credential
 * goes (from the operation's security requirements) and which media types the suite accepts (from its
 * documented responses). Read per operation, so a document with other security schemes or other content
 * types is exercised as written.
 *
 * The credential (CONTRACT_API_KEY) is placed by scheme:
 * - `apiKey` in a header, query parameter or cookie, under the scheme's name, as is, or after the prefix the
 *   scheme's description shows it written with (`Authorization: Token <jwt>`, `Token xxxxx.yyyyy.zzzzz`: `Token `),
 *   or the one the settings give (--credential-prefix) for a header the description says nothing of;
 * - `http` bearer, and `oauth2` / `openIdConnect` (the credential is then an access token):
 *   `Authorization: Bearer <credential>`;
 * - `http` basic: `Authorization: Basic base64(<credential>)`, the credential being `user:password`
 *   (a credential without a colon is sent as the user name with an empty password).
 *
 * An operation is sent with the first alternative of its `security` whose schemes can all be placed; an
 * empty alternative (`{}`) makes authentication optional; `security: []` sends no credential.
 */
import type { OperationEntry, SecurityEntry } from "../../openapi/lib/operations.js";

/** Where one credential goes, and how it is written. */
export interface Placement {
  in: "header" | "query" | "cookie";
  name: string;
  format: "raw" | "bearer" | "basic";
  /** For a raw (apiKey) credential: the word written before it, a space between (`Token`). */
  prefix?: string;
}

/** What a description writes in place of a credential: `<jwt>`, `{token}`, `xxxxx.yyyyy.zzzzz`, `$TOKEN`, `eyJ...`. */
const PLACEHOLDER = `(?:${[
  String.raw`<[^<>\s]{1,40}>`,
  String.raw`\{\{?[^{}\s]{1,40}\}\}?`,
  String.raw`\[[^\[\]\s]{1,40}\]`,
  String.raw`x{3,}(?:\.x{3,}|\.y{3,}|\.z{3,})*`,
  String.raw`\$\{?[A-Za-z_]\w*\}?`,
  String.raw`eyJ[\w-]*(?:\.[\w-]*){0,2}(?:\.{3}|…)?`,
].join("|")})`;
/** Words that name an authorization scheme wherever they stand before a placeholder. */
const SCHEME_WORDS = /^(?:token|bearer|jwt|apikey|api-key|key|ssws|oauth|session|sso-key|genieKey|klaviyo-api-key)$/i;

/**
 * The prefix an apiKey scheme's description shows its credential written with: the word before a placeholder, when
 * the description writes the header (`Authorization: Token <jwt>`), quotes it (`` `Token <jwt>` ``, "Token
 * xxxxx.yyyyy.zzzzz") or the word names a scheme (Token, Bearer, JWT...). Undefined when it shows none.
 */
export function describedPrefix(s: Pick<SecurityEntry, "description" | "name">): string | undefined {
  const text = s.description ?? "";
  const pattern = new RegExp(`(^|[\\s\x60"'(:])([A-Za-z][\\w-]{0,30}) +${PLACEHOLDER}`, "g");
  const header = s.name ? s.name.toLowerCase() : undefined;
  for (const m of text.matchAll(pattern)) {
    const word = m[2]!;
    const before = text.slice(0, m.index + m[1]!.length).trimEnd();
    const written = header !== undefined && before.toLowerCase().endsWith(`${header}:`);
    const quoted = /[\x60"']$/.test(m[1]!);
    if (written || quoted || SCHEME_WORDS.test(word)) return word;
  }
  return undefined;
}

/** How an operation is authenticated by the suite. */
export type AuthPlan =
  | { kind: "none"; optional: boolean }
  | { kind: "placed"; placements: Placement[]; optional: boolean }
  | { kind: "unsupported"; schemes: string[] };

/** Where a scheme puts the credential, or undefined for a scheme the suite cannot satisfy (e.g. mutualTLS). */
function placementOf(s: SecurityEntry, prefix?: string): Placement | undefined {
  if (s.type === "apiKey" && (s.in === "header" || s.in === "query" || s.in === "cookie") && s.name) {
    const shown = describedPrefix(s) ?? (s.in === "header" ? prefix : undefined);
    return { in: s.in, name: s.name, format: "raw", ...(shown ? { prefix: shown } : {}) };
  }
  if ((s.type === "http" && s.httpScheme === "bearer") || s.type === "oauth2" || s.type === "openIdConnect")
    return { in: "header", name: "Authorization", format: "bearer" };
  if (s.type === "http" && s.httpScheme === "basic") return { in: "header", name: "Authorization", format: "basic" };
  return undefined;
}

const describeScheme = (s: SecurityEntry) =>
  s.type === "http"
    ? `http ${s.httpScheme ?? "(no scheme)"}`
    : s.type === "apiKey"
      ? `apiKey in ${s.in ?? "(nowhere)"}`
      : s.type;

/**
 * The operation's authentication, from its security requirements (alternatives in document order); `prefix`: the
 * settings' credential prefix for an apiKey header whose description shows none (--credential-prefix).
 */
export function authPlan(op: Pick<OperationEntry, "security">, prefix?: string): AuthPlan {
  const optional = op.security.some((alt) => alt.length === 0);
  if (op.security.length === 0) return { kind: "none", optional: false };
  for (const alt of op.security) {
    if (alt.length === 0) continue;
    const placements = alt.map((s) => placementOf(s, prefix));
    if (placements.every((p) => p !== undefined))
      return { kind: "placed", placements: placements as Placement[], optional };
  }
  if (optional) return { kind: "none", optional: true };
  return {
    kind: "unsupported",
    schemes: [
      ...new Set(
        op.security
          .flat()
          .filter((s) => !placementOf(s))
          .map(describeScheme),
      ),
    ],
  };
}

const where = (p: Placement) => `${p.in} ${p.in === "header" ? p.name.toLowerCase() : p.name}`;

/**
 * Why the credentialed requests of `plan` are in doubt as the document is written: no alternative can be
 * presented (mutualTLS, say), or the chosen one needs two credentials in one place (two schemes on the
 * Authorization header), which one request cannot carry. A refusal of such a request breaks no promise the
 * suite can hold.
 */
export function credentialDoubt(plan: AuthPlan): string | undefined {
  if (plan.kind === "unsupported")
    return `the suite cannot present a credential for ${plan.schemes.join(", ")}, so its requests go unauthenticated`;
  if (plan.kind !== "placed") return undefined;
  const places = plan.placements.map(where);
  const twice = places.find((w, i) => places.indexOf(w) !== i);
  return twice
    ? `the security requirement asks for two credentials in one place (${twice}), which one request cannot carry`
    : undefined;
}

/**
 * Why the empty-credential probe of `op` is in doubt: its wire value is not empty ("Basic ", "Bearer ") and
 * another scheme of the operation's security reads that same place as an apiKey, for which any value present
 * is a credential, so the document does not call the probe unauthenticated: it is a wrong credential, which
 * only a live target can show refused (the mock takes any apiKey value, as for the wrong-key probe).
 */
export function emptyProbeDoubt(op: Pick<OperationEntry, "security">, plan: AuthPlan): string | undefined {
  if (plan.kind !== "placed") return undefined;
  const prefixed = plan.placements.filter((p) => p.format !== "raw").map(where);
  const reader = op.security
    .flat()
    .find((s) => s.type === "apiKey" && placementOf(s) && prefixed.includes(where(placementOf(s)!)));
  return reader
    ? `the empty ${plan.placements.find((p) => p.format !== "raw")!.format} credential ` +
        `is a value in the ${where(placementOf(reader)!)}, ` +
        `which the apiKey scheme ${reader.scheme} reads as a credential (a wrong one, which only a live target ` +
        `can show refused)`
    : undefined;
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** The value a placement carries for `secret` (`""` for the empty-credential probe stays empty after the prefix). */
export function credentialValue(p: Placement, secret: string): string {
  if (p.format === "bearer") return `Bearer ${secret}`;
  if (p.format === "basic") return `Basic ${secret === "" ? "" : base64(secret.includes(":") ? secret : `${secret}:`)}`;
  return p.prefix ? `${p.prefix} ${secret}` : secret;
}

/** Every form in which `credentialValue` may put a secret on the wire beyond the secret itself (for scrubbing). */
export function encodedForms(secret: string): string[] {
  return [base64(secret), base64(`${secret}:`)];
}

/** The Accept header of an operation: its documented response media types, or any type when it documents none. */
export function acceptOf(op: Pick<OperationEntry, "responses">): string {
  const types = [...new Set(op.responses.flatMap((r) => r.content.map((c) => c.mediaType)))];
  return types.length ? types.join(", ") : "*/*";
}

/** The wire rules of a run, per operation id. */
export interface WireRules {
  auth(operation: string): AuthPlan;
  accept(operation: string): string;
}

/** Rules for a request the document does not describe: the key in `X-API-Key`, JSON accepted. */
export const DEFAULT_WIRE_RULES: WireRules = {
  auth: () => ({ kind: "placed", placements: [{ in: "header", name: "X-API-Key", format: "raw" }], optional: false }),
  accept: () => "application/json",
};

/** The rules of every operation of a document; an operation it does not have gets the defaults. */
export function wireRules(operations: OperationEntry[], credentialPrefix?: string): WireRules {
  const byId = new Map(
    operations.map((op) => [op.operationId, { auth: authPlan(op, credentialPrefix), accept: acceptOf(op) }]),
  );
  return {
    auth: (id) => byId.get(id)?.auth ?? DEFAULT_WIRE_RULES.auth(id),
    accept: (id) => byId.get(id)?.accept ?? DEFAULT_WIRE_RULES.accept(id),
  };
}

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The first character no field value can carry (a control other than HTAB, DEL, or one above U+00FF). */
function uncarried(value: string): string | undefined {
  for (const c of value) {
    const code = c.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return c;
  }
  return undefined;
}
/** Fields the transport writes itself or refuses (framing and connection management), by lower-case name. */
const TRANSPORT_OWNED: Record<string, string> = {
  host: "the transport writes Host from the target's URL",
  "transfer-encoding": "the transport frames the body itself and refuses a Transfer-Encoding",
  "keep-alive": "the transport manages the connection and refuses a Keep-Alive",
  upgrade: "the transport refuses an Upgrade",
  expect: "the transport refuses an Expect",
};

/**
 * The headers of a request as the transport (fetch) can put them on the wire, and why the others are not
 * there as given: a name that is no HTTP token or a value with a character a header cannot carry (a line
 * break, a control, one above U+00FF) is left out; a field the transport writes or refuses (Host,
 * Content-Length unless it is the body's length, Transfer-Encoding, Connection other than close/keep-alive,
 * Keep-Alive, Upgrade, Expect) is left to the transport; surrounding whitespace is trimmed by any transport,
 * and a byte above U+007F is sent as one byte (Latin-1), which a server reading UTF-8 does not read back.
 * Each reason names the header: the request does not carry what the suite chose, so it is in doubt.
 */
export function carriedHeaders(
  headers: Record<string, string>,
  bodyText: string | undefined,
  scrub: (text: string) => string = (t) => t,
): { headers: Record<string, string>; doubts: string[] } {
  const quoted = (v: string) => {
    const shown = scrub(v);
    return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}...` : shown);
  };
  const out: Record<string, string> = {};
  const doubts: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const why = !TOKEN.test(name)
      ? "its name is not an HTTP field name (a token), so no request can carry it: left out"
      : uncarried(value) !== undefined
        ? `its value holds ${JSON.stringify(uncarried(value))}, which a header cannot carry: left out`
        : TRANSPORT_OWNED[lower]
          ? `${TRANSPORT_OWNED[lower]}: left out`
          : lower === "content-length" &&
              value.trim() !== String(bodyText === undefined ? 0 : Buffer.byteLength(bodyText))
            ? "the transport writes Content-Length from the body it sends " +
              `(${bodyText === undefined ? "none" : `${Buffer.byteLength(bodyText)} bytes`}): left out`
            : lower === "connection" && !/^(close|keep-alive)$/i.test(value.trim())
              ? "the transport manages the connection and refuses any Connection but close or keep-alive: left out"
              : undefined;
    if (why) {
      doubts.push(`header ${name} ${quoted(value)}: ${why}`);
      continue;
    }
    // Content-Length is written by the transport (the same value); the rest go as they are.
    if (lower !== "content-length") out[name] = value;
    if (value !== value.trim())
      doubts.push(`header ${name} ${quoted(value)}: the transport trims the whitespace around a header value`);
    else if (/[^\0-\x7f]/.test(value))
      doubts.push(
        `header ${name} ${quoted(value)}: a character above U+007F goes as one byte ` +
          `(Latin-1), which a server reading UTF-8 does not read back`,
      );
  }
  return { headers: out, doubts };
}

/** Headers every request carries whether or not the suite sets them (the target's and fetch's own). */
const ALWAYS_WRITTEN = new Set([
  "host",
  "connection",
  "accept",
  "user-agent",
  "accept-encoding",
  "accept-language",
  "sec-fetch-mode",
]);

/** True when the transport writes the header `name` on a request that does not set it, so it cannot be left out. */
export const writtenByTransport = (name: string, hasBody: boolean): boolean =>
  ALWAYS_WRITTEN.has(name.toLowerCase()) || (hasBody && name.toLowerCase() === "content-length");
