/**
 * The server under test (the Prism mock or a live server) and the one function that talks to it. It never
 * follows redirects (fetch would carry the key to the Location), reads at most the body limit, holds each
 * request to one deadline over connect, headers, body and decoding, scrubs the keys from everything it
 * records, retries what never reached the server (never once a status line arrived) and 429s, records what
 * went wrong with a body after its status line as the target's (`bodyError`), stops sending when the request
 * budget is spent, and opens a breaker after consecutive requests with no answer or no whole body in time.
 */
import { readLimited, type LimitedBody } from "../../wire/body.js";
import { causeText } from "../../wire/connection.js";
import { createScrubber, type Scrubber } from "../../wire/redact.js";
import { retryAfterMs, sleep } from "../../wire/retry-after.js";
import type { Settings } from "../config/settings.js";
import { PRISM_CRASH_HEADER } from "../../openapi/lib/prism.js";
import { RefusedRequest, requestUrl } from "./boundary.js";
import { prismErrorText } from "./mock-target.js";
import { bodyFailure, charsetFailure } from "./body-error.js";
import type { BodyError, Exchange } from "../model/types.js";
import { carriedHeaders, credentialValue, DEFAULT_WIRE_RULES, encodedForms, type WireRules } from "../model/wire.js";

/** How to authenticate one request. */
export type KeyMode = "valid" | "none" | "empty" | "wrong" | "second";

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

/** Thrown by `send` when the run must stop sending: the scenario is reported as skipped with this reason. */
export class SkipScenario extends Error {
  override name = "SkipScenario";
}

/** The User-Agent of every request the suite sends (the live edge answers some default agents with 403). */
export const USER_AGENT = "webauto-api-contract-suite/1.0";
/** A key no real account has; it is not a secret, so reports print it. */
const WRONG_API_KEY = "contract-suite-wrong-key-0000";
/** Consecutive requests with no HTTP answer after which the breaker opens. */
const BREAKER_THRESHOLD = 3;
/** Retries of a connection that never reached the server, and of a 429. */
const CONNECTION_RETRIES = 2;
const RATE_LIMIT_RETRIES = 3;
/** Body characters kept for a body over the limit (it is not parsed). */
const TRUNCATED_EXCERPT_CHARS = 4096;
/**
 * The deepest nesting of arrays and objects the suite parses. Checks, reports and the worker's messages walk
 * bodies recursively; a hostile body nested deeper is reported by body_size_limit instead of crashing them.
 */
export const MAX_JSON_DEPTH = 512;

/** How deep a JSON text nests arrays and objects (brackets inside strings do not count); linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Codes of the transport (undici) refusing a request it was asked to build: nothing was sent. */
const REFUSED_TO_BUILD = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
]);
const refusedToBuild = (err: TypeError) => REFUSED_TO_BUILD.has(String((err.cause as { code?: unknown })?.code));

/** Errors that mean the request did not get an answer from the server and can be sent again. */
const UNREACHED = /ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed|socket hang up/i;

/** A target: where requests go, the function that sends them, and what it has spent. */
export interface Target {
  kind: Settings["kind"];
  baseUrl: string;
  scrubber: Scrubber;
  send(spec: RequestSpec): Promise<Exchange>;
  /** Requests sent so far (retries included). */
  requestsSent(): number;
  /** Why the target stopped sending (budget or breaker), if it did. */
  stopped(): string | undefined;
}

/** Target settings. */
export type TargetSettings = Pick<
  Settings,
  "kind" | "baseUrl" | "apiKey" | "secondApiKey" | "maxRequests" | "maxBodyBytes" | "timeoutMs"
>;

