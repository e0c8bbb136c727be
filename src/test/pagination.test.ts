import { afterEach, describe, expect, it } from "vitest";
import { ArgumentError, createClient, type BrowserRequest } from "../index.js";
import { API_KEY, expectNoSecretRecorded, recordingLogger, thrown } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type TestServer } from "./support/server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A paging server: `pages[i]` is the list of ids of page i+1; totals are given separately. */
async function pagingServer(
  pages: string[][],
  totalPages: number,
  pageSize: number,
  totalRecords = pages.flat().length,
) {
  const server = await startServer((req, res) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    sendJson(res, 200, listing((pages[page - 1] ?? []).map(browserRequest), page, pageSize, totalPages, totalRecords));
  });
  servers.push(server);
  const logger = recordingLogger();
  return { server, logger, client: createClient({ baseUrl: server.url, apiKey: API_KEY, logger }) };
}

async function collect(iterable: AsyncIterable<BrowserRequest>): Promise<string[]> {
  const ids: string[] = [];
  for await (const r of iterable) ids.push(r.id);
  return ids;
}

describe("iterateBrowserRequests", () => {
  it("walks every page up to total_pages, one request per page", async () => {
    const { server, client } = await pagingServer([["brq_a", "brq_b"], ["brq_c", "brq_d"], ["brq_e"]], 3, 2);
    const pager = client.iterateBrowserRequests({ pageSize: 2, states: ["completed"] });
    expect(await collect(pager)).toEqual(["brq_a", "brq_b", "brq_c", "brq_d", "brq_e"]);
    expect(pager.stopReason).toBe("last-page");
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v1/browser/requests?status=completed&pageSize=2&page=1",
      "/v1/browser/requests?status=completed&pageSize=2&page=2",
      "/v1/browser/requests?status=completed&pageSize=2&page=3",
    ]);
  });

  it("is lazy: breaking after the first record fetches one page only", async () => {
    const { server, client } = await pagingServer(
      [
        ["brq_a", "brq_b"],
        ["brq_c", "brq_d"],
      ],
      2,
      2,
    );
    for await (const r of client.iterateBrowserRequests({ pageSize: 2 })) {
      expect(r.id).toBe("brq_a");
      break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it("stops on an empty page before total_pages and warns", async () => {
    const { server, client, logger } = await pagingServer([["brq_a", "brq_b"], []], 5, 2, 10);
    const pager = client.iterateBrowserRequests({ pageSize: 2 });
    expect(await collect(pager)).toEqual(["brq_a", "brq_b"]);
    expect(pager.stopReason).toBe("empty-page");
    expect(server.requests).toHaveLength(2);
    expect(logger.lines.some((l) => l.includes("empty-page"))).toBe(true);
  });

  it("stops after a short page before total_pages, keeping its records", async () => {
    const { server, client } = await pagingServer([["brq_a", "brq_b"], ["brq_c"], ["brq_d", "brq_e"]], 3, 2);
    const pager = client.iterateBrowserRequests({ pageSize: 2 });
    expect(await collect(pager)).toEqual(["brq_a", "brq_b", "brq_c"]);
    expect(pager.stopReason).toBe("short-page");
    expect(server.requests).toHaveLength(2);
  });

  it("stops on a page repeating the previous one (a server ignoring page) without yielding duplicates", async () => {
    const { server, client } = await pagingServer([["brq_a", "brq_b"], ["brq_a", "brq_b"], ["brq_c"]], 3, 2);
    const pager = client.iterateBrowserRequests({ pageSize: 2 });
    expect(await collect(pager)).toEqual(["brq_a", "brq_b"]);
    expect(pager.stopReason).toBe("repeated-page");
    expect(server.requests).toHaveLength(2);
  });

  it("yields the records of a page that says total_pages 0 with total_records 1, then stops", async () => {
    const { server, client } = await pagingServer([["brq_a"], ["brq_b"]], 0, 30, 1);
    const pager = client.iterateBrowserRequests();
    expect(await collect(pager)).toEqual(["brq_a"]);
    expect(pager.stopReason).toBe("last-page");
    expect(server.requests).toHaveLength(1);
  });

  it("uses the server's page_size when none was asked for", async () => {
    const { server, client } = await pagingServer([["brq_a", "brq_b", "brq_c"], ["brq_d"], ["brq_e"]], 3, 3);
    const pager = client.iterateBrowserRequests();
    expect(await collect(pager)).toEqual(["brq_a", "brq_b", "brq_c", "brq_d"]);
    expect(pager.stopReason).toBe("short-page");
    expect(server.requests).toHaveLength(2);
  });

  it("offers whole pages through iterPages(), starting at the filter's page", async () => {
    const { client } = await pagingServer([["brq_a"], ["brq_b"], ["brq_c"]], 3, 1);
    const pages: number[] = [];
    for await (const page of client.iterateBrowserRequests({ pageSize: 1, page: 2 }).iterPages()) pages.push(page.page);
    expect(pages).toEqual([2, 3]);
  });

  it("refuses empty or malformed filters before any request", async () => {
    const { server, client } = await pagingServer([], 0, 30);
    const err = thrown(() => client.iterateBrowserRequests({ ids: [] })) as ArgumentError;
    expect(err).toBeInstanceOf(ArgumentError);
    expect(err.argument).toBe("filters.ids");
    expect((thrown(() => client.iterateBrowserRequests({ pageSize: 0 })) as ArgumentError).argument).toBe(
      "filters.pageSize",
    );
    expect(
      (thrown(() => client.iterateBrowserRequests({ states: ["done" as "failed"] })) as ArgumentError).argument,
    ).toBe("filters.states[0]");
    expect((thrown(() => client.iterateBrowserRequests({ ids: ["abc"] })) as ArgumentError).argument).toBe(
      "filters.ids[0]",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("iterates 5,000 generated records across 50 pages", async () => {
    const server = await startServer((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page"));
      sendJson(
        res,
        200,
        listing(
          Array.from({ length: 100 }, (_, i) => ({ id: `brq_p${page}r${i}` })),
          page,
          100,
          50,
          5000,
        ),
      );
    });
    servers.push(server);
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    let count = 0;
    for await (const _ of client.iterateBrowserRequests({ pageSize: 100 })) count++;
    expect(count).toBe(5000);
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(5);
});
