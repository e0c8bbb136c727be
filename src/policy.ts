/**
 * What the document cannot say, per operation: the one hand-written table of policy, keyed by operationId.
 * Operations without an entry get the defaults (standard retries, bare bodies, the generic status mapping).
 */
import { RequestTimeoutError, SiteUnavailableError, type ApiError, type ApiErrorInit } from "./errors.js";
import type { RetryMode } from "./retry.js";

/** A status that means something specific for one operation: its error class and a message prefix. */
export interface StatusRefinement {
  error: new (init: ApiErrorInit, summary?: string) => ApiError;
  summary: string;
}

/** The policy of one operation. */
export interface OperationPolicy {
  /** Retry mode when the caller does not choose one (default "standard"). */
  retryMode?: RetryMode;
  /** The live service may wrap the 2xx body as `{"data": ...}` although the document shows it bare. */
  tolerateDataEnvelope?: boolean;
  /** Statuses with a specific meaning for this operation. */
  statuses?: Readonly<Record<number, StatusRefinement>>;
}

/** The per-operation policy table. */
export const POLICY: Readonly<Record<string, OperationPolicy>> = {
  // A sitemap read bills a credit and may run 60 s: retry only what provably did no work (see RetryMode).
  createSitemapRequest: {
    retryMode: "conservative",
    tolerateDataEnvelope: true,
    statuses: {
      408: { error: RequestTimeoutError, summary: "sitemap timed out after 60 s" },
      503: { error: SiteUnavailableError, summary: "site unavailable" },
    },
  },
  updateDataSchema: { tolerateDataEnvelope: true },
};
