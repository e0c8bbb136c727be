/**
 * The server under test (the Prism mock or a live server) and the one function that talks to it, in named
 * steps: build the request (request.ts), send it (one deadline over connect, headers, body and decoding; no
 * redirect followed; what never reached the server and 429s sent again), read and decode the body
 * (response.ts), and classify how the exchange ended. Each request passes the gate (gate.ts: at most N in flight,
 * the budget, a 429's pause for every sender); one that gets no whole answer in time goes to the outage watch
 * (outage.ts: a probe tells its own failure from a server that stopped answering, whose culprit it finds). It
 * scrubs the keys from everything it records, records what went wrong with a body after its status line as the
 * target's (`bodyError`), and stops sending when the request budget is spent or the server does not come back.
 * Safe under concurrent calls of `send`.
 */
import { startDeadline } from "../../wire/deadline.js";
import { fetchFailure } from "../../wire/connection.js";
import type { Scrubber } from "../../wire/redact.js";
import { retryAfterMs, sleep } from "../../wire/retry-after.js";
import type { Settings } from "../config/settings.js";
import { PRISM_CRASH_HEADER } from "../../openapi/lib/prism.js";
import { RefusedRequest, requestUrl } from "./boundary.js";
import { prismErrorText } from "./mock-target.js";
import type { Exchange, OutageRecord } from "../model/types.js";
import { DEFAULT_WIRE_RULES, type WireRules } from "../model/wire.js";
import {
  type Account,
  Credentials,
  CredentialsLost,
  loginVariable,
  RunScrubber,
  settingsSecrets,
} from "./credentials.js";
import { buildRequest, USER_AGENT, type BuiltRequest, type RequestSpec } from "./request.js";
import { decodeBody, MAX_JSON_DEPTH, readBody, recordedResponse, unanswered, type Outcome } from "./response.js";
import { decodeUtf8, parseJson } from "../../wire/decode.js";
import { Gate, NotSent, type Ticket } from "./gate.js";
import { OutageWatch } from "./outage.js";

export { USER_AGENT, type RequestSpec } from "./request.js";
export { MAX_JSON_DEPTH };
export { NotSent, SkipScenario } from "./gate.js";

/** Retries of a connection that never reached the server, and of a 429. */
const CONNECTION_RETRIES = 2;
const RATE_LIMIT_RETRIES = 3;

/** How one attempt ended: an outcome, or a reason to send the request again. */
type Attempt = Outcome | { kind: "resend" } | { kind: "rate-limited"; waitMs: number | undefined };

/** A target: where requests go, the function that sends them, and what it has spent. */
export interface Target {
  kind: Settings["kind"];
  baseUrl: string;
  scrubber: Scrubber;
  /** The credentials it sends, by account (the engine adds the tokens it gets by logging in). */
  credentials: Credentials;
  send(spec: RequestSpec): Promise<Exchange>;
  /**
   * Sends a request whose answer holds a secret (a login's token): `find` reads it from the answer as it arrived,
   * before any scrubbing (a scrubbed answer holds `***` where a secret the run already knows is, and a login within
   * the second of another may answer the very same token), and the scrubber learns it before the exchange is
   * recorded. Resolves with the exchange (scrubbed, the secret included) and the secret found, if any.
   */
  sendForSecret(
    spec: RequestSpec,
    find: (json: unknown) => string | undefined,
  ): Promise<{ exchange: Exchange; secret: string | undefined }>;
  /** Requests sent so far (retries included). */
  requestsSent(): number;
  /** Why the target stopped sending (the budget, a server that stopped answering), if it did. */
  stopped(): string | undefined;
}

/** Target settings; `workers`, the most requests in flight at once, is 1 unless given. */
export type TargetSettings = Pick<
  Settings,
  "kind" | "baseUrl" | "apiKey" | "secondApiKey" | "maxRequests" | "maxBodyBytes" | "timeoutMs"
> &
  Partial<Pick<Settings, "workers" | "logins">>;

/**
 * A scrubber for every secret of the run (keys, passwords, client secrets; the tokens it gets are added as it gets
 * them), in every form the suite sends it.
 */
export function runScrubber(
  settings: Pick<Settings, "apiKey" | "secondApiKey"> & Partial<Pick<Settings, "logins">>,
): RunScrubber {
  return new RunScrubber(settingsSecrets(settings));
}

