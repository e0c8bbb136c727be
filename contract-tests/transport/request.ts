/**
 * The build step of the target's send: from a request spec, the URL (through the request boundary), the headers
 * the transport can carry, the credential placed where the document says, and the request as the report shows
 * it (a real key as the variable that holds it, everything scrubbed of the keys).
 */
import type { Scrubber } from "../../wire/redact.js";
import type { SentRequest } from "../model/types.js";
import { carriedHeaders, credentialValue, type Placement, type WireRules } from "../model/wire.js";
import { requestUrl } from "./boundary.js";
import type { Account, Credentials, Forged } from "./credentials.js";

/**
 * How to authenticate one request: an account's credential (the run's own `valid`, the second's, a throwaway one's),
 * none, an empty or a wrong one, or one forged from the run's own token.
 */
export type KeyMode = Account | Forged | "none" | "empty" | "wrong";

/** A request to send: the path is already expanded, query values already serialised (commas kept). */
export interface RequestSpec {
  operation: string;
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  /** A JSON value to send (serialised), unless `rawBody` is given. */
  json?: unknown;
  rawBody?: string;
  /** Content-Type of the body (default application/json). */
  contentType?: string;
  key?: KeyMode;
  headers?: Record<string, string>;
  timeoutMs?: number;
  pairedExample?: string;
  /** The path parameters' values, by name (recorded for `$request.path.*` link expressions). */
  pathParams?: Record<string, unknown>;
}

/** A request ready to send: what goes on the wire, and what the report records. */
export interface BuiltRequest {
  url: string;
  method: string;
  /** The headers on the wire (the credential in them, when it goes in a header or cookie); frozen. */
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** The request as recorded: the real keys shown as the variables that hold them, scrubbed. */
  sent: SentRequest;
}

/** What the build step reads besides the spec. */
export interface BuildContext {
  baseUrl: string;
  credentials: Credentials;
  rules: WireRules;
  scrubber: Scrubber;
}

/** The User-Agent of every request the suite sends (the live edge answers some default agents with 403). */
export const USER_AGENT = "webauto-api-contract-suite/1.0";
/** A key no real account has; it is not a secret, so reports print it. */
const WRONG_API_KEY = "contract-suite-wrong-key-0000";

/** A query value percent-encoded, its commas kept (a serialised array's separators). */
const encodeValue = (v: string) => encodeURIComponent(v).replace(/%2C/gi, ",");

/** The credential of a key mode: the value sent, and the text reports show for it. */
interface Credential {
  /** The value sent; undefined: no credential. */
  secret: string | undefined;
  /** A probe's value (wrong or empty: not a secret), else the variable that holds the real key. */
  shown: string | undefined;
  variable: string;
}

function credentialOf(key: KeyMode, ctx: BuildContext): Credential {
  if (key === "wrong" || key === "empty") {
    const secret = key === "wrong" ? WRONG_API_KEY : "";
    return { secret, shown: secret, variable: "$CONTRACT_API_KEY" };
  }
  if (key === "none") return { secret: undefined, shown: undefined, variable: "$CONTRACT_API_KEY" };
  // The curl line runs as printed in a shell that has the variable set and never holds the key itself.
  const cred = ctx.credentials.of(key);
  return { secret: cred?.secret, shown: cred?.variable, variable: cred?.variable ?? "$CONTRACT_API_KEY" };
}

/**
 * The shell text of a Basic credential read from `variable` (base64 of `user:password`; a key without a colon is the
 * user).
 */
function basicShell(variable: string, secret: string): string {
  return `$(printf '%s${secret.includes(":") ? "" : ":"}' "${variable}" | base64 -w0)`;
}

/** Where the credential went: headers (wire and shown) and query pairs (wire and shown). */
interface Placed {
  wire: Record<string, string>;
  shown: Record<string, string>;
  wireQuery: Array<[string, string]>;
  shownQuery: Array<[string, string]>;
}

