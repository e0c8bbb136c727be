/**
 * listBrowserRequests: the paging arithmetic, the filters and a walk over pages (seed 4.3 and 8), on top of
 * the generic phases. The filter values come from the document (the state enum) and from the account.
 */
import { toRequest, type Values } from "../engine/requests.js";
import { baseValues } from "../engine/values.js";
import { planOf } from "../engine/plan.js";
import type { Scenario, ScenarioContext } from "../engine/scenario.js";
import { isSkip, needs, reason, type Outcome, type SkipReason } from "../model/skip.js";
import type { Exchange } from "../model/types.js";
import type { RequestSpec } from "../transport/target.js";
import { statement } from "../model/promise.js";
import * as c from "./listing-checks.js";
import type { ContractModule } from "./types.js";

const OP = "listBrowserRequests";
/** A walk reads at most this many pages, so a large account stays cheap. */
const MAX_PAGES = 10;

/** The listing's base request with `query` over its query, or why there is none. */
function request(ctx: ScenarioContext, query: Record<string, unknown>) {
  const op = ctx.model.operation(OP);
  const b = baseValues(ctx.model, ctx.settings, op);
  if (isSkip(b)) return b;
  const values: Values = { ...b, query: { ...b.query, ...query } };
  return toRequest(op, values);
}

async function walk(ctx: ScenarioContext): Promise<Outcome> {
  const base = request(ctx, {});
  if (isSkip(base)) return base;
  const first = c.listingPage(await ctx.send(base));
  const pageSize = Math.min(30, Math.max(2, Math.ceil(Number(first?.total_records ?? 0) / MAX_PAGES)));
  // The pages the first answer's total_records says there are go out together (a walk is no chain of requests:
  // each page's number is known); the walk then reads them in order as a client would, and goes on one page at a
  // time where the last still says there are more.
  const expected = Math.min(MAX_PAGES, Math.max(1, Math.ceil(Number(first?.total_records ?? 0) / pageSize) || 1));
  const specs: RequestSpec[] = [];
  for (let page = 1; page <= expected; page++) {
    const spec = request(ctx, { pageSize, page });
    if (isSkip(spec)) return spec;
    specs.push(spec);
  }
  const sent = await ctx.sendAll(specs.map((spec, i) => ({ spec, judge: { cause: `page ${i + 1} of a walk` } })));
  const pages: Exchange[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    let ex = sent[page - 1];
    if (!ex) {
      const spec = request(ctx, { pageSize, page });
      if (isSkip(spec)) return spec;
      ex = await ctx.send(spec, { cause: `page ${page} of a walk` });
    }
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
  return undefined;
}

async function statusFilter(ctx: ScenarioContext): Promise<Outcome> {
  const param = planOf(ctx.model.operation(OP)).parameters.query.get("status");
  const states = (ctx.model.deref(ctx.model.deref(param?.schema, "").schema?.items, "").schema?.enum ?? []) as string[];
  if (states.length === 0) return reason("not-applicable", "the document lists no states for the status filter");
  const asked = states.map((state) => request(ctx, { status: [state] }));
  const skipped = asked.find(isSkip);
  if (skipped) return skipped;
  const singles: Exchange[] = await ctx.sendAll(
    asked.map((spec, i) => ({ spec: spec as RequestSpec, judge: { cause: `the status filter ${states[i]}` } })),
  );
  // Two states together, both with records where the account has them: each must come back (asked both ways).
  const held = states.filter((_, i) => Number(c.listingPage(singles[i]!)?.total_records) > 0);
  const pair = held.length >= 2 ? held.slice(-2) : states.slice(-2);
  const both = request(ctx, { status: pair });
  if (isSkip(both)) return both;
  await ctx.send(both, { alone: singles, cause: "two states in one filter" });
  return undefined;
}

async function idsFilter(ctx: ScenarioContext): Promise<Outcome> {
  const base = request(ctx, {});
  if (isSkip(base)) return base;
  const first = c.listingPage(await ctx.send(base));
  const ids = c
    .listingResults(first ?? {})
    .filter((r) => r.id !== null && r.id !== undefined)
    .map((r) => String(r.id))
    .slice(0, 3);
  if (ids.length === 0) return reason("needs-records", "needs browser requests on the account");
  const many = request(ctx, { ids });
  const one = request(ctx, { ids: ids.slice(0, 1) });
  if (isSkip(many)) return many;
  if (isSkip(one)) return one;
  await ctx.sendAll([
    { spec: many, judge: { expectIds: ids, cause: "the ids filter with several ids" } },
    { spec: one, judge: { expectIds: ids.slice(0, 1), cause: "the ids filter with one id" } },
  ]);
  return undefined;
}

const live = (settings: { kind: string }): { skip?: SkipReason } =>
  settings.kind === "mock" ? { skip: needs("live-target") } : {};

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
