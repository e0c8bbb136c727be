/**
 * The listing's filters, checked before a request is made, and their query form (`status`, `pageSize`).
 */
import { ArgumentError } from "./errors.js";
import type { BrowserRequestState } from "./types.js";

/** Filters of the browser request listing. */
export interface BrowserRequestFilters {
  /** Browser request ids (`brq_...`); sent comma-joined as `ids`. An empty array is refused. */
  ids?: readonly string[];
  /** States; sent comma-joined as `status`. An empty array is refused. */
  states?: readonly BrowserRequestState[];
  /** Items per page (service default 30). */
  pageSize?: number;
  /** 1-based page (default 1); for iteration, the first page. */
  page?: number;
}

/** The query object for openapi-fetch. */
export interface ListingQuery {
  ids?: string[];
  status?: BrowserRequestState[];
  pageSize?: number;
  page?: number;
}

const STATES = new Set<string>(["pending", "running", "completed", "failed"]);

function positiveInteger(name: string, v: unknown): void {
  if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 1)) {
    throw new ArgumentError(name, `must be an integer of at least 1, got ${String(v)}`);
  }
}

/** Validates filters and returns the query (without `page`); an empty id list would list everything, so it is refused. */
export function checkFilters(filters: BrowserRequestFilters): ListingQuery {
  if (filters === null || typeof filters !== "object") throw new ArgumentError("filters", "must be an object");
  const query: ListingQuery = {};
  if (filters.ids !== undefined) {
    if (!Array.isArray(filters.ids) || filters.ids.length === 0) {
      throw new ArgumentError("filters.ids", "must be a non-empty array (an empty filter would list every request); omit it instead");
    }
    filters.ids.forEach((id, i) => {
      if (typeof id !== "string" || !/^brq_[A-Za-z0-9]+$/.test(id)) throw new ArgumentError(`filters.ids[${i}]`, "must match brq_ followed by letters and digits");
    });
    query.ids = [...filters.ids];
  }
  if (filters.states !== undefined) {
    if (!Array.isArray(filters.states) || filters.states.length === 0) {
      throw new ArgumentError("filters.states", "must be a non-empty array of pending, running, completed, failed; omit it instead");
    }
    filters.states.forEach((s, i) => {
      if (!STATES.has(s)) throw new ArgumentError(`filters.states[${i}]`, `must be one of pending, running, completed, failed, got ${String(s)}`);
    });
    query.status = [...filters.states];
  }
  positiveInteger("filters.pageSize", filters.pageSize);
  positiveInteger("filters.page", filters.page);
  if (filters.pageSize !== undefined) query.pageSize = filters.pageSize;
  return query;
}