/** A scrubber for every key of the run (the second account's too), in every form the suite sends it. */
export function runScrubber(settings: Pick<Settings, "apiKey" | "secondApiKey">): Scrubber {
  const keys = [settings.apiKey, settings.secondApiKey].filter((k): k is string => Boolean(k));
  const scrubbers = keys.flatMap((k) => [k, ...encodedForms(k)]).map((k) => createScrubber(k));
  return {
    mayContain: (t) => scrubbers.some((s) => s.mayContain(t)),
    text: (t) => scrubbers.reduce((acc, s) => s.text(acc), t),
    value: (v) => scrubbers.reduce((acc, s) => s.value(acc), v),
  };
}

/**
 * The shell text of a Basic credential read from `variable` (base64 of `user:password`; a key without a colon is the
 * user).
 */
function basicShell(variable: string, secret: string): string {
  return `$(printf '%s${secret.includes(":") ? "" : ":"}' "${variable}" | base64 -w0)`;
}

/**
 * Called when a request got no HTTP response: resolves with the reason when the target was the embedded mock, had
 * died, and serves again (see mock-target.ts), else undefined.
 */
export type Recover = () => Promise<string | undefined>;

/**
 * Builds a target that sends with fetch and records every exchange scrubbed of the keys. `rules` say per
 * operation where the credential goes and what is accepted (from the document; see wire.ts); `recover`, for the
 * embedded mock, starts it again when it died on a request.
 */
