/**
 * Auto-pagination of the browser request listing: constant memory (only the previous page's ids are kept),
 * one page fetched ahead while the caller works through the current one (never more than one request in
 * flight), and safe against inconsistent totals (the live service has shown `total_pages: 0` with
 * `total_records: 1`).
 */
import type { Logger } from "./transport-types.js";
import type { BrowserRequest, BrowserRequestPage } from "./types.js";

/** Why an iteration ended. */
export type PageStopReason =
  /** `page >= total_pages`: the normal end. */
  | "last-page"
  /** A page before `total_pages` had no results. */
  | "empty-page"
  /** A page before `total_pages` had fewer results than the page size the server answered with. */
  | "short-page"
  /** A page held only ids of the previous page (a server ignoring `page`); it is not yielded. */
  | "repeated-page";

/** Fetches one page (the `data` of the listing envelope); `signal` cancels a prefetch nobody wants. */
export type FetchPage = (page: number, signal: AbortSignal) => Promise<BrowserRequestPage>;

/** An async iterable over every browser request across pages; `iterPages()` gives whole pages. */
export class BrowserRequestPager implements AsyncIterable<BrowserRequest> {
  /** Why the last completed iteration stopped (undefined before one completes). */
  stopReason: PageStopReason | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly startPage: number,
    private readonly prefetch: boolean = true,
    private readonly logger?: Logger,
  ) {}

  /**
   * Yields each page, starting at the filter's `page` (default 1). While the caller works on a page, the next
   * one is already on its way (unless `prefetch` is off); its error, if any, is thrown when the caller gets there.
   */
  async *iterPages(): AsyncGenerator<BrowserRequestPage, void, undefined> {
    this.stopReason = undefined;
    const controller = new AbortController();
    const fetchAt = (page: number) => {
      const p = this.fetchPage(page, controller.signal);
      p.catch(() => {}); // surfaces when awaited; never an unhandled rejection meanwhile
      return p;
    };
    let previousIds: Set<string> | undefined;
    let next: Promise<BrowserRequestPage> | undefined = fetchAt(this.startPage);
    try {
      for (let page = this.startPage; ; page++) {
        const data: BrowserRequestPage = await (next ?? fetchAt(page));
        next = undefined;
        const atEnd = page >= data.total_pages;
        if (data.results.length === 0) return this.stop(atEnd ? "last-page" : "empty-page", page, data);
        if (previousIds && data.results.every((r) => previousIds!.has(r.id)))
          return this.stop("repeated-page", page, data);
        // Compared with the page size the server answered: a server capping a large pageSize is not a short page.
        const short = !atEnd && data.results.length < data.page_size;
        if (this.prefetch && !atEnd && !short) next = fetchAt(page + 1);
        yield data;
        if (atEnd) return this.stop("last-page", page, data);
        if (short) return this.stop("short-page", page, data);
        previousIds = new Set(data.results.map((r) => r.id));
      }
    } finally {
      controller.abort(); // a prefetched page the caller left behind is cancelled
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<BrowserRequest, void, undefined> {
    for await (const page of this.iterPages()) yield* page.results;
  }

  private stop(reason: PageStopReason, page: number, data: BrowserRequestPage): void {
    this.stopReason = reason;
    if (reason !== "last-page") {
      this.logger?.warn?.(
        `webauto-api: stopped listing at page ${page} (${reason}) although total_pages ` +
          `is ${data.total_pages} and total_records ${data.total_records}`,
      );
    }
  }
}
