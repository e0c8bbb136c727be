/**
 * One measurement of `npm run bench`, in a fresh process of its own. scripts/bench.ts bundles this file to
 * .bench/child-<pid>.mjs (so plain `node` runs it, no TypeScript loader in the measured process) and starts it
 * as `node --expose-gc .bench/child-<pid>.mjs '<json args>'` with an IPC channel; the result goes back over IPC.
 * The client is imported from the path given (dist/index.js, or src/index.ts under tsx when dist is missing).
 *
 * Modes: `cpu` (CPU per call, 1 in flight), `throughput` (requests/s at N in flight), `prefetch` (page walks
 * with and without prefetch against a slow server), `walk` (memory of a 100,000-record walk, client or raw).
 */
import { Session, type Profiler } from "node:inspector";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import createFetchClient from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import { alternatingOrder, maxPerTag, selfTimeByPlace, walkPages, type InflightStats } from "./helpers.js";
import {
  CALL_VARIANTS,
  type CallVariant,
  type ChildArgs,
  type ChildResult,
  type CpuResult,
  type MemorySample,
  type PrefetchResult,
  type ProfileResult,
  type ThroughputResult,
  type WalkResult,
} from "./protocol.js";
import { TAG_HEADER } from "./server-core.js";

type ClientModule = typeof import("../../src/index.js");

const KEY = "bench-key";
/** The raw side's headers: what the client sends (User-Agent and key), no more. */
const RAW_HEADERS = { "User-Agent": "bench", "X-API-Key": KEY };
const IDS = ["brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP", "brq_K8mT3qW6nR1xL9vC4pB7zH2yD5sJ0f"];
const STATES = ["completed", "failed"] as const;
const DECODER = new TextDecoder();

const gc = (globalThis as { gc?: () => void }).gc;
function fullGc(): void {
  if (!gc) throw new Error("run with --expose-gc");
  gc();
  gc();
}

async function loadClient(path: string): Promise<ClientModule> {
  return (await import(pathToFileURL(path).href)) as ClientModule;
}

async function control(url: string, path: string, method = "POST"): Promise<unknown> {
  const res = await fetch(`${url}/__bench/${path}`, { method });
  if (!res.ok) throw new Error(`bench server: ${path} answered ${res.status}`);
  return res.json();
}

/** One listing call per variant, on the same server and query. */
function callVariants(url: string, mod: ClientModule): Record<CallVariant, () => Promise<unknown>> {
  const client = mod.createClient({ baseUrl: url, apiKey: KEY });
  const rawUrl = `${url}/v1/browser/requests?ids=${IDS.join(",")}&status=${STATES.join(",")}`;
  // openapi-fetch alone on the global fetch: no retries, deadlines, scrubbing or checks.
  const bare = createFetchClient<paths>({
    baseUrl: url,
    headers: RAW_HEADERS,
    querySerializer: { array: { style: "form", explode: false } },
  });
  const query = { ids: IDS, status: [...STATES] };
  return {
    raw: async () => {
      const res = await fetch(rawUrl, { headers: RAW_HEADERS });
      if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
      return ((await res.json()) as { data: unknown }).data;
    },
    // Raw fetch with the options the client's transport passes (a per-attempt deadline: AbortController and
    // a timer; redirect: "manual"; the body read as bytes, decoded, then parsed): what those options cost in
    // the runtime, apart from the client's own code.
    rawLikeClient: async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 75_000);
      try {
        const res = await fetch(rawUrl, {
          method: "GET",
          headers: RAW_HEADERS,
          body: null,
          signal: controller.signal,
          redirect: "manual",
        });
        if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
        return (JSON.parse(DECODER.decode(new Uint8Array(await res.arrayBuffer()))) as { data: unknown }).data;
      } finally {
        clearTimeout(timer);
      }
    },
    client: () => client.listBrowserRequests({ ids: IDS, states: [...STATES] }),
    clientRawGet: async () => {
      const { data, error } = await client.raw.GET("/v1/browser/requests", { params: { query } });
      if (error !== undefined) throw new Error("client.raw.GET failed");
      return data?.data;
    },
    openapiFetch: async () => {
      const { data, error } = await bare.GET("/v1/browser/requests", { params: { query } });
      if (error !== undefined) throw new Error("openapi-fetch failed");
      return data?.data;
    },
  };
}

const emptyRecord = (): Record<CallVariant, number[]> => ({
  raw: [],
  rawLikeClient: [],
  client: [],
  clientRawGet: [],
  openapiFetch: [],
});

async function checkSameAnswers(fns: Record<CallVariant, () => Promise<unknown>>): Promise<void> {
  const answers = await Promise.all(CALL_VARIANTS.map((v) => fns[v]()));
  const first = JSON.stringify(answers[0]);
  answers.forEach((a, i) => {
    if (JSON.stringify(a) !== first) throw new Error(`${CALL_VARIANTS[i]} answered differently from raw fetch`);
  });
}

