/** The catalogue of faults the local server can inject, each with the checks that must catch it. */
import type { PhaseId } from "../model/phases.js";

/** What a fault must produce: the checks that must fail (`catches`) and others that see it too (`alsoFlags`). */
export interface FaultExpectation {
  /**
   * The phases that reach it: its run in npm test selects only these (a whole run reaches it too, and its other
   * phases are held to no false alarm by the whole runs against the conforming and lenient servers), so that the
   * matrix of some fifty runs stays within the test's time.
   */
  phases: PhaseId[];
  catches: string[];
  alsoFlags?: string[];
  /** Only a document with `GET /v1/browser/requests/{id}` (the self-test's copy) exercises it. */
  needsById?: boolean;
  /** Needs the second account's key. */
  needsSecondKey?: boolean;
  /**
   * Caught only under CONTRACT_STRICT=1: the refusal it skips is one the document does not promise (no 400,
   * 422, 415, 4XX or default error response), so by default it is a warning.
   */
  strict?: boolean;
  /** The run's request deadline (CONTRACT_TIMEOUT_MS), for a fault that makes requests wait for it. */
  timeoutMs?: number;
}

/**
 * Fault name -> the checks that must report an error when the whole suite runs against it. Any other failing
 * check would be a false positive.
 */
export const FAULTS = {
  // One response, one finding: the schema breaks its string types make are noted under the module's finding.
  "string-field-types": {
    phases: ["examples"],
    catches: ["field_type_discrepancy"],
    alsoFlags: ["response_schema_conformance"],
  },
  "colliding-type-codes": { phases: ["examples"], catches: ["field_type_discrepancy"] },
  "reordered-fields": { phases: ["examples"], catches: ["field_tree_pairing"] },
  "wrong-schema-id": { phases: ["examples"], catches: ["schema_update_echo"] },
  // A lost write: a description sent and answered as null (null is no claim where the server derives a value, but
  // an update's answer that drops what the client just wrote is lost data).
  "description-dropped": { phases: ["examples"], catches: ["schema_update_echo"] },
  "undocumented-status": { phases: ["examples"], catches: ["status_code_conformance"] },
  "wrong-id-prefix": {
    phases: ["examples"],
    catches: ["response_schema_conformance"],
    alsoFlags: ["positive_data_acceptance", "resource_availability"],
  },
  "missing-required-field": { phases: ["examples"], catches: ["response_schema_conformance"] },
  "html-content-type": { phases: ["examples"], catches: ["content_type_conformance"] },
  "link-count-mismatch": { phases: ["examples"], catches: ["sitemap_link_count"] },
  "wrong-sitemap-url": { phases: ["examples"], catches: ["sitemap_url_echo"] },
  "always-from-cache": { phases: ["positive"], catches: ["sitemap_cache_disabled"] },
  "unreachable-answers-200": { phases: ["semantics"], catches: ["sitemap_unreachable"] },
  "server-error-on-bad-input": {
    phases: ["negative"],
    // One answer ("boom") to every invalid input of every operation: one finding, each input an occurrence; the
    // invalid input not refused is noted under it. An identifier past the 64-bit edge is bad input too: its 500 is
    // also an unknown identifier not refused.
    catches: ["not_a_server_error"],
    alsoFlags: ["negative_data_rejection", "status_code_conformance", "content_type_conformance", "unknown_resource"],
  },
  "accepts-invalid-input": {
    phases: ["negative"],
    catches: ["negative_data_rejection"],
    alsoFlags: [
      "response_schema_conformance",
      "field_tree_pairing",
      "schema_update_echo",
      "sitemap_link_count",
      "listing_page_size",
    ],
  },
  "ignores-content-type": {
    phases: ["negative"],
    catches: ["negative_data_rejection"],
    alsoFlags: ["undocumented_properties"],
    strict: true,
  },
  "rejects-valid-input": { phases: ["examples"], catches: ["positive_data_acceptance"] },
  "rejects-boundary-page-size": { phases: ["positive"], catches: ["positive_data_acceptance"] },
  "ignores-auth": { phases: ["auth"], catches: ["ignored_auth"] },
  "empty-key-accepted": { phases: ["auth"], catches: ["ignored_auth"] },
  "wrong-key-accepted": { phases: ["auth"], catches: ["ignored_auth"] },
  "wrong-total-pages": { phases: ["examples"], catches: ["listing_total_pages"] },
  "wrong-defaults": { phases: ["examples"], catches: ["listing_defaults"], alsoFlags: ["listing_page_size"] },
  "short-pages": { phases: ["examples"], catches: ["listing_page_size"], alsoFlags: ["listing_pages_disjoint"] },
  "overlapping-pages": { phases: ["semantics"], catches: ["listing_pages_disjoint"], alsoFlags: ["listing_page_size"] },
  "ignores-status-filter": { phases: ["examples"], catches: ["listing_status_filter"] },
  "ignores-ids-filter": {
    phases: ["examples", "positive"],
    catches: ["listing_ids_filter"],
    alsoFlags: ["unknown_resource"],
  },
  "existing-ids-404": {
    phases: ["examples", "links"],
    catches: ["resource_availability"],
    alsoFlags: ["positive_data_acceptance", "status_code_conformance"],
  },
  "error-not-null": {
    phases: ["examples"],
    catches: ["listing_error_null"],
    alsoFlags: ["response_schema_conformance"],
  },
  "leaks-other-accounts": { phases: ["isolation"], catches: ["account_isolation"], needsSecondKey: true },
  "by-id-missing-field": { phases: ["examples"], catches: ["response_schema_conformance"], needsById: true },
  "by-id-unknown-200": { phases: ["unknown-ids"], catches: ["unknown_resource"], needsById: true },
  "by-id-ignores-auth": { phases: ["examples", "auth"], catches: ["ignored_auth"], needsById: true },
  // Caught by the edges phase's large valid values (the positive phase keeps integers near their default).
  "large-page-size-500": { phases: ["edges"], catches: ["not_a_server_error"] },
  // Caught by the document's state rules (BrowserRequest and Action allOf if/then), with no module code.
  "pending-completed-at": { phases: ["examples"], catches: ["response_schema_conformance"] },
  "wait-output": { phases: ["examples"], catches: ["response_schema_conformance"] },
  // Faults of the wire after the status line, in the listing's answers (see TRANSPORT_FAULTS): the target's errors.
  "bad-gzip": { phases: ["examples"], catches: ["response_readable"] },
  "bad-deflate": { phases: ["examples"], catches: ["response_readable"] },
  "bad-br": { phases: ["examples"], catches: ["response_readable"] },
  "cut-body": { phases: ["examples"], catches: ["response_readable"] },
  "long-content-length": { phases: ["examples"], catches: ["response_readable"] },
  // fetch reads the declared bytes and drops the rest: what it keeps is cut JSON (see docs/contract-suite.md).
  "short-content-length": { phases: ["examples"], catches: ["content_type_conformance"] },
  "non-utf8-json": { phases: ["examples"], catches: ["response_readable"] },
  "stalled-body": { phases: ["examples"], catches: ["response_readable"], timeoutMs: 1000 },
  // A documented 500 (the copy lists one for the get-by-id) describes a failure; it does not allow one.
  "documented-500": { phases: ["examples"], catches: ["not_a_server_error"], needsById: true },
  // The listing fails whatever it is asked: the failure of the base is reported, not a missing validation per invalid
  // input.
  "base-request-500": { phases: ["examples"], catches: ["not_a_server_error"] },
  // Value classes: null for a nullable member, text outside ASCII, a 64-bit page number, several states in one filter.
  "null-cache-age-500": { phases: ["edges"], catches: ["not_a_server_error"] },
  "non-ascii-500": { phases: ["edges"], catches: ["not_a_server_error"] },
  "int64-page-500": { phases: ["edges"], catches: ["not_a_server_error"] },
  "first-status-only": { phases: ["semantics"], catches: ["listing_status_filter"] },
  // Wrong JSON types: a body of JSON null or a number where an object is expected, and null, true or an array where
  // the string member url is expected, answer 500 (an integer there is refused with 400, as the suite used to send).
  "non-object-body-500": { phases: ["negative"], catches: ["not_a_server_error"] },
  "wrong-type-member-500": { phases: ["negative"], catches: ["not_a_server_error"] },
} satisfies Record<string, FaultExpectation>;

/** The faults the server injects on the wire, in the listing's answers, after a correct status line and headers. */
export const TRANSPORT_FAULTS = [
  "bad-gzip",
  "bad-deflate",
  "bad-br",
  "cut-body",
  "long-content-length",
  "short-content-length",
  "non-utf8-json",
  "stalled-body",
] as const satisfies ReadonlyArray<keyof typeof FAULTS>;

/** A fault name. */
export type Fault = keyof typeof FAULTS;
