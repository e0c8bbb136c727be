/** Shared data shapes of the contract suite: exchanges, check contexts and findings. */
import type { SpecModel } from "./model.js";
import type { SkipReason } from "./skip.js";

/** A request as the suite sends it; the API key is already redacted in `headers`. */
export interface SentRequest {
  method: string;
  /** Full URL including the query string. */
  url: string;
  /** The path after the base URL (the operation's path template, filled in). */
  path: string;
  /** Serialised query values (an exploded array is a list of values). */
  query: Record<string, string | string[]>;
  /** The path parameters' values, by name (for `$request.path.*` link expressions). */
  pathParams?: Record<string, unknown>;
  headers: Record<string, string>;
  /**
   * Which credential it carried (see KeyMode in transport/request.ts); headers show a real key as
   * $CONTRACT_API_KEY.
   */
  key?: "valid" | "none" | "empty" | "wrong" | "second" | "forged-signature" | "alg-none" | `account-${number}`;
  /** Raw body text, when one was sent. */
  bodyText?: string;
  /** The JSON value sent, when the body was JSON. */
  json?: unknown;
  /** Why the request on the wire does not carry what the suite chose (a header the transport cannot send as given). */
  doubt?: string;
}

/**
 * The status line and headers of a response arrived, but its body could not be read as they describe it: the
 * target's fault (response_readable reports it). `encoding`: not in its Content-Encoding; `cut`: the
 * connection ended mid-body (fewer bytes than its Content-Length, a chunked body unfinished); `timeout`: still
 * unfinished at the request's deadline; `charset`: declared UTF-8 (JSON is) and not.
 */
export interface BodyError {
  kind: "encoding" | "cut" | "timeout" | "charset";
  /** What went wrong, with the decoder's or the connection's own error. */
  detail: string;
  /** The bytes that arrived before it went wrong (decoded bytes when the body has a Content-Encoding). */
  bytesRead: number;
}

/**
 * The request went unanswered while the server stopped answering (an outage: the probes after it got no answer
 * either). Every request unanswered in one outage carries its `id`; the culprit (the one sent first) carries how
 * long the server was down (from its sending to the last probe), how many probes that took, and whether it
 * answered again. The others are not sent again and have no finding of their own: they are the culprit's.
 */
export type OutageRecord =
  | { id: number; culprit: false }
  | { id: number; culprit: true; downMs: number; probes: number; recovered: boolean };

/** A response as received; `status` 0 means no HTTP answer (see `transportError`). */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  /** The Content-Type header, or null when absent. */
  contentType: string | null;
  /** The body text (at most the suite's body limit; `truncated` says when it was cut). */
  bodyText: string;
  /** The parsed body when it is valid JSON; undefined otherwise. */
  json?: unknown;
  /** Bytes received (counting stops at the limit). */
  bodyBytes: number;
  /** The body was larger than the suite's limit: only its beginning was kept, and it was not parsed. */
  truncated?: boolean;
  /** The limit it was larger than, in bytes. */
  bodyLimit?: number;
  /** The body nests arrays and objects deeper than the suite parses (MAX_JSON_DEPTH): it was not parsed. */
  tooDeep?: number;
  /** The body could not be read as its headers describe it (the status and headers are real). */
  bodyError?: BodyError;
  /** Why no HTTP answer came (e.g. `fetch failed (ECONNREFUSED)`, `timeout after 30000 ms`). */
  transportError?: string;
  /**
   * The suite's own transport could not send the request (a body fetch refuses on a GET), or fetch would not
   * hand over the answer (a 407, which it turns into a network error without a cause): the suite's problem,
   * never the target's. Whatever goes wrong after a status line arrived is the target's (`bodyError`).
   */
  suiteError?: boolean;
  /**
   * The embedded Prism mock died on this request (Prism's uncaught error and where it was thrown) and was started
   * again: a defect of the mock, neither the document's nor a server's.
   */
  mockCrash?: string;
  /** The request was lost to an outage of the server (see OutageRecord). */
  outage?: OutageRecord;
  /**
   * The credential of an account the user gave, which had worked, was refused on this request, and logging in again
   * failed: the run lost the account (credentials_lost reports it once; the scenarios that need it stop).
   */
  credentialsLost?: CredentialsLostRecord;
  elapsedMs: number;
}

/** How the run lost an account's credentials (see ReceivedResponse.credentialsLost). */
export interface CredentialsLostRecord {
  /** The account, as the variable a report shows for it (`$CONTRACT_USERNAME`). */
  account: string;
  /** Why logging in again did not give a working credential. */
  why: string;
  /** The writes answered 2xx just before (latest first, `METHOD /path (operation, as account)`): the likely cause. */
  changedBy: string[];
}

