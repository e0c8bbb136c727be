/** The one registry of checks: the key is the check's id in reports, test names and self-tests. */
import type { Check, CheckContext, Exchange, Violation } from "../types.js";
import { contentTypeConformance } from "./content-type-conformance.js";
import { fieldTreePairing } from "./field-tree-pairing.js";
import { fieldTypeDiscrepancy } from "./field-type-discrepancy.js";
import { ignoredAuth } from "./ignored-auth.js";
import { listingDefaults } from "./listing-defaults.js";
import { listingErrorNull } from "./listing-error-null.js";
import { listingIdsFilter } from "./listing-ids-filter.js";
import { listingPageSize } from "./listing-page-size.js";
import { listingPagesDisjoint } from "./listing-pages-disjoint.js";
import { listingStatusFilter } from "./listing-status-filter.js";
import { listingTotalPages } from "./listing-total-pages.js";
import { negativeDataRejection } from "./negative-data-rejection.js";
import { notAServerError } from "./not-a-server-error.js";
import { positiveDataAcceptance } from "./positive-data-acceptance.js";
import { statusCodeConformance } from "./status-code-conformance.js";
import { responseEnvelope } from "./response-envelope.js";
import { responseSchemaConformance } from "./response-schema-conformance.js";
import { schemaUpdateEcho } from "./schema-update-echo.js";
import { sitemapCacheDisabled } from "./sitemap-cache-disabled.js";
import { sitemapLinkCount } from "./sitemap-link-count.js";
import { sitemapLinksSorted } from "./sitemap-links-sorted.js";
import { sitemapUnreachable } from "./sitemap-unreachable.js";
import { undocumentedProperties } from "./undocumented-properties.js";

/** Every check, by id. */
export const CHECKS = {
  not_a_server_error: notAServerError,
  status_code_conformance: statusCodeConformance,
  content_type_conformance: contentTypeConformance,
  response_schema_conformance: responseSchemaConformance,
  undocumented_properties: undocumentedProperties,
  response_envelope: responseEnvelope,
  ignored_auth: ignoredAuth,
  negative_data_rejection: negativeDataRejection,
  positive_data_acceptance: positiveDataAcceptance,
  listing_defaults: listingDefaults,
  listing_total_pages: listingTotalPages,
  listing_page_size: listingPageSize,
  listing_error_null: listingErrorNull,
  listing_status_filter: listingStatusFilter,
  listing_ids_filter: listingIdsFilter,
  listing_pages_disjoint: listingPagesDisjoint,
  sitemap_link_count: sitemapLinkCount,
  sitemap_links_sorted: sitemapLinksSorted,
  sitemap_cache_disabled: sitemapCacheDisabled,
  sitemap_unreachable: sitemapUnreachable,
  field_type_discrepancy: fieldTypeDiscrepancy,
  field_tree_pairing: fieldTreePairing,
  schema_update_echo: schemaUpdateEcho,
} satisfies Record<string, Check>;

/** A check id. */
export type CheckId = keyof typeof CHECKS;

/** The checks every exchange gets, whatever the scenario (Schemathesis's defaults, plus the envelope). */
export const RESPONSE_CHECKS: CheckId[] = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "undocumented_properties",
  "response_envelope",
];

/** Runs the named checks on one exchange and returns every violation found. */
export function runChecks(ids: ReadonlyArray<CheckId>, exchange: Exchange, ctx: CheckContext): Violation[] {
  return ids.flatMap((id) => CHECKS[id](exchange, ctx));
}
