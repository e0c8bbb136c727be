/**
 * The listing's filters under friendly names (`states` for the document's `status`), checked against the
 * document's parameter constraints (generated) before any request is made.
 */
import { ROUTES } from "../generated/routes.js";
import { ArgumentError } from "./errors.js";
import { checkValue, type Constraints } from "./routes.js";
import type { BrowserRequestState } from "./types.js";

/** Filters of the browser request listing. */
export interface BrowserRequestFilters {
  /**
   * Browser request ids (`brq_...`); sent comma-joined as `ids`. An empty array is refused (it would list
   * everything).
   */
  ids?: readonly string[];
  /** States; sent comma-joined as `status`. An empty array is refused. */
  states?: readonly BrowserRequestState[];
  /** Items per page (service default 30). */
  pageSize?: number;
  /** 1-based page (default 1); for iteration, the first page. */
  page?: number;
}

/** Friendly filter name to the document's query parameter name. */
const NAMES = { ids: "ids", states: "status", pageSize: "pageSize", page: "page" } as const;

/** Checks the filters and returns the query by the document's names (`page` left out unless `withPage`). */
export function listingQuery(filters: BrowserRequestFilters, withPage = true): Record<string, unknown> {
  if (filters === null || typeof filters !== "object") throw new ArgumentError("filters", "must be an object");
  const params = ROUTES.listBrowserRequests.query as Record<string, { schema: Constraints }>;
  const query: Record<string, unknown> = {};
  for (const [friendly, name] of Object.entries(NAMES)) {
    const value = filters[friendly as keyof BrowserRequestFilters];
    if (value === undefined || (friendly === "page" && !withPage)) continue;
    checkValue(`filters.${friendly}`, value, params[name]?.schema ?? {});
    query[name] = Array.isArray(value) ? [...value] : value;
  }
  return query;
}