/** One request and its response. */
export interface Exchange {
  /** The operationId of the document. */
  operation: string;
  request: SentRequest;
  response: ReceivedResponse;
  /** The name of the documented example pair this request sent (a request and a 2xx response example share it). */
  pairedExample?: string;
  /** Not sent: a documented response example checked against the document itself. */
  documented?: boolean;
}

/** What the suite meant by a request; checks that do not apply to the intent return nothing. */
export type Intent =
  | "acceptance" // a valid request: must be accepted (2xx, or a documented non-4xx)
  | "conforming" // a valid request whose answer need only be documented (e.g. an unreachable site)
  | "rejection" // data the document rules out: must get a 4xx
  | "no-key" // sent without the API key: must get a 4xx
  | "empty-key" // sent with an empty API key: must get a 4xx
  | "wrong-key" // sent with a wrong key: must get a 4xx
  | "unknown-resource" // a well-formed identifier that does not exist
  | "after-delete" // a resource a successful delete just removed: must get a 4xx
  | "other-account" // another account's identifiers, with the second account's key
  | "foreign-write" // another account's update or delete of a resource the run's own account created: must get a 4xx
  | "revoked-credential" // the credential of an account the run deleted: must get a 4xx, never a 2xx or 5xx
  | "forged-credential" // the run's own token forged (signature altered, alg none): must get a 4xx
  | "unsupported-method"; // a method the document does not list for the path (only unsupported_method judges it)

/** Everything a check may read besides the exchange itself. */
export interface CheckContext {
  intent: Intent;
  /** The document the exchange is judged against. */
  model: SpecModel;
  /**
   * CONTRACT_STRICT=1: undocumented response properties and envelopes are errors, and every refusal of input
   * the document rules out is held, whether or not the operation documents a response for it.
   */
  strict: boolean;
  /** The target answers from state (a live server), not with static examples (the mock). */
  live: boolean;
  /** For rejections: whether the document demands one ("error") or only implies it ("warning"). */
  demand?: "error" | "warning";
  /**
   * For rejections: the input cannot be told apart from a valid request (an empty value, read as absent), so
   * its refusal is never demanded, not even under strict.
   */
  ambiguous?: boolean;
  /**
   * Why the suite's own request is in doubt (e.g. a documented example that breaks its own schema): a refusal
   * of it breaks no promise, so what would be an error about it is a warning naming this.
   */
  inDoubt?: string;
  /** What made a rejection request invalid, e.g. `missing required member url`. */
  mutation?: string;
  /**
   * The input that sets this request apart, as the engine names it: which parameter or member and which class
   * of value ("query parameter page: the 64-bit edge 9223372036854775808", "required member url left out"). The
   * registry stamps it (else `mutation`) on every finding as `Finding.cause`, part of the finding's identity.
   */
  cause?: string;
  /** Other exchanges of the same scenario (e.g. every page of a walk), in order. */
  related?: ReadonlyArray<Exchange>;
  /**
   * Listings asked with one filter value each (the same scenario): a listing asked with several must hold their
   * records.
   */
  alone?: ReadonlyArray<Exchange>;
  /** Ids that must all appear in a filtered listing (they exist on the account). */
  expectIds?: ReadonlyArray<string>;
  /** Identifiers that belong to another account and must not be returned. */
  foreignIds?: ReadonlyArray<string>;
  /** The request was fed by this OpenAPI link from a successful response. */
  linked?: string;
  /** The promise of that link (see promise.ts linkPointer): links are known by operation, response and name. */
  linkPromise?: string;
  /** That link is the suite's inference, not written in the document: what it feeds is no promise of the document. */
  linkInferred?: boolean;
  /** For after-delete requests: the delete operation whose success removed the resource. */
  deletedBy?: string;
  /** A read of a resource the run just created or updated: members that must read back as they were written. */
  readBack?: ReadBack;
  /** The owner's read after another account's write: what it sent, what the resource held before, where it is. */
  foreignWrite?: WriteEffect & { deleted?: boolean; lockedOut?: boolean };
  /** The caller's own resource read after an update addressed to another: it must not hold what the update sent. */
  misdirected?: WriteEffect & { addressed: string };
  /** A create or update: the members it sent that its answer declares, and where the resource's object is. */
  wrote?: Pick<ReadBack, "members" | "pointer">;
  /** An answer or a read after a write that sent members the server owns: none may hold the value sent. */
  owned?: OwnedWrite;
  /** A listing right after a create: the identifier that must be in it. */
  listed?: {
    id: unknown;
    /** JSON pointer of the items array in the listing's body, and of the identifier in an item. */
    pointer: string;
    member: string;
    /** The page holds the whole collection (no paging, or fewer items than the page size asked). */
    complete: boolean;
    createdBy: string;
  };
  /**
   * A listing right after a create the server refused (4xx or 5xx): nothing the refusal left may be in it
   * (refused_create_leak).
   */
  refusedCreate?: {
    /** The create's operationId and the status it answered. */
    by: string;
    status: number;
    /** JSON pointer of the items array in the listing's body, and of the identifier in an item. */
    pointer: string;
    member: string;
    /** The identifiers (as JSON) the listing held just before the refused create. */
    before: readonly string[];
    /** The identifiers (as JSON) of the family's resources the run itself created: never left by the refusal. */
    own: readonly string[];
    /** The page holds the whole collection (no paging, or fewer items than the page size asked). */
    complete: boolean;
    /** Why a new item cannot be told from another client's create (the listing changed with no create between). */
    busy?: string;
  };
  /**
   * A write that carried a hostile string in a body member, or the read of the resource after it (the hostile phase):
   * the member must read back exactly as `sent` (hostile_input).
   */
  hostile?: {
    member: string;
    sent: string;
    /** JSON pointer of the member's schema in the request body: the promise that let the string through. */
    pointer: string;
    /** JSON pointer of the resource's object in the answer ("" for the body itself). */
    object: string;
    /** This exchange is the read of the resource after the write, not the write's own answer. */
    read?: boolean;
    /** What the member held before the write (an update's read before it): shown again, the write did not take. */
    before?: unknown;
    /** The class of its string (`template markers`), named in the finding. */
    what?: string;
    /**
     * The other body members the same write carried a hostile string in (the hostile phase puts one in every
     * member): each is judged as this one is.
     */
    others?: ReadonlyArray<{ member: string; sent: string; pointer: string; before?: unknown; what?: string }>;
  };
  /** For unknown-resource requests: where the unknown identifier went. */
  unknownIn?: "path" | "query" | "header";
  /** For unknown-resource requests: the identifier is valid against its parameter's schema (a 404, not a 400). */
  wellFormed?: boolean;
  /** The request targeted a site that cannot be reached (CONTRACT_UNAVAILABLE_URL). */
  unreachableSite?: boolean;
}