/** The account whose credential a key mode sends, if any. */
const accountOf = (key: RequestSpec["key"]): Account | undefined =>
  key === undefined || key === "valid"
    ? "valid"
    : key === "second" || key.startsWith("account-")
      ? (key as Account)
      : undefined;

/**
 * Called when a request got no HTTP response: resolves with the reason when the target was the embedded mock, had
 * died, and serves again (see mock-target.ts), else undefined.
 */
export type Recover = () => Promise<string | undefined>;

/** How the target probes a server that may have stopped answering (see outage.ts). */
export interface TargetOptions {
  /**
   * The path the probe asks for, without a credential: the preflight's (the first safe operation without path
   * parameters); the base URL when absent or refused by the request boundary.
   */
  probePath?: string;
}

/**
 * Builds a target that sends with fetch and records every exchange scrubbed of the keys. `rules` say per
 * operation where the credential goes and what is accepted (from the document; see wire.ts); `recover`, for the
 * embedded mock, starts it again when it died on a request; `options`, how it probes a server that stops answering.
 */
export function createTarget(
  settings: TargetSettings,
  rules: WireRules = DEFAULT_WIRE_RULES,
  recover?: Recover,
  options: TargetOptions = {},
): Target {
  const scrubber = runScrubber(settings);
  const credentials = new Credentials(settings, scrubber);
  const gate = new Gate(settings.workers ?? 1, settings.maxRequests);

  /**
   * The outage watch's probe: a GET of the probe path without a credential (refused before any work, so never
   * billed); true when a status line arrives within `timeoutMs` (its body is not read). A connection closed before
   * any answer (a kept-alive one the server dropped) is asked once more.
   */
  const probe = async (timeoutMs: number): Promise<boolean> => {
    let url: string;
    try {
      url = requestUrl(settings.baseUrl, options.probePath ?? "/", "", "the outage probe");
    } catch {
      url = requestUrl(settings.baseUrl, "/", "", "the outage probe");
    }
    for (let attempt = 0; ; attempt++) {
      const deadline = startDeadline(timeoutMs);
      try {
        const res = await fetch(url, {
          method: "GET",
          redirect: "manual",
          headers: { "user-agent": USER_AGENT },
          signal: deadline.signal,
        });
        void res.body?.cancel().catch(() => {});
        return true;
      } catch (err) {
        const failure = fetchFailure(err, deadline.timedOut());
        if (failure.kind === "failed" && failure.resendable && attempt === 0) continue;
        return failure.kind === "withheld";
      } finally {
        deadline.dispose();
      }
    }
  };
  const watch = new OutageWatch(gate, probe, settings.timeoutMs);

  /**
   * The send step, one attempt: one fetch under one deadline over the whole exchange, never following a redirect
   * (fetch would carry the key to the Location; a 3xx is recorded as received). It ends in an outcome, or asks to
   * be sent again: a connection that failed before any answer (`mayResend`), a 429 (`mayWait`: rate limits are not
   * part of the contract; waited out, bounded).
   */
  const attemptOnce = async (
    built: BuiltRequest,
    timeoutMs: number,
    ticket: Ticket,
    { mayResend, mayWait }: { mayResend: boolean; mayWait: boolean },
  ): Promise<Attempt> => {
    const deadline = startDeadline(timeoutMs);
    let res: Response;
    try {
      res = await fetch(built.url, {
        method: built.method,
        headers: built.headers,
        body: built.body,
        redirect: "manual",
        signal: deadline.signal,
      });
    } catch (err) {
      deadline.dispose();
      const failure = fetchFailure(err, deadline.timedOut());
      if (failure.kind === "refused") {
        // Nothing reached the target: the suite's problem, never the target's, and no request of the budget.
        gate.settle(ticket, false);
        return { kind: "suite", error: scrubber.text(`the suite could not send this request: ${failure.why}`) };
      }
      if (failure.kind === "withheld")
        return {
          kind: "suite",
          error:
            "the suite could not read the answer: fetch turned it into a network error " +
            "without a cause (it does so for a 407 Proxy Authentication Required)",
        };
      if (failure.kind === "timeout") return { kind: "no-answer", error: `no answer within ${timeoutMs} ms (timeout)` };
      if (failure.resendable && mayResend) return { kind: "resend" };
      return { kind: "no-answer", error: scrubber.text(failure.cause) };
    }
    // The embedded mock's answer to a request Prism threw on (its process survives it; see prism.ts): no answer of
    // Prism's, a defect of the mock.
    const thrown = recover ? res.headers.get(PRISM_CRASH_HEADER) : null;
    if (thrown !== null || (res.status === 429 && mayWait)) {
      deadline.dispose();
      void res.body?.cancel().catch(() => {});
      if (thrown === null) return { kind: "rate-limited", waitMs: retryAfterMs(res.headers) };
      return {
        kind: "mock-crash",
        error: "no answer: the Prism mock threw an error it does not catch",
        crash: `the Prism mock threw an error it does not catch: ${prismErrorText(thrown)} (it serves on)`,
      };
    }
    // The status line and headers arrived: whatever goes wrong from here is the target's, and nothing is sent again.
    const read = await readBody(res, settings.maxBodyBytes, deadline, timeoutMs, scrubber);
    return { kind: "answered", res, read, body: decodeBody(res.headers.get("content-type"), read, scrubber) };
  };

  /**
   * Every attempt of one request, each admitted by the gate first: a connection that never reached the server is
   * sent again twice, a 429 waited out three times (the pause holds every sender: the server's limit is the run's).
   * An attempt sent again is settled here; the last one's ticket comes back with its outcome, still on the wire for
   * the gate until the outage watch has been told how it ended (so an outage that begins meanwhile waits for it).
   */
  const deliver = async (built: BuiltRequest, timeoutMs: number): Promise<{ outcome: Outcome; ticket: Ticket }> => {
    for (let attempt = 0, rateLimited = 0; ; attempt++) {
      const ticket = await gate.admit();
      let result: Attempt | undefined;
      try {
        result = await attemptOnce(built, timeoutMs, ticket, {
          mayResend: attempt < CONNECTION_RETRIES,
          mayWait: rateLimited < RATE_LIMIT_RETRIES,
        });
      } finally {
        if (result === undefined || result.kind === "resend" || result.kind === "rate-limited") {
          watch.done(ticket, false);
          gate.settle(ticket);
        }
      }
      if (result.kind === "resend") await sleep(200 * (attempt + 1));
      else if (result.kind === "rate-limited") {
        gate.pause(result.waitMs ?? 1000 * 2 ** rateLimited);
        rateLimited++;
      } else return { outcome: result, ticket };
    }
  };

  /**
   * The classify step: a request with no answer may be the embedded mock dying on it (a Prism defect, started again:
   * not a target that stopped answering); one that got no whole answer in time goes to the outage watch, which says
   * whether it was lost to an outage of the server.
   */
  const classify = async (outcome: Outcome): Promise<Outcome> => {
    if (outcome.kind !== "no-answer" || !recover) return outcome;
    const crash = await recover();
    return crash ? { kind: "mock-crash", error: outcome.error, crash } : outcome;
  };

  /**
   * Tells the outage watch how the exchange ended (at once: an outage that begins after this no longer waits for
   * it); resolves with what the watch says of it: lost to an outage (its record), or nothing.
   */
  const watched = (spec: RequestSpec, outcome: Outcome, ticket: Ticket): Promise<OutageRecord | undefined> => {
    if (!unanswered(outcome)) {
      watch.done(ticket, outcome.kind !== "suite");
      return Promise.resolve(undefined);
    }
    return watch.unanswered({
      ticket,
      what: `${spec.method} ${spec.path.slice(0, 200)} (${spec.operation})`,
      detail:
        outcome.kind === "answered"
          ? `status ${outcome.res.status}, ${outcome.body.bodyError!.detail}`
          : outcome.kind === "no-answer"
            ? outcome.error
            : "",
      statusLine: outcome.kind === "answered",
    });
  };

  /**
   * The secret an answer holds, read by `find` from its body as it arrived (never the scrubbed copy); the scrubber
   * learns it, and the body is decoded again so the exchange records it scrubbed.
   */
  const secretIn = (outcome: Outcome, find: (json: unknown) => string | undefined): string | undefined => {
    if (outcome.kind !== "answered" || outcome.read.truncated || outcome.body.bodyError) return undefined;
    const { json } = parseJson(decodeUtf8(outcome.read.bytes), MAX_JSON_DEPTH);
    const secret = find(json);
    if (secret === undefined) return undefined;
    scrubber.add(secret);
    outcome.body = decodeBody(outcome.res.headers.get("content-type"), outcome.read, scrubber);
    return secret;
  };

  /** The last writes answered 2xx (latest last), as `METHOD /path (operation, as account)`: a loss names them. */
  const writes: string[] = [];
  const noteWrite = (ex: Exchange) => {
    const { method, path, key } = ex.request;
    if (["GET", "HEAD", "OPTIONS", "TRACE"].includes(method.toUpperCase()) || !accountOf(key)) return;
    if (ex.response.status < 200 || ex.response.status >= 300) return;
    writes.push(`${method} ${path.slice(0, 120)} (${ex.operation}, as ${loginVariable((key ?? "valid") as Account)})`);
    if (writes.length > 5) writes.shift();
  };

  const send = (spec: RequestSpec): Promise<Exchange> => sendOnce(spec, false);
  const resend = (spec: RequestSpec): Promise<Exchange> => sendOnce(spec, true);
  const sendForSecret = async (spec: RequestSpec, find: (json: unknown) => string | undefined) => {
    const found: { secret?: string } = {};
    const exchange = await sendOnce(spec, false, (outcome) => {
      found.secret = secretIn(outcome, find);
    });
    return { exchange, secret: found.secret };
  };
  const sendOnce = async (
    spec: RequestSpec,
    renewed: boolean,
    beforeRecording?: (outcome: Outcome) => void,
  ): Promise<Exchange> => {
    const stop = gate.stopped();
    if (stop) throw new NotSent(stop);
    // The account whose credential the request carries: none for an operation that takes no credential (a login's
    // 401 to a wrong password says nothing of the run's own token).
    const account = rules.auth(spec.operation).kind === "placed" ? accountOf(spec.key) : undefined;
    if (account && credentials.isLost(account)) throw new CredentialsLost(credentials.lostText(account));
    const carried = account ? credentials.of(account)?.secret : undefined;
    let built: BuiltRequest;
    try {
      built = buildRequest(spec, { baseUrl: settings.baseUrl, credentials, rules, scrubber });
    } catch (err) {
      throw err instanceof RefusedRequest ? new NotSent({ kind: "boundary", text: scrubber.text(err.message) }) : err;
    }
    const leave = await gate.enter();
    let exchange: Exchange;
    try {
      const started = Date.now();
      const { outcome: delivered, ticket } = await deliver(built, spec.timeoutMs ?? settings.timeoutMs);
      let outcome: Outcome;
      let verdict: Promise<OutageRecord | undefined>;
      try {
        outcome = await classify(delivered);
        verdict = watched(spec, outcome, ticket);
      } catch (err) {
        watch.done(ticket, false);
        throw err;
      } finally {
        gate.settle(ticket);
      }
      beforeRecording?.(outcome);
      const response = recordedResponse(outcome, settings.maxBodyBytes, Date.now() - started, scrubber);
      const outage = await verdict;
      exchange = {
        operation: spec.operation,
        request: built.sent,
        response: outage ? { ...response, outage } : response,
        ...(outcome.kind === "answered" && spec.pairedExample ? { pairedExample: spec.pairedExample } : {}),
      };
    } finally {
      leave();
    }
    // Out of the gate (the login and the request sent again take places of their own): a credential that worked and
    // is now refused has expired, so the account logs in again once and the request goes again.
    // How the credential the request carried was answered (one renewed meanwhile says nothing of the new one).
    if (account && carried === credentials.of(account)?.secret) credentials.answered(account, exchange.response.status);
    noteWrite(exchange);
    if (
      account &&
      exchange.response.status === 401 &&
      !renewed &&
      (await credentials.renewAfterRefusal(account, carried))
    )
      return resend(spec);
    // Refused, and logging in again failed: the first request to find out reports the loss; the others stop.
    const lost = account && exchange.response.status === 401 ? credentials.lost(account) : undefined;
    if (lost && !lost.first) throw new CredentialsLost(credentials.lostText(account!));
    if (lost)
      return {
        ...exchange,
        response: {
          ...exchange.response,
          credentialsLost: { account: loginVariable(account!), why: lost.why, changedBy: [...writes].reverse() },
        },
      };
    return exchange;
  };
  return {
    kind: settings.kind,
    baseUrl: settings.baseUrl,
    scrubber,
    credentials,
    send,
    sendForSecret,
    requestsSent: () => gate.sent(),
    stopped: () => gate.stopped()?.text,
  };
}
