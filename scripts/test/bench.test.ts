/**
 * The bench's helpers on tiny inputs, so `npm run bench` cannot rot unnoticed: the alternating-rounds
 * order and ratio, the server's in-flight counter (directly and through the bench server's control
 * endpoints), a 3-page prefetch walk, the chunk classification of the size rows and the profile grouping.
 * Behaviour only: no timing is asserted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/index.js";
import {
  alternatingOrder,
  classifyChunks,
  compareRounds,
  InflightCounter,
  maxPerTag,
  renderTable,
  selfTimeByPlace,
  topInputs,
  walkPages,
  type InflightStats,
} from "../bench/helpers.js";
import { pageBody, startBenchServer, TAG_HEADER, type BenchServer } from "../bench/server-core.js";

const template = { id: "brq_template", status: "completed" };
const servers: BenchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(delayMs: number, totalRecords: number): Promise<BenchServer> {
  const s = await startBenchServer(
    { example: JSON.stringify({ data: { results: [template] }, error: null }), template },
    { delayMs, totalRecords },
  );
  servers.push(s);
  return s;
}

/**
 * Resolves once the server has been asked for `page`; rejects if it never is (a hang would be worse than a failure).
 */
function until(s: BenchServer, seen: Set<number>, page: number, ms = 5_000): Promise<void> {
  if (seen.has(page)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`page ${page} was never requested while the caller held the previous one`)),
      ms,
    );
    const previous = s.onRequest;
    s.onRequest = (info) => {
      previous?.(info);
      if (info.page === page) {
        clearTimeout(timer);
        resolve();
      }
    };
  });
}

describe("alternating rounds", () => {
  it("reverses the order every other round", () => {
    expect([0, 1, 2, 3].map((r) => alternatingOrder(["raw", "client", "plain"], r).join(" "))).toEqual([
      "raw client plain",
      "plain client raw",
      "raw client plain",
      "plain client raw",
    ]);
  });

  it("compares the totals, with the median and range of the per-round ratios", () => {
    const c = compareRounds([12, 10, 30], [10, 10, 10]);
    expect(c.ratio).toBeCloseTo(52 / 30);
    expect(c.median).toBeCloseTo(1.2);
    expect([c.min, c.max]).toEqual([1, 3]);
    expect(compareRounds([3, 1], [1, 1]).median).toBe(2);
    expect(() => compareRounds([1], [1, 2])).toThrow(/rounds/);
    expect(() => compareRounds([], [])).toThrow(/rounds/);
  });
});

describe("in-flight counter", () => {
  it("counts the most requests at once, in all and per tag; leaving twice counts once", () => {
    const c = new InflightCounter();
    const a1 = c.enter("a");
    const b1 = c.enter("b");
    a1();
    a1();
    const a2 = c.enter("a");
    const untagged = c.enter();
    expect(c.snapshot()).toEqual({ requests: 4, inFlight: 3, maxInFlight: 3, maxInFlightByTag: { a: 1, b: 1 } });
    const a3 = c.enter("a");
    expect(maxPerTag(c.snapshot())).toBe(2);
    for (const leave of [a2, a3, b1, untagged]) leave();
    expect(c.snapshot().inFlight).toBe(0);
    c.reset();
    expect(c.snapshot()).toEqual({ requests: 0, inFlight: 0, maxInFlight: 0, maxInFlightByTag: {} });
  });

  it("is what the bench server reports, per x-bench-tag, until reset", async () => {
    const s = await server(20, 10);
    const get = (tag: string) =>
      fetch(`${s.url}/v1/browser/requests?page=1&pageSize=5`, { headers: { [TAG_HEADER]: tag } }).then((r) => r.json());
    await Promise.all([get("x"), get("x"), get("y")]);
    const stats = (await (await fetch(`${s.url}/__bench/stats`)).json()) as InflightStats;
    expect(stats).toEqual({ requests: 3, inFlight: 0, maxInFlight: 3, maxInFlightByTag: { x: 2, y: 1 } });
    await fetch(`${s.url}/__bench/reset`, { method: "POST" });
    expect(((await (await fetch(`${s.url}/__bench/stats`)).json()) as InflightStats).requests).toBe(0);
    expect(await (await fetch(`${s.url}/__bench/config?delayMs=0&totalRecords=3`, { method: "POST" })).json()).toEqual({
      delayMs: 0,
      totalRecords: 3,
    });
    const page = (await get("z")) as { data: { total_pages: number; results: unknown[] } };
    expect([page.data.total_pages, page.data.results.length]).toEqual([1, 3]);
  });
});

