/**
 * listBrowserRequests: the paging arithmetic, the filters and a walk over pages (seed 4.3 and 8), on top of
 * the generic phases. The filter values come from the document (the state enum) and from the account.
 */
import { baseValues, toRequest, type Values } from "../engine/requests.js";
import { planOf } from "../engine/plan.js";
import type { Scenario, ScenarioContext } from "../engine/scenario.js";
import { NEEDS_LIVE, skip } from "../engine/skip.js";
import type { Exchange } from "../model/types.js";
import { statement } from "../model/promise.js";
import * as c from "./listing-checks.js";
import type { ContractModule } from "./types.js";

const OP = "listBrowserRequests";
/** A walk reads at most this many pages, so a large account stays cheap. */
const MAX_PAGES = 10;

function request(ctx: ScenarioContext, query: Record<string, unknown>) {
  const op = ctx.model.operation(OP);
  const b = baseValues(ctx.model, ctx.settings, op);
  if ("skip" in b) skip(b.skip);
  const values: Values = { ...b.values, query: { ...b.values.query, ...query } };
  return toRequest(op, values);
}

async function walk(ctx: ScenarioContext): Promise<void> {
  const first = c.listingPage(await ctx.send(request(ctx, {})));
  const pageSize = Math.min(30, Math.max(2, Math.ceil(Number(first?.total_records ?? 0) / MAX_PAGES)));
  const pages: Exchange[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const ex = await ctx.send(request(ctx, { pageSize, page }));
    pages.push(ex);
    // Stop by total_records, not total_pages: a wrong total_pages is its own finding and must not cut the walk short.
    const data = c.listingPage(ex);
    if (
      !data ||
      !Array.isArray(data.results) ||
      data.results.length === 0 ||
      page * pageSize >= Number(data.total_records)
    )
      break;
  }
  ctx.verdict.check(pages.at(-1)!, ["listing_pages_disjoint"], { related: pages });
}

async function statusFilter(ctx: ScenarioContext): Promise<void> {
  const param = planOf(ctx.model.operation(OP)).parameters.query.get("status");
  const states = (ctx.model.deref(ctx.model.deref(param?.schema, "").schema?.items, "").schema?.enum ?? []) as string[];
  if (states.length === 0) skip("skipped: the document lists no states for the status filter");
  const singles: Exchange[] = [];
  for (const state of states) singles.push(await ctx.send(request(ctx, { status: [state] })));
  // Two states together, both with records where the account has them: each must come back (asked both ways).
  const held = states.filter((_, i) => Number(c.listingPage(singles[i]!)?.total_records) > 0);
  const pair = held.length >= 2 ? held.slice(-2) : states.slice(-2);
  await ctx.send(request(ctx, { status: pair }), { alone: singles });
}

async function idsFilter(ctx: ScenarioContext): Promise<void> {
  const first = c.listingPage(await ctx.send(request(ctx, {})));
  const ids = c
    .listingResults(first ?? {})
    .filter((r) => r.id !== null && r.id !== undefined)
    .map((r) => String(r.id))
    .slice(0, 3);
  if (ids.length === 0) skip("skipped: needs browser requests on the account");
  await ctx.send(request(ctx, { ids }), { expectIds: ids });
  await ctx.send(request(ctx, { ids: ids.slice(0, 1) }), { expectIds: ids.slice(0, 1) });
}

const live = (settings: { kind: string }) => (settings.kind === "mock" ? { skip: NEEDS_LIVE } : {});

/** The listing module. */
export const listingModule: ContractModule = {
  operationId: OP,
  checks: {
    listing_defaults: {
      fn: c.listingDefaults,
      promise: statement("8", "Default page size 30; Default page number 1 (pages are 1-based)"),
    },
    listing_total_pages: {
      fn: c.listingTotalPages,
      promise: statement(
        "4.3",
        "total_pages: Number of pages available; total_records: Total " +
          "records across all pages; page_size: Records per page",
      ),
    },
    listing_error_null: {
      fn: c.listingErrorNull,
      promise: statement(
        "4.3",
        "Response 200: JSON object with two members, data and error (error is null on success)",
      ),
    },
    listing_page_size: {
      fn: c.listingPageSize,
      relational: true,
      promise: statement(
        "4.3",
        "page: Page returned (1-based); page_size: Records per page; Items per page (default 30)",
      ),
    },
    listing_status_filter: {
      fn: c.listingStatusFilter,
      relational: true,
      promise: statement("4.3", "Retrieves browser requests in bulk by identifier or by state"),
    },
    listing_ids_filter: {
      fn: c.listingIdsFilter,
      relational: true,
      promise: statement("4.3", "Retrieves browser requests in bulk by identifier or by state"),
    },
    listing_pages_disjoint: {
      fn: c.listingPagesDisjoint,
      relational: true,
      promise: statement("4.3", "total_records: Total records across all pages; page: Page returned (1-based)"),
    },
  },
  scenarios: (_model, settings): Scenario[] => [
    {
      id: `${OP}/walk`,
      operation: OP,
      phase: "semantics",
      title: `semantics: up to ${MAX_PAGES} pages do not overlap and together hold total_records records`,
      ...live(settings),
      run: walk,
    },
    {
      id: `${OP}/status-filter`,
      operation: OP,
      phase: "semantics",
      title:
        "semantics: the status filter, one state at a time and two together " +
        "(nothing outside the filter, records of each asked state)",
      ...live(settings),
      run: statusFilter,
    },
    {
      id: `${OP}/ids-filter`,
      operation: OP,
      phase: "semantics",
      title: "semantics: the ids filter returns exactly the existing ids asked for",
      ...live(settings),
      run: idsFilter,
    },
  ],
};