async function cpu(args: Extract<ChildArgs, { mode: "cpu" }>): Promise<CpuResult> {
  const fns = callVariants(args.url, await loadClient(args.client));
  await checkSameAnswers(fns);
  for (let pass = 0; pass < 2; pass++)
    for (const v of alternatingOrder(CALL_VARIANTS, pass)) for (let i = 0; i < args.warmup; i++) await fns[v]();
  const cpuUs = emptyRecord();
  const wallMs = emptyRecord();
  for (let round = 0; round < args.rounds; round++) {
    for (const v of alternatingOrder(CALL_VARIANTS, round)) {
      const fn = fns[v];
      fullGc(); // each round starts on a clean heap: no variant collects another's garbage
      const wall0 = performance.now();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < args.calls; i++) await fn();
      const d = process.cpuUsage(cpu0);
      wallMs[v].push(performance.now() - wall0);
      cpuUs[v].push(d.user + d.system);
    }
  }
  return { mode: "cpu", calls: args.calls, rounds: args.rounds, cpuUs, wallMs };
}

async function throughput(args: Extract<ChildArgs, { mode: "throughput" }>): Promise<ThroughputResult> {
  const fns = callVariants(args.url, await loadClient(args.client));
  const run = async (fn: () => Promise<unknown>, count: number) => {
    let next = 0;
    const worker = async () => {
      while (next++ < count) await fn();
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: args.concurrency }, worker));
    return performance.now() - t0;
  };
  for (const v of CALL_VARIANTS) await run(fns[v], args.warmup);
  const perRound = Math.floor(args.requests / args.rounds);
  const wallMs = emptyRecord();
  for (let round = 0; round < args.rounds; round++) {
    for (const v of alternatingOrder(CALL_VARIANTS, round)) {
      fullGc();
      wallMs[v].push(await run(fns[v], perRound));
    }
  }
  return { mode: "throughput", concurrency: args.concurrency, perRound, wallMs };
}

async function prefetch(args: Extract<ChildArgs, { mode: "prefetch" }>): Promise<PrefetchResult> {
  const { createClient } = await loadClient(args.client);
  const totalRecords = args.pages * args.pageSize;
  await control(args.url, `config?delayMs=${args.serverDelayMs}&totalRecords=${totalRecords}`);
  const client = createClient({ baseUrl: args.url, apiKey: KEY });
  let walks = 0;
  /** One walk with the caller spending `workMs` per page; the server counts in flight under a fresh tag. */
  const walk = async (on: boolean, pageSize = args.pageSize) => {
    const tag = `${on ? "on" : "off"}-${++walks}`;
    const pager = client.iterateBrowserRequests({ pageSize }, { prefetch: on, headers: { [TAG_HEADER]: tag } });
    const t0 = performance.now();
    const pages = await walkPages(pager.iterPages(), () => sleep(args.workMs));
    const ms = performance.now() - t0;
    if (pages !== Math.ceil(totalRecords / pageSize))
      throw new Error(`walked ${pages} pages, expected ${Math.ceil(totalRecords / pageSize)}`);
    return { ms, tag };
  };
  // Warm-up: a short walk of each kind (4 pages), connections opened and code compiled.
  await walk(true, totalRecords / 4);
  await walk(false, totalRecords / 4);
  await control(args.url, "reset");
  const onMs: number[] = [];
  const offMs: number[] = [];
  const tags = { on: [] as string[], off: [] as string[] };
  for (let round = 0; round < args.rounds; round++) {
    for (const on of alternatingOrder([true, false], round)) {
      const { ms, tag } = await walk(on);
      (on ? onMs : offMs).push(ms);
      tags[on ? "on" : "off"].push(tag);
    }
  }
  const stats = (await control(args.url, "stats", "GET")) as InflightStats;
  const maxOf = (ts: string[]) => Math.max(...ts.map((t) => stats.maxInFlightByTag[t] ?? 0));
  // Two iterators at once (8 pages each): the server sees 2 in flight, each iterator never more than 1.
  await control(args.url, "reset");
  await Promise.all([walk(true, totalRecords / 8), walk(true, totalRecords / 8)]);
  const pair = (await control(args.url, "stats", "GET")) as InflightStats;
  await control(args.url, "config?delayMs=0");
  return {
    mode: "prefetch",
    pages: args.pages,
    onMs,
    offMs,
    onMaxPerIterator: maxOf(tags.on),
    offMaxPerIterator: maxOf(tags.off),
    pairTotalMax: pair.maxInFlight,
    pairMaxPerIterator: maxPerTag(pair),
  };
}