/** Puts the credential in each of `placements` (headers, query, cookies), on the wire and as shown. */
function placeCredential(headers: Record<string, string>, placements: Placement[], cred: Credential): Placed {
  const wire = { ...headers };
  const shown = { ...headers };
  const wireQuery: Array<[string, string]> = [];
  const shownQuery: Array<[string, string]> = [];
  const cookies: Array<[string, string]> = [];
  const secret = cred.secret!;
  const shownSecret = cred.shown!;
  for (const p of placements) {
    const value = credentialValue(p, secret);
    const display =
      p.format === "raw"
        ? p.prefix
          ? `${p.prefix} ${shownSecret}`
          : shownSecret
        : p.format === "basic" && shownSecret === cred.variable
          ? `Basic ${basicShell(cred.variable, secret)}`
          : `${value.split(" ")[0]} ${shownSecret}`;
    if (p.in === "header") {
      wire[p.name.toLowerCase()] = value;
      shown[p.name.toLowerCase()] = display;
    } else if (p.in === "query") {
      wireQuery.push([p.name, value]);
      shownQuery.push([p.name, shownSecret]);
    } else cookies.push([p.name, value]);
  }
  if (cookies.length) {
    wire.cookie = [wire.cookie, ...cookies.map(([n, v]) => `${n}=${encodeURIComponent(v)}`)].filter(Boolean).join("; ");
    shown.cookie = [shown.cookie, ...cookies.map(([n]) => `${n}=${shownSecret}`)].filter(Boolean).join("; ");
  }
  return { wire, shown, wireQuery, shownQuery };
}

/**
 * Builds `spec` for the wire and for the report. Throws RefusedRequest (boundary.ts) when its URL would leave the
 * target's origin or base path, or holds a dot segment: such a request is never sent.
 */
export function buildRequest(spec: RequestSpec, ctx: BuildContext): BuiltRequest {
  const { scrubber } = ctx;
  const key = spec.key ?? "valid";
  const cred = credentialOf(key, ctx);
  const auth = ctx.rules.auth(spec.operation);
  const placements = cred.secret !== undefined && auth.kind === "placed" ? auth.placements : [];
  const bodyText = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
  // Only headers the transport can carry as given go; the others are named as the request's doubt.
  const carried = carriedHeaders(
    { accept: ctx.rules.accept(spec.operation), "user-agent": USER_AGENT, ...(spec.headers ?? {}) },
    bodyText,
    scrubber.text,
  );
  const { wire, shown, wireQuery, shownQuery } = placeCredential(carried.headers, placements, cred);
  const pairs = Object.entries(spec.query ?? {}).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((item): [string, string] => [k, item]),
  );
  const query = [
    ...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeValue(v)}`),
    ...wireQuery.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
  ].join("&");
  // The request boundary: a URL off the target's origin or base path, or with a dot segment, is never sent.
  const url = requestUrl(
    ctx.baseUrl,
    spec.path,
    query,
    `${spec.method} ${spec.path.slice(0, 200)} of ${spec.operation}`,
  );
  const shownQueryText = [
    ...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeValue(v)}`),
    ...shownQuery.map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith("$") ? v : encodeURIComponent(v)}`),
  ].join("&");
  const shownUrl = requestUrl(ctx.baseUrl, spec.path, shownQueryText, spec.operation);
  if (bodyText !== undefined)
    wire["content-type"] = shown["content-type"] =
      carried.headers["content-type"] ?? spec.contentType ?? "application/json";
  return {
    url,
    method: spec.method,
    // Frozen: what goes on the wire is never changed after it is built (the recorded copy is `shown`'s).
    headers: Object.freeze(wire),
    body: bodyText,
    sent: {
      method: spec.method,
      url: scrubber.text(shownUrl),
      path: spec.path,
      key,
      query: spec.query ?? {},
      ...(spec.pathParams ? { pathParams: scrubber.value(structuredClone(spec.pathParams)) } : {}),
      headers: shown,
      ...(bodyText !== undefined ? { bodyText: scrubber.text(bodyText) } : {}),
      json: spec.json,
      ...(carried.doubts.length ? { doubt: carried.doubts.join("; ") } : {}),
    },
  };
}