/** A write whose effect a later read is judged for: the operation, the members sent, the values before. */
export interface WriteEffect {
  by: string;
  sent: Record<string, unknown>;
  before: Record<string, unknown>;
  /** JSON pointer of the resource's object in the read's answer ("" for the body itself). */
  pointer: string;
}

/** What a read must show: members (by name) of the object at `pointer` in the read's body, and where they come from. */
export interface ReadBack {
  /** `created` (resource_availability) or `updated` (update_persisted). */
  after: "created" | "updated";
  /** The operation that wrote them. */
  writer: string;
  members: Record<string, unknown>;
  /** JSON pointer of the resource's object in the read's body ("" for the body itself). */
  pointer: string;
}

/** A write that sent members the server owns (the owned-members phase), as its answer or a read must show it. */
export interface OwnedWrite {
  /** The operation that sent them. */
  writer: string;
  /** JSON pointer of the resource's object in the body ("" for the body itself). */
  pointer: string;
  members: ReadonlyArray<{
    name: string;
    sent: unknown;
    /** What the server had set (undefined: it showed none). */
    before: unknown;
    /** Why it is the server's, in a few words (`readOnly`, or in no request schema of the family). */
    rule: string;
    /** The `readOnly` keyword's place, or the writer's request schema that does not declare it. */
    promise: string;
  }>;
}

/** Severity of a finding: errors fail the run, warnings are only reported. */
export type Severity = "error" | "warning";

/**
 * Why a rule a check saw broken is not held this time (the finding is a warning): checks name it, and
 * checks/severity.ts decides from it. CONTRACT_STRICT=1 holds `document-silent`, `implied-rule` and `strict-only`.
 */
export interface Leniency {
  because:
    | "in-doubt" // the request on the wire is not what the suite built, or the document's example breaks its schema
    | "document-silent" // the document promises no such answer (no refusal documented, say)
    | "implied-rule" // the document only names the rule (a format or pattern), without saying it is enforced
    | "indistinguishable" // the input cannot be told apart from a valid request (an empty value)
    | "inferred-link" // the link is the suite's inference, not the document's
    | "partial-view" // what the suite saw may not be the whole (a page of a listing)
    | "server-limit" // the server may have a limit the document does not show (an undocumented 4xx)
    // the operation documents this refusal as a condition of its own (no privilege, a conflict)
    | "documented-condition"
    | "strict-only"; // only strict mode holds it (undocumented members, an envelope)
  /** Why, in a few words, added to the finding's Documented line; none when that line says it already. */
  why?: string;
}