async function walkMemory(args: Extract<ChildArgs, { mode: "walk" }>): Promise<WalkResult> {
  const mod = args.kind === "client" ? await loadClient(args.client) : undefined;
  await control(args.url, `config?delayMs=0&totalRecords=${args.records}`);
  const pageUrl = (page: number) => `${args.url}/v1/browser/requests?pageSize=${args.pageSize}&page=${page}`;
  type Page = { data: { total_pages: number; results: Array<{ id: string }> } };
  const rawPage = async (page: number): Promise<Page> => {
    const res = await fetch(pageUrl(page), { headers: RAW_HEADERS });
    if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
    return (await res.json()) as Page;
  };
  const client = mod?.createClient({ baseUrl: args.url, apiKey: KEY });
  // Warm-up: one page the walk's own way (fetch's lazily loaded HTTP stack and the code paths are in place).
  if (client) await client.listBrowserRequests({ pageSize: args.pageSize, page: 1 });
  else await rawPage(1);

  const read = (): MemorySample => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal };
  };
  const peak: MemorySample = { rss: 0, heapUsed: 0, heapTotal: 0 };
  let sampling = false;
  let samples = 0;
  const sample = () => {
    if (!sampling) return;
    const m = read();
    samples++;
    for (const k of ["rss", "heapUsed", "heapTotal"] as const) if (m[k] > peak[k]) peak[k] = m[k];
  };
  /** One walk over every page; a sample per page (and every `sampleMs` from the timer). */
  const walk = async () => {
    let records = 0;
    let pages = 0;
    if (client) {
      // Record by record, as `for await` callers do; a sample at each page boundary.
      for await (const r of client.iterateBrowserRequests({ pageSize: args.pageSize })) {
        if (r.id) records++;
        if (records % args.pageSize === 0) {
          pages++;
          sample();
        }
      }
      if (records % args.pageSize !== 0) pages++;
    } else {
      for (let page = 1; ; page++) {
        const body = await rawPage(page);
        for (const r of body.data.results) if (r.id) records++;
        pages++;
        sample();
        if (page >= body.data.total_pages) break;
      }
    }
    if (records !== args.records) throw new Error(`${args.kind} walk saw ${records} records, expected ${args.records}`);
    return { records, pages };
  };
  const settledGc = async () => {
    await sleep(10); // let sockets' and timers' callbacks run before collecting
    fullGc();
    return read();
  };

  await control(args.url, "reset");
  const start = await settledGc();
  Object.assign(peak, start);
  sampling = true;
  const timer = setInterval(sample, args.sampleMs);
  const t0 = performance.now();
  const { records, pages } = await walk();
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  sample();
  sampling = false;
  const stats = (await control(args.url, "stats", "GET")) as InflightStats;
  const afterGc = await settledGc();
  // Idle, as a process between jobs is: V8's memory reducer shrinks the heap it grew (it runs on idle time).
  await sleep(args.settleMs);
  const afterIdle = await settledGc();
  await walk();
  const afterSecondWalkGc = await settledGc();
  return {
    mode: "walk",
    kind: args.kind,
    records,
    pages,
    seconds,
    samples,
    start,
    peak,
    afterGc,
    afterIdle,
    settleMs: args.settleMs,
    afterSecondWalkGc,
    maxInFlight: stats.maxInFlight,
  };
}

async function profile(args: Extract<ChildArgs, { mode: "profile" }>): Promise<ProfileResult> {
  const fns = callVariants(args.url, await loadClient(args.client));
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 50 });
  const variants = ["raw", "client"] as const;
  for (const v of variants) for (let i = 0; i < args.warmup; i++) await fns[v]();
  const totals: Record<(typeof variants)[number], Record<string, number>> = { raw: {}, client: {} };
  const clientUrl = pathToFileURL(args.client).href;
  for (let round = 0; round < args.rounds; round++) {
    for (const v of alternatingOrder(variants, round)) {
      fullGc();
      await post("Profiler.start");
      for (let i = 0; i < args.calls; i++) await fns[v]();
      const { profile } = await post<{ profile: Profiler.Profile }>("Profiler.stop");
      for (const [place, us] of Object.entries(selfTimeByPlace(profile, clientUrl)))
        totals[v][place] = (totals[v][place] ?? 0) + us;
    }
  }
  session.disconnect();
  const n = args.calls * args.rounds;
  const perCall = (t: Record<string, number>) => Object.fromEntries(Object.entries(t).map(([k, us]) => [k, us / n]));
  return { mode: "profile", calls: n, perCallUs: { raw: perCall(totals.raw), client: perCall(totals.client) } };
}

async function main(): Promise<void> {
  // The parent gone (IPC closed): stop at once rather than linger.
  process.on("disconnect", () => process.exit(1));
  const args = JSON.parse(process.argv[2] ?? "{}") as ChildArgs;
  const result: ChildResult =
    args.mode === "cpu"
      ? await cpu(args)
      : args.mode === "throughput"
        ? await throughput(args)
        : args.mode === "prefetch"
          ? await prefetch(args)
          : args.mode === "profile"
            ? await profile(args)
            : await walkMemory(args);
  if (!process.send) {
    console.log(JSON.stringify(result));
    process.exit(0);
  }
  process.send(result, () => process.exit(0));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
