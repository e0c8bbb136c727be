/** Helpers for reading exchanges (not checks): success, the documented payload inside an envelope, display, curl. */
import type { ErrorObject } from "ajv/dist/2020.js";
import { isJsonMedia, matchingMedia } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import { answerOf, signatureOf, withServerWords } from "./finding-identity.js";
import type { SpecModel } from "./model.js";
import type { Answered, Exchange, Finding, SentRequest } from "./types.js";

/** True for a plain JSON object (not null, not an array): the spec library's own test. */
export const isObject = isMapping;

/** True for a 2xx status. */
export function isSuccess(exchange: Exchange): boolean {
  return exchange.response.status >= 200 && exchange.response.status < 300;
}

/** The schema of the documented JSON response for `status`, dereferenced, or undefined. */
function responseSchema(
  model: SpecModel,
  operation: string,
  status: number,
): { schema: any; pointer: string } | undefined {
  const media = model.responseMedia(operation, status).find((m) => m.schemaPointer && isJsonMedia(m.mediaType));
  return media?.schemaPointer ? model.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer) : undefined;
}

/**
 * True when a 2xx body is wrapped as `{"data": {...}}` (optionally with `error: null`) although the documented
 * schema does not declare `data` (the live service does this on some responses the document shows bare).
 */
export function isEnveloped(model: SpecModel, exchange: Exchange): boolean {
  // Every check that reads the payload asks: answer once per exchange.
  let known = ENVELOPED.get(exchange);
  if (known === undefined) {
    known = envelopedNow(model, exchange);
    ENVELOPED.set(exchange, known);
  }
  return known;
}

const ENVELOPED = new WeakMap<Exchange, boolean>();

function envelopedNow(model: SpecModel, exchange: Exchange): boolean {
  const json = exchange.response.json;
  if (!isSuccess(exchange) || !isObject(json) || !isObject(json.data)) return false;
  if (!Object.keys(json).every((k) => k === "data" || (k === "error" && json.error === null))) return false;
  const schema = responseSchema(model, exchange.operation, exchange.response.status)?.schema;
  return (
    isObject(schema) &&
    !(isObject(schema.properties) && "data" in schema.properties) &&
    Array.isArray(schema.required) &&
    schema.required.length > 0
  );
}

/** The documented body of a response: the inner value of an envelope, else the body itself. */
export function payload(model: SpecModel, exchange: Exchange): unknown {
  const json = exchange.response.json;
  return isEnveloped(model, exchange) ? (json as Record<string, unknown>).data : json;
}

/**
 * The schema a response body is held to: that of the documented media type it came as (a range such as `*\/*`
 * read as the type received; the first JSON one when its Content-Type is undocumented, which
 * content_type_conformance reports). `asText`: a `text/*` body, validated as its text even when it parses as
 * JSON. Undefined when there is nothing to validate (no schema, media that is neither JSON nor text, or a JSON
 * body that did not parse).
 */
export function responseBodySchema(
  model: SpecModel,
  exchange: Exchange,
): { pointer: string; asText: boolean } | undefined {
  const { status, json, contentType } = exchange.response;
  const media = model.responseMedia(exchange.operation, status);
  const matched = matchingMedia(media, contentType);
  const kind = matched ? (matched.mediaType.includes("*") ? (contentType ?? "") : matched.mediaType) : "";
  const asText = matched !== undefined && /^text\//i.test(kind) && !isJsonMedia(kind);
  if (matched && !asText && !isJsonMedia(kind)) return undefined;
  const pointer = (
    asText || matched?.schemaPointer ? matched : media.find((m) => m.schemaPointer && isJsonMedia(m.mediaType))
  )?.schemaPointer;
  if (!pointer || (!asText && json === undefined)) return undefined;
  return { pointer, asText };
}

/** The instance-path prefix of the payload inside the body ("/data" for an envelope). */
export function payloadPrefix(model: SpecModel, exchange: Exchange): string {
  return isEnveloped(model, exchange) ? "/data" : "";
}

/** A compact, bounded JSON rendering of a value for reports. */
export function show(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more chars)` : text;
}

/** A value for a finding: itself when small, else a bounded rendering of it (a report never holds a whole body). */
export function bounded(value: unknown, max = 200): unknown {
  return show(value, max).length <= max ? value : show(value, max);
}

/** Quotes a string for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The longest body a curl command carries (the reproduction of a huge body is not useful in a report). */
const MAX_CURL_BODY = 4096;

/**
 * How a recorded request shows a real credential: the variable holding it, or the shell that encodes it (see
 * target.ts).
 */
const CREDENTIAL_TEXT =
  /\$\(printf '%s:?' "\$CONTRACT_(?:SECOND_)?API_KEY" \| base64 -w0\)|\$CONTRACT_(?:SECOND_)?API_KEY\b/g;

/**
 * Quotes a string for a POSIX shell; the credential's variable stays live (in double quotes, everything else
 * escaped), so the command runs as printed where CONTRACT_API_KEY is set and never holds the key.
 */
function shellArg(text: string): string {
  if (!text.match(CREDENTIAL_TEXT)) return shellQuote(text);
  const escaped = (t: string) => t.replace(/[\\"$`]/g, "\\$&");
  let out = "";
  let at = 0;
  for (const m of text.matchAll(CREDENTIAL_TEXT)) {
    out += escaped(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return `"${out}${escaped(text.slice(at))}"`;
}

/** A one-line curl command that reproduces `request` (a real key shows as $CONTRACT_API_KEY). */
function toCurl(request: SentRequest): string {
  const parts = ["curl", "-X", request.method, shellArg(request.url)];
  for (const [name, value] of Object.entries(request.headers)) parts.push("-H", shellArg(`${name}: ${value}`));
  if (request.bodyText !== undefined)
    parts.push(
      "-d",
      shellQuote(
        request.bodyText.length > MAX_CURL_BODY ? `${request.bodyText.slice(0, MAX_CURL_BODY)}…` : request.bodyText,
      ),
    );
  return parts.join(" ");
}

/** The curl command of each request sent (an exchange with many findings, e.g. a listing's members, builds it once). */
const curls = new WeakMap<SentRequest, string>();

/**
 * A finding about `exchange` (the registry adds the check id and the cause): the operation, the curl command and
 * the answer's signature filled in; for a 4xx or 5xx, Received shows the server's words after the status
 * ("status 400 ('username' is a required property) for {}") and `answer` holds the start of its answer.
 */
export function finding(
  exchange: Exchange,
  f: Omit<Finding, "check" | "operation" | "curl" | "signature" | "answer">,
): Omit<Finding, "check"> {
  let curl = curls.get(exchange.request);
  if (curl === undefined) {
    curl = toCurl(exchange.request);
    curls.set(exchange.request, curl);
  }
  const answer = answerOf(exchange);
  return {
    ...f,
    received: withServerWords(f.received, exchange),
    operation: exchange.operation,
    curl,
    signature: signatureOf(exchange),
    ...(answer !== undefined ? { answer } : {}),
  };
}

/** Records that `operation` answered `status` (once per status). */
export function addAnswered(into: Answered, operation: string, status: number): void {
  const list = into[operation] ?? [];
  into[operation] = list;
  if (!list.includes(status)) list.push(status);
}

/**
 * What a failed keyword asks; a failing anyOf/oneOf names its branch closest to the value and what that branch fails.
 */
export function ruleText(err: ErrorObject): string {
  return typeof err.params.closest === "string"
    ? `${err.keyword}: no branch matches; the closest, ${err.params.closest}, fails: ${err.params.closestFails}`
    : `${err.keyword} ${show(err.params, 160)}`;
}
