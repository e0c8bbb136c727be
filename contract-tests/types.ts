/** Shared data shapes of the contract suite: exchanges, check contexts and violations. */

/** The operations of the document the suite covers. */
export type OperationId = "createSitemapRequest" | "updateDataSchema" | "listBrowserRequests";

/** A request as the suite sends it; the API key is already redacted in `headers`. */
export interface SentRequest {
  method: string;
  /** Full URL including the query string. */
  url: string;
  /** Path after the base URL, e.g. `/v1/site/map`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Raw body text, when one was sent. */
  bodyText?: string;
  /** The JSON value sent, when the body was JSON. */
  json?: unknown;
}

/** A response as received; `status` 0 means no HTTP answer (see `transportError`). */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  /** The Content-Type header, or null when absent. */
  contentType: string | null;
  bodyText: string;
  /** The parsed body when it is valid JSON; undefined otherwise. */
  json?: unknown;
  transportError?: string;
  elapsedMs: number;
}

/** One request and its response. */
export interface Exchange {
  operation: OperationId;
  request: SentRequest;
  response: ReceivedResponse;
}

/** What the suite meant by a request; checks that do not apply to the intent return nothing. */
export type Intent =
  | "conforming" // a valid request; the answer must be documented
  | "acceptance" // generated valid data: must be accepted (2xx or a documented non-4xx)
  | "rejection" // data the seed rules out: must get a 4xx
  | "no-key" // sent without the API key: must get a 4xx
  | "wrong-key"; // sent with a wrong key: must get a 4xx

/** Everything a check may read besides the exchange itself. */
export interface CheckContext {
  intent: Intent;
  /** Undocumented response properties are errors rather than warnings (CONTRACT_STRICT=1). */
  strict: boolean;
  /** Other exchanges of the same scenario (e.g. every page of a walk), in order. */
  related?: ReadonlyArray<Exchange>;
  /** Ids that must all appear in a filtered listing (they exist on the account). */
  expectIds?: ReadonlyArray<string>;
  /** The request targeted a site that cannot be reached (CONTRACT_UNAVAILABLE_URL). */
  unreachableSite?: boolean;
}

/** Severity of a violation: errors fail the run, warnings are only reported. */
export type Severity = "error" | "warning";

/** One broken promise, as data (never an exception). */
export interface Violation {
  check: string;
  severity: Severity;
  operation: OperationId;
  title: string;
  received: string;
  documented: string;
  schemaPath?: string;
  instancePath?: string;
  value?: unknown;
  /** A curl command reproducing the request, key redacted. */
  curl: string;
}

/** A check: a small pure function returning the violations it finds (none on a pass). */
export type Check = (exchange: Exchange, ctx: CheckContext) => Violation[];