describe("prefetch walk (3 pages)", () => {
  for (const prefetch of [true, false]) {
    it(
      `prefetch ${prefetch ? "on" : "off"}: the next page is requested ${prefetch ? "before" : "only after"} ` +
        `the caller finishes the current one, one request in flight`,
      async () => {
        const s = await server(15, 6);
        const log: string[] = [];
        const seen = new Set<number>();
        s.onRequest = ({ page }) => {
          seen.add(page!);
          log.push(`request ${page}`);
        };
        // The client's fetch is called synchronously when a page is asked for: its log orders requests exactly.
        const fetchLogged: typeof fetch = (input, init) => {
          log.push(`fetch ${new URL(String(input)).searchParams.get("page")}`);
          return fetch(input, init);
        };
        const client = createClient({ baseUrl: s.url, apiKey: "bench-key", fetch: fetchLogged });
        const pager = client.iterateBrowserRequests({ pageSize: 2 }, { prefetch, headers: { [TAG_HEADER]: "it" } });
        const pages = await walkPages(pager.iterPages(), async (page, i) => {
          expect(page.page).toBe(i + 1);
          // With prefetch, the caller holds page i+1 until the server has been asked for page i+2.
          if (prefetch && i < 2) await until(s, seen, i + 2);
          log.push(`done ${i + 1}`);
        });
        expect(pages).toBe(3);
        expect(log).toEqual(
          prefetch
            ? ["fetch 1", "request 1", "fetch 2", "request 2", "done 1", "fetch 3", "request 3", "done 2", "done 3"]
            : ["fetch 1", "request 1", "done 1", "fetch 2", "request 2", "done 2", "fetch 3", "request 3", "done 3"],
        );
        const stats = s.counter.snapshot();
        expect(stats.maxInFlightByTag).toEqual({ it: 1 });
        expect(stats.requests).toBe(3);
      },
    );
  }
});

describe("size and profile helpers", () => {
  const meta = {
    outputs: {
      "out/index.js": {
        entryPoint: "dist/index.js",
        bytes: 100,
        imports: [
          { path: "out/chunk-A.js", kind: "import-statement" },
          { path: "out/schemas.js", kind: "dynamic-import" },
          { path: "ajv", kind: "dynamic-import", external: true },
        ],
        inputs: {
          "dist/index.js": { bytesInOutput: 60 },
          "node_modules/openapi-fetch/dist/index.mjs": { bytesInOutput: 40 },
        },
      },
      "out/chunk-A.js": { bytes: 30, imports: [], inputs: { "dist/shared.js": { bytesInOutput: 30 } } },
      "out/schemas.js": {
        bytes: 50,
        imports: [{ path: "out/chunk-A.js", kind: "import-statement" }],
        inputs: { "dist/schemas.js": { bytesInOutput: 50 } },
      },
    },
  } as unknown as Parameters<typeof classifyChunks>[0];

  it("splits the entry and its static imports from lazily loaded chunks, and ranks inputs", () => {
    expect(classifyChunks(meta, "dist/index.js")).toEqual([
      { path: "out/index.js", bytes: 100, loaded: "startup" },
      { path: "out/chunk-A.js", bytes: 30, loaded: "startup" },
      { path: "out/schemas.js", bytes: 50, loaded: "lazy" },
    ]);
    expect(topInputs(meta, ["out/index.js", "out/chunk-A.js"], 2)).toEqual([
      { input: "dist/index.js", bytes: 60 },
      { input: "node_modules/openapi-fetch/dist/index.mjs", bytes: 40 },
    ]);
    expect(() => classifyChunks(meta, "src/index.ts")).toThrow(/entry point/);
  });

  it("renders rows with their target and mark", () => {
    expect(
      renderTable([
        { measure: "a|b", value: "1", target: "≤ 2", ok: true },
        { measure: "c", value: "3", target: "≤ 2", ok: false },
        { measure: "d", value: "4" },
      ])
        .split("\n")
        .slice(2),
    ).toEqual(["| a\\|b | 1 | ≤ 2 | ✔ |", "| c | 3 | ≤ 2 | ✘ |", "| d | 4 |  |  |"]);
  });

  it("groups a CPU profile's self time by place, idle left out", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(idle)", url: "" } },
        { id: 2, callFrame: { functionName: "send", url: "file:///x/dist/index.js" } },
        { id: 3, callFrame: { functionName: "fetch", url: "node:internal/deps/undici/undici" } },
        { id: 4, callFrame: { functionName: "(garbage collector)", url: "" } },
      ],
      samples: [1, 2, 3, 2, 4],
      timeDeltas: [100, 10, 20, 5, 7],
    };
    expect(selfTimeByPlace(profile, "file:///x/dist/index.js")).toEqual({
      "client: send": 15,
      "node:internal/deps/undici/undici": 20,
      "(garbage collector)": 7,
    });
  });

  it("generates pages with ids numbered across pages and a short last page", () => {
    const last = JSON.parse(pageBody(template, 3, 2, 5)) as {
      data: { total_pages: number; results: Array<{ id: string }> };
    };
    expect(last.data.total_pages).toBe(3);
    expect(last.data.results.map((r) => r.id)).toEqual([`brq_${"4".padStart(30, "0")}`]);
  });
});
