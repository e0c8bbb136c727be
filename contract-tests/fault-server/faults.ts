/** The catalogue of faults the local server can inject, each with the checks that must catch it. */
import type { CheckId } from "../checks/index.js";

/**
 * Fault name -> the checks that must report an error when the whole suite runs against it (`catches`), and
 * the others that legitimately report the same fault from another angle (`alsoFlags`). Any other failing
 * check would be a false positive.
 */
export const FAULTS = {
  "string-field-types": { catches: ["field_type_discrepancy", "response_schema_conformance"] },
  "colliding-type-codes": { catches: ["field_type_discrepancy"] },
  "reordered-fields": { catches: ["field_tree_pairing"] },
  "wrong-schema-id": { catches: ["schema_update_echo"] },
  "undocumented-status": { catches: ["status_code_conformance"] },
  "wrong-id-prefix": { catches: ["response_schema_conformance"], alsoFlags: ["positive_data_acceptance"] },
  "missing-required-field": { catches: ["response_schema_conformance"] },
  "html-content-type": { catches: ["content_type_conformance"] },
  "link-count-mismatch": { catches: ["sitemap_link_count"] },
  "always-from-cache": { catches: ["sitemap_cache_disabled"] },
  "unreachable-answers-200": { catches: ["sitemap_unreachable"] },
  "server-error-on-bad-input": { catches: ["not_a_server_error", "negative_data_rejection"], alsoFlags: ["status_code_conformance"] },
  "accepts-invalid-input": { catches: ["negative_data_rejection"], alsoFlags: ["response_schema_conformance"] },
  "rejects-valid-input": { catches: ["positive_data_acceptance"] },
  "ignores-auth": { catches: ["ignored_auth"] },
  "wrong-key-accepted": { catches: ["ignored_auth"] },
  "wrong-total-pages": { catches: ["listing_total_pages"] },
  "wrong-defaults": { catches: ["listing_defaults"], alsoFlags: ["listing_page_size"] },
  "short-pages": { catches: ["listing_page_size"], alsoFlags: ["listing_pages_disjoint"] },
  "overlapping-pages": { catches: ["listing_pages_disjoint"], alsoFlags: ["listing_page_size"] },
  "ignores-status-filter": { catches: ["listing_status_filter"] },
  "ignores-ids-filter": { catches: ["listing_ids_filter"] },
  "error-not-null": { catches: ["listing_error_null"], alsoFlags: ["response_schema_conformance"] },
} satisfies Record<string, { catches: CheckId[]; alsoFlags?: CheckId[] }>;

/** A fault name. */
export type Fault = keyof typeof FAULTS;