/** One broken promise, as data (never an exception). */
export interface Finding {
  check: string;
  severity: Severity;
  /** The operationId. */
  operation: string;
  title: string;
  received: string;
  documented: string;
  schemaPath?: string;
  instancePath?: string;
  value?: unknown;
  /** A curl command reproducing the request, key redacted. */
  curl: string;
  /**
   * The promise the finding holds the server to: a JSON pointer into the document (`#/paths/...`, read as the
   * suite reads the document, upgraded to OpenAPI 3.1) or a definite statement of the interface. Every error
   * has one: the registry makes an error without one a warning.
   */
  promise?: string;
  /** Why a rule the check saw broken is only a warning this time (see checks/severity.ts). */
  lenient?: Leniency;
  /** How often this finding occurred (the same failure at several positions or in several exchanges). */
  count?: number;
  /**
   * A stable id of the kind of finding within its check (e.g. "5xx", "accepted"); baselines match by it. Absent:
   * the title's slug stands in (see finding-identity.ts ruleOf).
   */
  rule?: string;
  /** The input that caused it (`CheckContext.cause`, else `mutation`), stamped by the registry. */
  cause?: string;
  /**
   * The answer's signature, computed by `finding()`: status, media type and, for a 4xx or 5xx, the server's words
   * with numbers, ids and quoted values masked ("500 application/json: User N not found").
   */
  signature?: string;
  /** For a 4xx or 5xx: the start of the server's answer (its first 8 KiB), as received (scrubbed of keys). */
  answer?: string;
  /**
   * The inputs (causes, as the engine named them) of its occurrences, distinct, in order (at most 100; `count` says
   * how many occurrences in all): one finding per answer, however many inputs get it.
   */
  inputs?: string[];
  /** The operations it occurred on, distinct, in order (`operation` is the first): an answer in the same words. */
  operations?: string[];
  /** The other checks' findings on the same response, noted under this one (one response, one finding). */
  also?: string[];
  /** The request again, as data, with what the check knew of it: `--replay` sends it and re-runs the check. */
  replay?: Replay;
}

/** A finding's request as `--replay` re-sends it (credentials are placed again from the environment). */
export interface Replay {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Headers other than the credential, Accept, User-Agent and Content-Type (the target sets those). */
  headers: Record<string, string>;
  bodyText?: string;
  contentType?: string;
  key: NonNullable<SentRequest["key"]>;
  /** The check context, without other exchanges (a check that needs them is judged on this exchange alone). */
  context: Pick<
    CheckContext,
    | "intent"
    | "demand"
    | "mutation"
    | "linked"
    | "linkPromise"
    | "linkInferred"
    | "deletedBy"
    | "unknownIn"
    | "wellFormed"
    | "hostile"
    | "unreachableSite"
  >;
}

/** A check: a small pure function returning the findings it sees (none on a pass). The registry stamps `check`. */
export type Check = (exchange: Exchange, ctx: CheckContext) => Array<Omit<Finding, "check">>;

/** Answered statuses by operation, as a scenario result records them. */
export type Answered = Record<string, number[]>;

/** The outcome of one scenario. */
export interface ScenarioResult {
  id: string;
  operation: string;
  phase: string;
  title: string;
  status: "passed" | "failed" | "skipped";
  skipReason?: string;
  /** The same reason, typed (reach groups operations by its kind). */
  skip?: SkipReason;
  /** Every finding (warnings included); those the baseline accepts are in `accepted` instead. */
  findings: Finding[];
  accepted: Finding[];
  exchanges: number;
  /** Requests the scenario sent (retries not counted). */
  sent?: number;
  /** The statuses answered per operation, for the reach of the run (absent when none was answered). */
  answered?: Answered;
  /** Requests the target had sent when the scenario ended (the run's total is the last one). */
  requestsSent?: number;
  /** An internal error of the scenario (a bug of the suite, not a finding). */
  error?: string;
  /**
   * Why the scenario was not run, or not to its end: the target stopped sending (request budget spent, breaker open).
   */
  notRun?: string;
  /** What the scenario tells the reader besides findings (the clean-up: what was created and left behind). */
  notes?: string[];
}
