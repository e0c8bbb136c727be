/**
 * Every exchange of the run as a HAR 1.2 archive (contract-exchanges.har), to replay it or open it in a browser's
 * network panel. Written through the run's scrubber like every report: credentials show as the variable that holds
 * them ($CONTRACT_API_KEY), and a secret a server echoed is replaced in every encoding. Types: `@types/har-format`.
 */
import { STATUS_CODES } from "node:http";
import type { Entry, Har, Header } from "har-format";
import type { Exchange } from "../model/types.js";

/** An exchange of the run and when its request started (ms since the epoch). */
export interface TimedExchange {
  exchange: Exchange;
  started: number;
}

const headersOf = (headers: Record<string, string>): Header[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry; a request without an HTTP answer has status 0 and says why in `_error`. */
function entryOf({ exchange, started }: TimedExchange): Entry {
  const { request, response, operation } = exchange;
  const url = new URL(request.url);
  const queryString = [...url.searchParams].map(([name, value]) => ({ name, value }));
  const contentType = Object.entries(request.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  const elapsed = Math.max(0, response.elapsedMs);
  const why = response.transportError ?? response.bodyError?.detail;
  return {
    startedDateTime: new Date(started).toISOString(),
    time: elapsed,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(request.headers),
      queryString,
      ...(request.bodyText !== undefined ? { postData: { mimeType: contentType ?? "", text: request.bodyText } } : {}),
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
        text: response.bodyText,
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
