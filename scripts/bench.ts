/**
 * `npm run bench`: throughput of listBrowserRequests beside raw fetch on the same server in the same run,
 * memory of iterating 100,000 records, and the minified+gzipped size of dist/. Prints a markdown table.
 * Figures, not assertions: run `npm run build` first for the size rows.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import createFetchClient from "openapi-fetch";
import type { paths } from "../generated/schema.js";
import { createClient } from "../src/index.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const WARMUP = 200;
const KEY = "bench-key";
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function startServer(mode: "listing" | "paging"): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("bench-server.ts", import.meta.url)), mode], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (b: Buffer) => resolve(b.toString().trim()));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function perSecond(count: number, once: () => Promise<unknown>, concurrency: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next++ < count) await once();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - started) / 1000);
}

async function throughput(concurrency: number): Promise<{ client: number; raw: number; plain: number; ratioMin: number; ratioMax: number }> {
  const { url, child } = await startServer("listing");
  const client = createClient({ baseUrl: url, apiKey: KEY });
  const filters = { ids: ["brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP", "brq_K8mT3qW6nR1xL9vC4pB7zH2yD5sJ0f"], states: ["completed", "failed"] as const };
  const rawUrl = `${url}/v1/browser/requests?ids=${filters.ids.join(",")}&status=${filters.states.join(",")}`;
  const viaClient = () => client.listBrowserRequests({ ids: filters.ids, states: [...filters.states] });
  const viaFetch = async () => {
    const res = await fetch(rawUrl, { headers: { "X-API-Key": KEY, "User-Agent": "bench" } });
    if (!res.ok) throw new Error(String(res.status));
    return ((await res.json()) as { data: unknown }).data;
  };
  // openapi-fetch alone (no retries, timeouts, checks): the floor of any client built on it.
  const plainClient = createFetchClient<paths>({ baseUrl: url, headers: { "X-API-Key": KEY }, querySerializer: { array: { style: "form", explode: false } } });
  const viaPlain = async () => (await plainClient.GET("/v1/browser/requests", { params: { query: { ids: filters.ids, status: [...filters.states] } } })).data;
  await perSecond(WARMUP, viaPlain, concurrency);
  await perSecond(WARMUP, viaClient, concurrency);
  await perSecond(WARMUP, viaFetch, concurrency);
  // Four alternating rounds (raw, client, client, raw, ...) so neither side always runs on a warmer process
  // or a quieter machine; the totals are REQUESTS per side, the ratio is of the totals, with the rounds' range.
  const rounds = 4;
  const per = REQUESTS / rounds;
  const clientRates: number[] = [];
  const rawRates: number[] = [];
  const plainRates: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? [viaFetch, viaPlain, viaClient] : [viaClient, viaPlain, viaFetch];
    for (const fn of order) (fn === viaClient ? clientRates : fn === viaPlain ? plainRates : rawRates).push(await perSecond(per, fn, concurrency));
  }
  child.kill("SIGTERM");
  const harmonic = (xs: number[]) => xs.length / xs.reduce((a, x) => a + 1 / x, 0);
  const ratios = clientRates.map((c, i) => c / rawRates[i]!).sort((a, b) => a - b);
  // Equal counts per round: the harmonic mean of the rates is total requests / total time.
  return { client: harmonic(clientRates), raw: harmonic(rawRates), plain: harmonic(plainRates), ratioMin: ratios[0]!, ratioMax: ratios[rounds - 1]! };
}

async function iterationMemory(records: number): Promise<{ records: number; heapPeakMb: number; heapAfterMb: number; rssPeakMb: number; seconds: number }> {
  process.env.TOTAL_RECORDS = String(records);
  const { url, child } = await startServer("paging");
  const client = createClient({ baseUrl: url, apiKey: KEY });
  gc();
  const base = process.memoryUsage();
  let heapPeak = 0;
  let rssPeak = 0;
  let seen = 0;
  const started = performance.now();
  for await (const _ of client.iterateBrowserRequests({ pageSize: 100 })) {
    if (++seen % 500 === 0) {
      const m = process.memoryUsage();
      heapPeak = Math.max(heapPeak, m.heapUsed - base.heapUsed);
      rssPeak = Math.max(rssPeak, m.rss - base.rss);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  gc();
  const after = process.memoryUsage().heapUsed - base.heapUsed;
  child.kill("SIGTERM");
  if (seen !== records) throw new Error(`iterated ${seen} records, expected ${records}`);
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return { records, heapPeakMb: mb(heapPeak), heapAfterMb: mb(after), rssPeakMb: mb(rssPeak), seconds: Math.round(seconds * 10) / 10 };
}

const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

async function gzippedKb(external: string[]): Promise<{ minKb: number; gzKb: number }> {
  const out = await build({
    entryPoints: [`${root}dist/index.js`], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, external, logLevel: "silent",
  });
  const code = out.outputFiles[0]!.contents;
  return { minKb: Math.round(code.length / 102.4) / 10, gzKb: Math.round(gzipSync(code, { level: 9 }).length / 102.4) / 10 };
}

/** The entry chunk alone when the lazily imported validation code is split off. */
async function entryChunkKb(external: string[]): Promise<number> {
  const out = await build({
    entryPoints: [`${root}dist/index.js`], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, external,
    splitting: true, outdir: `${root}.bench/split`, logLevel: "silent",
  });
  const entry = out.outputFiles.find((f) => f.path.endsWith("/index.js"))!;
  return Math.round(gzipSync(entry.contents, { level: 9 }).length / 102.4) / 10;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  for (const concurrency of [1, 8]) {
    const t = await throughput(concurrency);
    rows.push([`listBrowserRequests, ${REQUESTS} requests, ${concurrency} in flight`, `${Math.round(t.client)} req/s`]);
    rows.push([`raw fetch + res.json(), same server, same run, ${concurrency} in flight`, `${Math.round(t.raw)} req/s`]);
    rows.push([`openapi-fetch alone (no retries/timeouts/checks), same run, ${concurrency} in flight`, `${Math.round(t.plain)} req/s`]);
    rows.push([`**client / raw fetch**, ${concurrency} in flight (range over 4 alternating rounds)`, `**${(t.client / t.raw).toFixed(2)}** (${t.ratioMin.toFixed(2)}-${t.ratioMax.toFixed(2)})`]);
  }
  for (const n of [10_000, 100_000]) {
    const m = await iterationMemory(n);
    rows.push([`iterate ${n.toLocaleString("en")} records (pages of 100): heap peak / after GC`, `${signed(m.heapPeakMb)} MB / ${signed(m.heapAfterMb)} MB`]);
    rows.push([`iterate ${n.toLocaleString("en")} records: RSS peak, time`, `${signed(m.rssPeakMb)} MB, ${m.seconds} s`]);
  }
  if (existsSync(`${root}dist/index.js`)) {
    const optional = ["ajv", "ajv/*", "ajv-formats"];
    const full = await gzippedKb(optional);
    const core = await gzippedKb([...optional, "openapi-fetch"]);
    rows.push(["dist/ bundled with openapi-fetch, min / min+gzip", `${full.minKb} kB / ${full.gzKb} kB`]);
    rows.push(["dist/ without openapi-fetch, min / min+gzip", `${core.minKb} kB / ${core.gzKb} kB`]);
    const entry = await entryChunkKb([...optional, "openapi-fetch"]);
    rows.push(["  of which loaded at startup (validation schemas split off), min+gzip", `${entry} kB`]);
  } else rows.push(["dist/ size", "run `npm run build` first"]);
  console.log(`| measure | value |\n|---|---|\n${rows.map((r) => `| ${r[0]} | ${r[1]} |`).join("\n")}`);
  console.log(`\nNode ${process.version}, ${new Date().toISOString()}; ajv/ajv-formats (optional, loaded only by validateResponses) excluded from sizes.`);
}

await main();
