/**
 * Every exchange of the run as a HAR 1.2 archive (contract-exchanges.har), to replay it or open it in a browser's
 * network panel. Written through the run's scrubber like every report: credentials show as the variable that holds
 * them ($CONTRACT_API_KEY), and a secret a server echoed is replaced in every encoding. Credentials the run did not
 * configure are left out too: a token or password member of a body (the answer of a token endpoint the run called as
 * an operation, a throwaway account's password), any JWT, a cookie's value. Types: `@types/har-format`.
 */
import { STATUS_CODES } from "node:http";
import type { Entry, Har, Header } from "har-format";
import type { Exchange } from "../model/types.js";

/** An exchange of the run and when its request started (ms since the epoch). */
export interface TimedExchange {
  exchange: Exchange;
  started: number;
}

/** What the archive shows instead of a credential. */
const HIDDEN = "***";

/** Members and form fields that hold a credential, by name. */
const CREDENTIAL_NAME = new RegExp(
  "^(?:(?:access|refresh|id|auth|session|bearer|api)[_-]?token|token|password|passwd|pass|secret|" +
    "client[_-]?secret|api[_-]?key|apikey)$",
  "i",
);

/** A JSON Web Token (three base64url parts, the first a JSON header). */
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;

/** Headers whose value is a credential or a session. */
const CREDENTIAL_HEADER = /^(?:set-cookie|cookie|authorization|proxy-authorization)$/i;

/** A value with its credential members hidden, at any depth. */
function hiddenIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hiddenIn);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      CREDENTIAL_NAME.test(k) && v !== null && v !== "" ? HIDDEN : hiddenIn(v),
    ]),
  );
}

/** A body's text with its credentials hidden: members of a JSON body, fields of a form, and any JWT. */
function bodyText(text: string, mimeType: string): string {
  let out = text;
  if (/json/i.test(mimeType)) {
    try {
      out = JSON.stringify(hiddenIn(JSON.parse(text)));
    } catch {}
  } else if (/x-www-form-urlencoded/i.test(mimeType)) {
    const form = new URLSearchParams(text);
    for (const key of [...form.keys()]) if (CREDENTIAL_NAME.test(key)) form.set(key, HIDDEN);
    out = form.toString();
  }
  return out.replace(JWT, HIDDEN);
}

const headersOf = (headers: Record<string, string>): Header[] =>
  Object.entries(headers).map(([name, value]) => ({
    name,
    // A credential the suite sent shows as its variable ($CONTRACT_API_KEY), which stays.
    value: CREDENTIAL_HEADER.test(name) && !value.includes("$") ? HIDDEN : value.replace(JWT, HIDDEN),
  }));

/** One exchange as a HAR entry; a request without an HTTP answer has status 0 and says why in `_error`. */
function entryOf({ exchange, started }: TimedExchange): Entry {
  const { request, response, operation } = exchange;
  const url = new URL(request.url);
  const queryString = [...url.searchParams].map(([name, value]) => ({
    name,
    value: CREDENTIAL_NAME.test(name) && !value.includes("$") ? HIDDEN : value.replace(JWT, HIDDEN),
  }));
  if (queryString.some((q, i) => q.value !== [...url.searchParams.values()][i]))
    url.search = new URLSearchParams(queryString.map((q) => [q.name, q.value])).toString();
  const contentType = Object.entries(request.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  const elapsed = Math.max(0, response.elapsedMs);
  const why = response.transportError ?? response.bodyError?.detail;
  return {
    startedDateTime: new Date(started).toISOString(),
    time: elapsed,
    request: {
      method: request.method,
      url: (url.search === new URL(request.url).search ? request.url : url.href).replace(JWT, HIDDEN),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(request.headers),
      queryString,
      ...(request.bodyText !== undefined
        ? { postData: { mimeType: contentType ?? "", text: bodyText(request.bodyText, contentType ?? "") } }
        : {}),
      headersSize: -1,
      bodySize: request.bodyText !== undefined ? Buffer.byteLength(request.bodyText) : 0,
    },
    response: {
      status: response.status,
      statusText: (response.status && STATUS_CODES[response.status]) || "",
      httpVersion: response.status ? "HTTP/1.1" : "",
      cookies: [],
      headers: headersOf(response.headers),
      content: {
        size: response.bodyBytes,
        mimeType: response.contentType ?? "",
        text: bodyText(response.bodyText, response.contentType ?? ""),
        ...(response.truncated ? { comment: `cut at the suite's body limit of ${response.bodyLimit} bytes` } : {}),
      },
      redirectURL: response.headers.location ?? "",
      headersSize: -1,
      bodySize: response.status ? response.bodyBytes : -1,
      ...(why ? { _error: why } : {}),
    },
    cache: {},
    timings: { send: 0, wait: elapsed, receive: 0 },
    comment: operation,
  };
}

/** The archive of `exchanges`, in the order their requests started. */
export function formatHar(exchanges: readonly TimedExchange[]): Har {
  const ordered = [...exchanges].sort((a, b) => a.started - b.started);
  return {
    log: {
      version: "1.2",
      creator: { name: "webauto-api-contract-suite", version: "1.0" },
      entries: ordered.map(entryOf),
    },
  };
}
