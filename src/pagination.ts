/**
 * Auto-pagination of the browser request listing: lazy (one page in flight), constant memory (only the
 * previous page's ids are kept), and safe against inconsistent totals (the live service has shown
 * `total_pages: 0` with `total_records: 1`).
 */
import type { Logger } from "./transport.js";
import type { BrowserRequest, BrowserRequestPage } from "./types.js";

/** Why an iteration ended. */
export type PageStopReason =
  /** `page >= total_pages`: the normal end. */
  | "last-page"
  /** A page before `total_pages` had no results. */
  | "empty-page"
  /** A page before `total_pages` had fewer results than the page size. */
  | "short-page"
  /** A page held only ids of the previous page (a server ignoring `page`); it is not yielded. */
  | "repeated-page";

/** Fetches one page (the `data` of the listing envelope). */
export type FetchPage = (page: number) => Promise<BrowserRequestPage>;

/** An async iterable over every browser request across pages; `iterPages()` gives whole pages. */
export class BrowserRequestPager implements AsyncIterable<BrowserRequest> {
  /** Why the last completed iteration stopped (undefined before one completes). */
  stopReason: PageStopReason | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly startPage: number,
    private readonly pageSize: number | undefined,
    private readonly logger?: Logger,
  ) {}

  /** Yields each page lazily, starting at the filter's `page` (default 1). */
  async *iterPages(): AsyncGenerator<BrowserRequestPage, void, undefined> {
    this.stopReason = undefined;
    let previousIds: Set<string> | undefined;
    for (let page = this.startPage; ; page++) {
      const data = await this.fetchPage(page);
      const atEnd = page >= data.total_pages;
      if (data.results.length === 0) return this.stop(atEnd ? "last-page" : "empty-page", page, data);
      if (previousIds && data.results.every((r) => previousIds!.has(r.id))) return this.stop("repeated-page", page, data);
      yield data;
      if (atEnd) return this.stop("last-page", page, data);
      const expected = this.pageSize ?? data.page_size;
      if (data.results.length < expected) return this.stop("short-page", page, data);
      previousIds = new Set(data.results.map((r) => r.id));
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<BrowserRequest, void, undefined> {
    for await (const page of this.iterPages()) yield* page.results;
  }

  private stop(reason: PageStopReason, page: number, data: BrowserRequestPage): void {
    this.stopReason = reason;
    if (reason !== "last-page") {
      this.logger?.warn?.(
        `webauto-api: stopped listing at page ${page} (${reason}) although total_pages is ${data.total_pages} and total_records ${data.total_records}`,
      );
    }
  }
}