export function createTarget(
  settings: TargetSettings,
  rules: WireRules = DEFAULT_WIRE_RULES,
  recover?: Recover,
): Target {
  const scrubber = runScrubber(settings);
  let sent = 0;
  let failuresInARow = 0;
  let stopReason: string | undefined;

  const send = async (spec: RequestSpec): Promise<Exchange> => {
    if (stopReason) throw new SkipScenario(stopReason);
    const enc = (v: string) => encodeURIComponent(v).replace(/%2C/gi, ",");
    const key = spec.key ?? "valid";
    const secret =
      key === "valid"
        ? settings.apiKey
        : key === "second"
          ? settings.secondApiKey
          : key === "wrong"
            ? WRONG_API_KEY
            : key === "empty"
              ? ""
              : undefined;
    // Reports show a probe's credential (wrong or empty: not a secret) and, for a real one, the variable that
    // holds it, so the curl line runs as printed in a shell that has it set and never holds the key itself.
    const variable = key === "second" ? "$CONTRACT_SECOND_API_KEY" : "$CONTRACT_API_KEY";
    const shownSecret = key === "wrong" || key === "empty" ? secret : variable;
    const auth = rules.auth(spec.operation);
    const placements = secret !== undefined && auth.kind === "placed" ? auth.placements : [];
    const bodyText = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    // Only headers the transport can carry as given go; the others are named as the request's doubt.
    const carried = carriedHeaders(
      { accept: rules.accept(spec.operation), "user-agent": USER_AGENT, ...(spec.headers ?? {}) },
      bodyText,
      scrubber.text,
    );
    const headers = carried.headers;
    const wire = { ...headers };
    const shown = { ...headers };
    const wireQuery: Array<[string, string]> = [];
    const shownQuery: Array<[string, string]> = [];
    const cookies: Array<[string, string]> = [];
    for (const p of placements) {
      const value = credentialValue(p, secret!);
      const display =
        p.format === "raw"
          ? shownSecret!
          : p.format === "basic" && shownSecret === variable
            ? `Basic ${basicShell(variable, secret!)}`
            : `${value.split(" ")[0]} ${shownSecret}`;
      if (p.in === "header") {
        wire[p.name.toLowerCase()] = value;
        shown[p.name.toLowerCase()] = display;
      } else if (p.in === "query") {
        wireQuery.push([p.name, value]);
        shownQuery.push([p.name, shownSecret!]);
      } else cookies.push([p.name, value]);
    }
    if (cookies.length) {
      wire.cookie = [wire.cookie, ...cookies.map(([n, v]) => `${n}=${encodeURIComponent(v)}`)]
        .filter(Boolean)
        .join("; ");
      shown.cookie = [shown.cookie, ...cookies.map(([n]) => `${n}=${shownSecret}`)].filter(Boolean).join("; ");
    }
    const pairs = Object.entries(spec.query ?? {}).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((item): [string, string] => [k, item]),
    );
    const query = [
      ...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`),
      ...wireQuery.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
    ].join("&");
    // The request boundary: a URL off the target's origin or base path, or with a dot segment, is never sent.
    let url: string;
    try {
      url = requestUrl(
        settings.baseUrl,
        spec.path,
        query,
        `${spec.method} ${spec.path.slice(0, 200)} of ${spec.operation}`,
      );
    } catch (err) {
      throw err instanceof RefusedRequest ? new SkipScenario(scrubber.text(err.message)) : err;
    }
    const shownQueryText = [
      ...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`),
      ...shownQuery.map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith("$") ? v : encodeURIComponent(v)}`),
    ].join("&");
    const shownUrl = requestUrl(settings.baseUrl, spec.path, shownQueryText, spec.operation);
    if (bodyText !== undefined)
      wire["content-type"] = shown["content-type"] = headers["content-type"] ?? spec.contentType ?? "application/json";
    const request = {
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
    };
    const timeoutMs = spec.timeoutMs ?? settings.timeoutMs;
    const started = Date.now();
    let lastError = "";
    let suiteError = false;
    let mockCrash: string | undefined;
    for (let attempt = 0, rateLimited = 0; ; attempt++) {
      if (sent >= settings.maxRequests) {
        stopReason = `skipped: the request budget of ${settings.maxRequests} is spent (CONTRACT_MAX_REQUESTS)`;
        throw new SkipScenario(stopReason);
      }
      sent++;
      // One deadline for the whole exchange (connect, headers, body, decoding), on a timer this function holds
      // (not AbortSignal.timeout, which the runtime may collect), cleared the moment the exchange ends.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new DOMException("deadline", "TimeoutError")), timeoutMs);
      let res: Response;
      try {
        // Never follow redirects: fetch would carry the key to the Location. A 3xx is recorded as received.
        res = await fetch(url, {
          method: spec.method,
          headers: wire,
          body: bodyText,
          redirect: "manual",
          signal: deadline.signal,
        });
      } catch (err) {
        clearTimeout(timer);
        // fetch refused to build the request (a body on GET, a header value it cannot send): nothing reached the
        // target, so it is the suite's problem, never the target's, and no reason to stop sending.
        if (err instanceof TypeError && (!/fetch failed/i.test(err.message) || refusedToBuild(err))) {
          sent--;
          suiteError = true;
          const why = refusedToBuild(err) ? (err.cause as Error).message : err.message;
          lastError = scrubber.text(`the suite could not send this request: ${why}`);
          break;
        }
        // A network error with no cause of its own (no code, no message) is fetch refusing an answer it received,
        // such as a 407 Proxy Authentication Required: the target answered; the suite cannot read it.
        if (
          err instanceof TypeError &&
          err.cause instanceof Error &&
          !(err.cause as { code?: unknown }).code &&
          !err.cause.message
        ) {
          suiteError = true;
          lastError =
            "the suite could not read the answer: fetch turned it into a network error " +
            "without a cause (it does so for a 407 Proxy Authentication Required)";
          break;
        }
        const timedOut = deadline.signal.aborted;
        lastError = scrubber.text(timedOut ? `no answer within ${timeoutMs} ms (timeout)` : causeText(err));
        if (!timedOut && attempt < CONNECTION_RETRIES && UNREACHED.test(lastError)) {
          await sleep(200 * (attempt + 1));
          continue;
        }
        break;
      }
      // The embedded mock's answer to a request Prism threw on (its process survives it; see prism.ts): no answer of
      // Prism's, a defect of the mock.
      const thrown = recover ? res.headers.get(PRISM_CRASH_HEADER) : null;
      if (thrown !== null) {
        clearTimeout(timer);
        void res.body?.cancel().catch(() => {});
        lastError = "no answer: the Prism mock threw an error it does not catch";
        mockCrash = `the Prism mock threw an error it does not catch: ${prismErrorText(thrown)} (it serves on)`;
        break;
      }
      // The status line and headers arrived: whatever goes wrong from here is the target's, and nothing is sent again.
      // Rate limits are not part of the contract the seed shows: wait (bounded) and try again a few times.
      if (res.status === 429 && rateLimited < RATE_LIMIT_RETRIES) {
        clearTimeout(timer);
        void res.body?.cancel().catch(() => {});
        await sleep(retryAfterMs(res.headers) ?? 1000 * 2 ** rateLimited++);
        continue;
      }
      let read: LimitedBody = { bytes: new Uint8Array(0), total: 0, truncated: false };
      let bodyError: BodyError | undefined;
      try {
        read = await readLimited(res, settings.maxBodyBytes, false, deadline.signal);
      } catch (err) {
        bodyError = bodyFailure(err, res.headers, timeoutMs, deadline.signal.aborted);
        bodyError.detail = scrubber.text(bodyError.detail);
      } finally {
        clearTimeout(timer);
      }
      const { bytes, total, truncated } = read;
      const contentType = res.headers.get("content-type");
      if (!bodyError && !truncated) bodyError = charsetFailure(contentType, bytes);
      // A body that did not arrive whole is not parsed (a charset error keeps its text, with U+FFFD for the bad bytes).
      const raw = bodyError && bodyError.kind !== "charset" ? "" : new TextDecoder().decode(bytes);
      const text = scrubber.text(truncated ? raw.slice(0, TRUNCATED_EXCERPT_CHARS) : raw);
      let json: unknown;
      const depth = truncated || text === "" ? 0 : jsonDepth(text);
      if (!truncated && text !== "" && depth <= MAX_JSON_DEPTH) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      const responseHeaders: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        responseHeaders[name] = scrubber.text(value);
      });
      // A body still unfinished at the deadline costs a whole deadline, as no answer does: it counts toward the
      // breaker.
      if (bodyError?.kind === "timeout") {
        if (++failuresInARow >= BREAKER_THRESHOLD)
          stopReason =
            `skipped: the target stopped answering (${failuresInARow} requests in a row got no complete ` +
            `answer within the deadline; last: status ${res.status}, ${bodyError.detail})`;
      } else failuresInARow = 0;
      const response = {
        status: res.status,
        headers: responseHeaders,
        contentType,
        bodyText: text,
        json,
        bodyBytes: bodyError ? bodyError.bytesRead : total,
        ...(truncated ? { truncated, bodyLimit: settings.maxBodyBytes } : {}),
        ...(depth > MAX_JSON_DEPTH ? { tooDeep: depth } : {}),
        ...(bodyError ? { bodyError } : {}),
        elapsedMs: Date.now() - started,
      };
      return {
        operation: spec.operation,
        request,
        response,
        ...(spec.pairedExample ? { pairedExample: spec.pairedExample } : {}),
      };
    }
    // The embedded mock died on this request (a Prism defect) and serves again: not a target that stopped answering.
    if (!suiteError && !mockCrash && recover) mockCrash = await recover();
    if (mockCrash) failuresInARow = 0;
    else if (!suiteError && ++failuresInARow >= BREAKER_THRESHOLD)
      stopReason =
        `skipped: the target stopped answering (${failuresInARow} requests ` +
        `in a row got no HTTP response; last: ${lastError})`;
    const response = {
      status: 0,
      headers: {},
      contentType: null,
      bodyText: "",
      bodyBytes: 0,
      transportError: lastError,
      ...(suiteError ? { suiteError } : {}),
      ...(mockCrash ? { mockCrash: scrubber.text(mockCrash) } : {}),
      elapsedMs: Date.now() - started,
    };
    return { operation: spec.operation, request, response };
  };
  return {
    kind: settings.kind,
    baseUrl: settings.baseUrl,
    scrubber,
    send,
    requestsSent: () => sent,
    stopped: () => stopReason,
  };
}
