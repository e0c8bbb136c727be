/**
 * `npm run bench`: the figures of issue 10, side by side in one run, as a markdown table (printed and
 * written to reports/bench.md), each with its target and ✔/✘. Figures, not assertions: the exit code is 0
 * when every measurement ran, whatever the figures.
 *
 * - Prefetch: 40-page walks, server 25 ms per page, caller 25 ms per page, prefetch on vs off in alternating
 *   rounds; the most requests in flight per iterator, counted by the server.
 * - CPU per call (1 in flight): listBrowserRequests, client.raw.GET and openapi-fetch alone vs raw
 *   fetch + res.json() (and raw fetch with the transport's fetch options, to split the runtime's share from the
 *   client's code), process.cpuUsage() over alternating rounds; requests/s at 1 (same rounds) and 8 in flight;
 *   a sampled CPU profile of the client vs raw fetch, grouped by function / runtime module.
 * - Size: dist/index.js bundled with openapi-fetch (esbuild, minify, esm, splitting), main chunk vs the
 *   lazily loaded validation chunk, and the heaviest modules of the main chunk.
 * - Memory: 100,000 records in pages of 100 through the client and through raw fetch, each in a fresh process.
 *
 * Every measurement runs in a child process of its own (scripts/bench/child.ts, bundled to .bench/child-<pid>.mjs),
 * against one server process (scripts/bench-server.ts). The client is dist/index.js when it exists (run
 * `npm run build` first), else src/ under tsx. Every child and the server are stopped on exit, error or signal.
 *
 * Environment: BENCH_CALLS (CPU calls per variant per round, default 100), BENCH_ROUNDS (CPU rounds, default 40),
 * BENCH_REQUESTS (requests per variant at 8 in flight, default 2000), BENCH_RECORDS (memory walk, default 100000),
 * BENCH_SETTLE_MS (idle time before the settled memory sample, default 10000),
 * BENCH_CLIENT=src (measure src/ under tsx although dist/ exists).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions, type Metafile } from "esbuild";
import {
  CALL_VARIANTS,
  type ChildArgs,
  type ChildResult,
  type CpuResult,
  type PrefetchResult,
  type ProfileResult,
  type ThroughputResult,
  type WalkResult,
} from "./bench/protocol.js";
import {
  classifyChunks,
  compareRounds,
  mb,
  renderTable,
  round,
  signed,
  topInputs,
  type ChunkSize,
  type RoundComparison,
  type Row,
} from "./bench/helpers.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CALLS = env("BENCH_CALLS", 100);
const CPU_ROUNDS = env("BENCH_ROUNDS", 40);
const REQUESTS = env("BENCH_REQUESTS", 2_000);
const RECORDS = env("BENCH_RECORDS", 100_000);
/** Idle time after the memory walk before the settled sample (V8's memory reducer works on idle time). */
const SETTLE_MS = env("BENCH_SETTLE_MS", 10_000);
const PAGE_SIZE = 100;

const DIST_ENTRY = `${root}dist/index.js`;
const DIST_EXISTS = existsSync(DIST_ENTRY);
/** BENCH_CLIENT=src measures src/ under tsx even when dist/ exists. */
const FROM_DIST = DIST_EXISTS && process.env.BENCH_CLIENT !== "src";
const CLIENT = FROM_DIST ? DIST_ENTRY : `${root}src/index.ts`;
/** The measured children run on plain node with the built client; under tsx only when src/ is measured. */
const CHILD_FLAGS = ["--expose-gc", ...(FROM_DIST ? [] : ["--import", "tsx"])];
/** Per run, so two runs at once (a shared machine) never load each other's half-written file; removed on exit. */
const CHILD_FILE = `${root}.bench/child-${process.pid}.mjs`;

// ---- processes: every one started is tracked and stopped, whatever happens ----

const running = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

function killAll(signal: NodeJS.Signals): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
async function stop(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await gone;
  clearTimeout(timer);
}

process.on("exit", () => {
  killAll("SIGKILL");
  rmSync(CHILD_FILE, { force: true });
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    killAll("SIGKILL");
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

/** Starts the bench server (its own process, under tsx) and waits for its port. */
async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = track(
    spawn(process.execPath, ["--import", "tsx", `${root}scripts/bench-server.ts`], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the bench server did not start within 30 s")), 30_000);
    child.once("message", (m: { port: number }) => {
      clearTimeout(timer);
      resolve(m.port);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited (${code ?? signal}) before listening`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Runs one measurement in a fresh child process; rejects on a crash or after `timeoutMs`. */
async function runChild<R extends ChildResult>(args: ChildArgs, timeoutMs = 90_000): Promise<R> {
  const child = track(
    spawn(process.execPath, [...CHILD_FLAGS, CHILD_FILE, JSON.stringify(args)], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  try {
    return await new Promise<R>((resolve, reject) => {
      let result: R | undefined;
      const timer = setTimeout(
        () => reject(new Error(`${args.mode} child took over ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      child.on("message", (m: R) => (result = m));
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (result && code === 0) resolve(result);
        else reject(new Error(`${args.mode} child exited (${code ?? signal}) without a result`));
      });
    });
  } finally {
    await stop(child);
  }
}

/**
 * Bundles scripts/bench/child.ts into .bench/child-<pid>.mjs (packages stay external: the client's own
 * openapi-fetch).
 */
async function buildChild(): Promise<void> {
  await build({
    entryPoints: [`${root}scripts/bench/child.ts`],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile: CHILD_FILE,
    logLevel: "warning",
  });
}

// ---- size ----

const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

interface SizeReport {
  main: { min: number; gzip: number; files: string[] };
  lazy: Array<{ path: string; min: number; gzip: number; validation: boolean }>;
  mainHoldsSchemas: boolean;
  /** The main chunk with openapi-fetch left out (external): the client's own code. */
  ownMain: { min: number; gzip: number };
  /** The whole client in one file (no splitting, every chunk in it): what a browser app that bundles it pays. */
  whole: { min: number; gzip: number };
  /** The entry chunk alone (dist/index.js's own file of the split bundle). */
  entry: { min: number; gzip: number };
  /** An app importing only `createClient` from dist/index.js, bundled the same way: what tree-shaking keeps. */
  createClientOnly: { min: number; gzip: number };
  /** Per-module breakdown of the main chunk, from the same bundle built from src/ (dist/index.js is one module). */
  modules: Array<{ input: string; bytes: number }>;
  /** Bytes per module kept by a createClient-only app built from src/. */
  keptByApp: Map<string, number>;
  srcMainMin: number;
  /** Why src/ could not be bundled for the breakdown, if it could not. */
  srcError: string | undefined;
}

interface SplitBundle {
  metafile: Metafile;
  chunks: ChunkSize[];
  /** min and min+gzip of the chunks loaded with the entry. */
  startup: { min: number; gzip: number; files: string[] };
  gzipOf(path: string): number;
}

/** esbuild as the issue asks: bundle, minify, esm, splitting; only ajv and its formats external (plus `external`). */
async function splitBundle(entry: string | { contents: string }, external: string[] = []): Promise<SplitBundle> {
  const options: BuildOptions = {
    ...(typeof entry === "string"
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: root, sourcefile: "app.js" } }),
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: "esm",
    splitting: true,
    metafile: true,
    write: false,
    outdir: `${root}.bench/size`,
    external: ["ajv", "ajv-formats", "ajv/dist/2020.js", ...external],
    logLevel: "silent",
  };
  const out = await build(options);
  const files = new Map(out.outputFiles!.map((f) => [f.path.slice(root.length), f.contents]));
  const entryPoint = typeof entry === "string" ? entry.slice(root.length) : "app.js"; // stdin's sourcefile
  const chunks = classifyChunks(out.metafile!, entryPoint);
  const startup = chunks.filter((c) => c.loaded === "startup");
  const gzipOf = (path: string) => gz(files.get(path)!);
  return {
    metafile: out.metafile!,
    chunks,
    startup: {
      min: startup.reduce((a, c) => a + c.bytes, 0),
      gzip: startup.reduce((a, c) => a + gzipOf(c.path), 0),
      files: startup.map((c) => c.path),
    },
    gzipOf,
  };
}

async function measureSize(): Promise<SizeReport> {
  const dist = await splitBundle(DIST_ENTRY);
  const isSchemas = (p: string) =>
    Object.keys(dist.metafile.outputs[p]!.inputs).some((i) => /schemas-[A-Z0-9]+\.js$|generated\/schemas\.ts$/.test(i));
  const own = await splitBundle(DIST_ENTRY, ["openapi-fetch"]);
  const one = await build({
    entryPoints: [DIST_ENTRY],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    external: ["ajv", "ajv-formats", "ajv/dist/2020.js"],
    logLevel: "silent",
  });
  const oneFile = one.outputFiles[0]!.contents;
  const entryChunk = dist.chunks.find((c) => c.loaded === "startup" && /(^|\/)index\.js$/.test(c.path));
  const app = await splitBundle({
    contents: 'import { createClient } from "./dist/index.js";\nexport const client = createClient({ apiKey: "k" });\n',
  });
  // The per-module breakdown needs src/ (dist/index.js is one module); src/ being mid-edit must not cost the dist
  // figures.
  let src: SplitBundle | undefined;
  let srcApp: SplitBundle | undefined;
  let srcError: string | undefined;
  try {
    src = await splitBundle(`${root}src/index.ts`);
    srcApp = await splitBundle({
      contents:
        'import { createClient } from "./src/index.ts";\nexport const client = createClient({ apiKey: "k" });\n',
    });
  } catch (err) {
    srcError = err instanceof Error ? err.message.split("\n")[0] : String(err);
  }
  return {
    main: dist.startup,
    lazy: dist.chunks
      .filter((c) => c.loaded === "lazy")
      .map((c) => ({ path: c.path, min: c.bytes, gzip: dist.gzipOf(c.path), validation: isSchemas(c.path) })),
    mainHoldsSchemas: dist.startup.files.some(isSchemas),
    ownMain: own.startup,
    whole: { min: oneFile.length, gzip: gz(oneFile) },
    entry: entryChunk ? { min: entryChunk.bytes, gzip: dist.gzipOf(entryChunk.path) } : { min: 0, gzip: 0 },
    createClientOnly: app.startup,
    modules: src ? topInputs(src.metafile, src.startup.files, 10) : [],
    keptByApp: new Map(
      srcApp ? topInputs(srcApp.metafile, srcApp.startup.files, 1_000).map((m) => [m.input, m.bytes]) : [],
    ),
    srcMainMin: src?.startup.min ?? 0,
    srcError,
  };
}

/** Files under src/, wire/ or generated/ changed after dist/index.js was built (dist may be stale). */
function newerThanDist(): string[] {
  if (!DIST_EXISTS) return [];
  const built = statSync(DIST_ENTRY).mtimeMs;
  const newer: string[] = [];
  for (const dir of ["src", "wire", "generated"]) {
    for (const name of readdirSync(`${root}${dir}`, { recursive: true }) as string[]) {
      if (/\.test\.ts$/.test(name) || name.includes("test/")) continue;
      const p = `${root}${dir}/${name}`;
      if (statSync(p).isFile() && statSync(p).mtimeMs > built) newer.push(`${dir}/${name}`);
    }
  }
  return newer;
}

// ---- the report ----

const us = (n: number) => `${Math.round(n)} µs`;
const ms = (n: number) => `${Math.round(n)} ms`;
const ratioText = (c: RoundComparison) =>
  `${c.ratio.toFixed(2)} (median round ${c.median.toFixed(2)}, rounds ${c.min.toFixed(2)}–${c.max.toFixed(2)})`;
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

function prefetchRows(p: PrefetchResult): Row[] {
  const c = compareRounds(p.onMs, p.offMs);
  return [
    {
      measure:
        `prefetch on: walk of ${p.pages} pages, server 25 ms/page, caller ` +
        `25 ms/page (mean of ${p.onMs.length} rounds)`,
      value: ms(sum(p.onMs) / p.onMs.length),
    },
    {
      measure: `prefetch off: the same walk (mean of ${p.offMs.length} rounds)`,
      value: ms(sum(p.offMs) / p.offMs.length),
    },
    {
      measure: "**prefetch on / off** (walk time, alternating rounds)",
      value: `**${ratioText(c)}**`,
      target: "≈ 0.5 (0.45–0.60)",
      ok: c.ratio >= 0.45 && c.ratio <= 0.6,
    },
    {
      measure: "most requests in flight per iterator, prefetch on (server-side count)",
      value: String(p.onMaxPerIterator),
      target: "1",
      ok: p.onMaxPerIterator === 1,
    },
    {
      measure: "most requests in flight per iterator, prefetch off",
      value: String(p.offMaxPerIterator),
      target: "1",
      ok: p.offMaxPerIterator === 1,
    },
    {
      measure: "two iterators at once: most in flight on the server / per iterator",
      value: `${p.pairTotalMax} / ${p.pairMaxPerIterator}`,
      target: "per iterator 1",
      ok: p.pairMaxPerIterator === 1,
    },
  ];
}

const LABEL: Record<(typeof CALL_VARIANTS)[number], string> = {
  raw: "raw `fetch(url, { headers })` + `res.json()`",
  rawLikeClient:
    'raw fetch with the transport\'s fetch options (deadline AbortController + timer, `redirect: "manual"`, ' +
    "arrayBuffer + TextDecoder + JSON.parse)",
  client: "`client.listBrowserRequests(...)`",
  clientRawGet: "`client.raw.GET(...)` (openapi-fetch over the client's transport)",
  openapiFetch: "openapi-fetch alone (`createClient` of openapi-fetch on global fetch)",
};

function cpuRows(r: CpuResult): Row[] {
  const perCall = (v: (typeof CALL_VARIANTS)[number]) => sum(r.cpuUs[v]) / (r.calls * r.rounds);
  const rows: Row[] = CALL_VARIANTS.map((v) => ({
    measure: `CPU per call, 1 in flight: ${LABEL[v]}`,
    value: us(perCall(v)),
  }));
  const c = compareRounds(r.cpuUs.client, r.cpuUs.raw);
  rows.push({
    measure: `**CPU client / raw fetch** (${r.rounds} alternating rounds × ${r.calls} calls)`,
    value: `**${ratioText(c)}**`,
    target: "≤ 1.25",
    ok: c.ratio <= 1.25,
  });
  rows.push({
    measure:
      "CPU raw fetch with the transport's fetch options / raw fetch (the runtime's share of the client's extra CPU)",
    value: ratioText(compareRounds(r.cpuUs.rawLikeClient, r.cpuUs.raw)),
  });
  rows.push({
    measure: "CPU client / raw fetch with the transport's fetch options (the client's own code)",
    value: ratioText(compareRounds(r.cpuUs.client, r.cpuUs.rawLikeClient)),
  });
  rows.push({
    measure: "CPU client.raw.GET / raw fetch",
    value: ratioText(compareRounds(r.cpuUs.clientRawGet, r.cpuUs.raw)),
  });
  rows.push({
    measure: "CPU openapi-fetch alone / raw fetch",
    value: ratioText(compareRounds(r.cpuUs.openapiFetch, r.cpuUs.raw)),
  });
  const rps = (v: (typeof CALL_VARIANTS)[number]) => Math.round((r.calls * r.rounds) / (sum(r.wallMs[v]) / 1000));
  rows.push({
    measure:
      "requests/s, 1 in flight (same rounds): raw / raw with the transport's options / client / client.raw.GET / " +
      "openapi-fetch",
    value:
      `${rps("raw")} / ${rps("rawLikeClient")} / ${rps("client")} / ${rps("clientRawGet")} / ${rps("openapiFetch")}; ` +
      `client / raw ${ratioText(compareRounds(r.wallMs.raw, r.wallMs.client))}`,
  });
  return rows;
}

function throughputRows(t: ThroughputResult): Row[] {
  const rps = (v: (typeof CALL_VARIANTS)[number]) =>
    Math.round((t.perRound * t.wallMs[v].length) / (sum(t.wallMs[v]) / 1000));
  return [
    {
      measure:
        `requests/s, ${t.concurrency} in flight (${t.wallMs.raw.length} alternating rounds × ${t.perRound}): ` +
        `raw / raw with the transport's options / client / client.raw.GET / openapi-fetch`,
      value:
        `${rps("raw")} / ${rps("rawLikeClient")} / ${rps("client")} / ${rps("clientRawGet")} ` +
        `/ ${rps("openapiFetch")}; ` +
        `client / raw ${ratioText(compareRounds(t.wallMs.raw, t.wallMs.client))}`,
    },
  ];
}

function memoryRows(c: WalkResult, r: WalkResult): Row[] {
  const line = (w: WalkResult) =>
    `heap used ${mb(w.start.heapUsed)} → ${mb(w.peak.heapUsed)} → ${mb(w.afterGc.heapUsed)} MB; ` +
    `RSS ${mb(w.start.rss)} → ${mb(w.peak.rss)} → ${mb(w.afterGc.rss)} MB; ` +
    `V8 heap reserved ${mb(w.start.heapTotal)} → ${mb(w.peak.heapTotal)} → ${mb(w.afterGc.heapTotal)} ` +
    `MB; ${round(w.seconds)} s, ${w.samples} samples`;
  const d = (a: number, b: number) => signed(mb(a - b));
  const heapLeft = mb(c.afterGc.heapUsed - c.start.heapUsed);
  const rssLeft = mb(c.afterGc.rss - c.start.rss);
  const peakDiff = mb(c.peak.rss - r.peak.rss);
  const growthDiff = mb(c.peak.rss - c.start.rss - (r.peak.rss - r.start.rss));
  const n = c.records.toLocaleString("en");
  const second = (w: WalkResult) =>
    `heap ${d(w.afterSecondWalkGc.heapUsed, w.afterGc.heapUsed)} MB, RSS ` +
    `${d(w.afterSecondWalkGc.rss, w.afterGc.rss)} MB`;
  return [
    {
      measure: `client: iterate ${n} records (pages of ${PAGE_SIZE}), fresh process: start → peak → after full GC`,
      value: line(c),
    },
    {
      measure: `raw fetch + res.json(): the same ${r.pages} pages, fresh process: start → peak → after full GC`,
      value: line(r),
    },
    {
      measure: "client: heap used after GC − start (retained)",
      value: `${signed(heapLeft)} MB (raw: ${d(r.afterGc.heapUsed, r.start.heapUsed)} MB)`,
      target: "≤ 5 MB",
      ok: heapLeft <= 5,
    },
    {
      measure: "client: RSS after GC − start",
      value:
        `${signed(rssLeft)} MB (raw: ${d(r.afterGc.rss, r.start.rss)} MB; V8 heap reserved: ` +
        `client ${d(c.afterGc.heapTotal, c.start.heapTotal)} ` +
        `MB, raw ${d(r.afterGc.heapTotal, r.start.heapTotal)} MB)`,
      target: "≤ 5 MB",
      ok: rssLeft <= 5,
    },
    {
      measure:
        `after ${round(c.settleMs / 1000)} s idle and a full GC − start (V8's memory reducer returns ` +
        `the grown heap; the rest is the allocator's arenas): client / raw`,
      value:
        `RSS ${d(c.afterIdle.rss, c.start.rss)} / ${d(r.afterIdle.rss, r.start.rss)} MB; ` +
        `V8 heap reserved ${d(c.afterIdle.heapTotal, c.start.heapTotal)} ` +
        `/ ${d(r.afterIdle.heapTotal, r.start.heapTotal)} MB`,
    },
    {
      measure:
        "a second identical walk in the same process, after full GC, minus after the first (what each further " +
        "walk leaves): client / raw",
      value: `${second(c)} / ${second(r)}`,
    },
    {
      measure: "**client RSS peak − raw RSS peak**",
      value: `**${signed(peakDiff)} MB** (difference of growth over start: ${signed(growthDiff)} MB)`,
      target: "≤ 20 MB",
      ok: peakDiff <= 20,
    },
    {
      measure: "client walk: most requests in flight on the server",
      value: String(c.maxInFlight),
      target: "1",
      ok: c.maxInFlight === 1,
    },
  ];
}

function sizeRows(s: SizeReport): Row[] {
  const validation = s.lazy.filter((l) => l.validation);
  const rows: Row[] = [
    { measure: `main chunk (${s.main.files.join(" + ")}), min`, value: `${kB(s.main.min)} (${s.main.min} B)` },
    {
      measure: "**main chunk, min+gzip** (gzip -9)",
      value: `**${kB(s.main.gzip)}** (${s.main.gzip} B)`,
      target: "≤ 8 kB",
      ok: s.main.gzip <= 8_000,
    },
  ];
  rows.push({
    measure: "  the entry chunk alone (index.js of the split bundle), min / min+gzip",
    value: `${kB(s.entry.min)} / ${kB(s.entry.gzip)} (${s.entry.gzip} B)`,
  });
  rows.push({
    measure: "**the whole client in one file** (no splitting, openapi-fetch and every lazy chunk in it), min+gzip",
    value: `${kB(s.whole.min)} min, **${s.whole.gzip} B** min+gzip`,
    target: "≤ 17,200 B (issue 34)",
    ok: s.whole.gzip <= 17_200,
  });
  rows.push({
    measure: "  of which the client's own code (openapi-fetch left external), min / min+gzip",
    value: `${kB(s.ownMain.min)} / ${kB(s.ownMain.gzip)}`,
  });
  rows.push({
    measure: "  an app importing only `createClient` (tree-shaken, same esbuild settings), min / min+gzip",
    value: `${kB(s.createClientOnly.min)} / ${kB(s.createClientOnly.gzip)}`,
  });
  for (const l of s.lazy)
    rows.push({
      measure: `lazy chunk ${l.path}${l.validation ? " (validation schemas)" : ""}, min / min+gzip`,
      value: `${kB(l.min)} / ${kB(l.gzip)}`,
    });
  rows.push({
    measure: "validation schemas in a separate, lazily loaded chunk",
    value:
      validation.length && !s.mainHoldsSchemas
        ? "yes"
        : s.mainHoldsSchemas
          ? "no: in the main chunk"
          : "no validation chunk found",
    target: "separate",
    ok: validation.length > 0 && !s.mainHoldsSchemas,
  });
  return rows;
}

function moduleTable(s: SizeReport): string {
  if (s.srcError) return `Heaviest modules of the main chunk: not measured, src/ did not bundle (${s.srcError}).`;
  const lines = [
    `Heaviest modules of the main chunk (esbuild metafile, bytes in the minified output; from the same bundle ` +
      `built from src/index.ts, main chunk ${kB(s.srcMainMin)} min vs ${kB(s.main.min)} ` +
      `from dist, since dist/index.js ` +
      `is a single module):`,
    "",
    "| module | min bytes | share of main chunk | min bytes kept by a createClient-only app |",
    "|---|---|---|---|",
    ...s.modules.map(
      (m) =>
        `| ${m.input} | ${m.bytes} | ${((m.bytes / s.srcMainMin) * 100).toFixed(1)} ` +
        `% | ${s.keptByApp.get(m.input) ?? 0} |`,
    ),
  ];
  return lines.join("\n");
}

/** Where the client's extra CPU goes: sampled self time per call, client minus raw fetch, by place. */
function profileTable(p: ProfileResult): string {
  const { raw, client } = p.perCallUs;
  const total = (t: Record<string, number>) => Object.values(t).reduce((a, x) => a + x, 0);
  const places = [...new Set([...Object.keys(raw), ...Object.keys(client)])]
    .map((place) => ({ place, client: client[place] ?? 0, raw: raw[place] ?? 0 }))
    .map((r) => ({ ...r, diff: r.client - r.raw }))
    .sort((a, b) => b.diff - a.diff);
  const own = places.filter((r) => r.place.startsWith("client: "));
  const runtime = places.filter((r) => !r.place.startsWith("client: "));
  const ownTotal = own.reduce((a, r) => a + r.client, 0);
  const f = (n: number) => n.toFixed(1);
  const line = (r: (typeof places)[number]) =>
    `| ${r.place} | ${f(r.client)} | ${f(r.raw)} | ${signed(round(r.diff))} |`;
  return [
    `Where the client's CPU goes (main thread only, sampled every 50 µs over ${p.calls} calls ` +
      `each of raw fetch and listBrowserRequests in alternating rounds; ` +
      `µs per call, profiler overhead included): in all ${f(total(client))} client vs ${f(total(raw))} ` +
      `raw (${signed(round(total(client) - total(raw)))}), ` +
      `of which ${f(ownTotal)} in the client's own functions and ` +
      `${signed(round(total(client) - total(raw) - ownTotal))} ` +
      `in the runtime. ` +
      `"client: #call" includes JSON.parse and TextDecoder, which raw fetch spends inside undici's res.json(). ` +
      `The client's own rows are steady from run to run; the runtime rows move with the machine's load (the ` +
      `process.cpuUsage() rows above are the measure).`,
    "",
    "| place | client µs/call | raw µs/call | client − raw |",
    "|---|---|---|---|",
    ...own.filter((r) => r.client >= 0.3).map(line),
    // The runtime places costing the client most over raw fetch, then the 3 where it spends least (work moved
    // elsewhere).
    ...[...runtime.filter((r) => r.diff >= 0.5).slice(0, 10), ...runtime.filter((r) => r.diff <= -0.5).slice(-3)].map(
      line,
    ),
  ].join("\n");
}

async function main(): Promise<void> {
  const started = performance.now();
  mkdirSync(`${root}reports`, { recursive: true });
  const stale = newerThanDist();
  await buildChild();
  const rows: Row[] = [];
  const failures: string[] = [];
  /** Runs one phase; a failure becomes a ✘ row (and exit code 1) instead of losing the other figures. */
  const durations: string[] = [];
  const phase = async (name: string, fn: () => Promise<Row[]>) => {
    const t0 = performance.now();
    try {
      rows.push(...(await fn()));
      durations.push(`${name} ${round((performance.now() - t0) / 1000)} s`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      failures.push(`${name}: ${message}`);
      rows.push({ measure: `${name}: **failed**`, value: message, ok: false });
    }
  };
  let sizes: SizeReport | undefined;
  let profiled: ProfileResult | undefined;
  const server = await startServer();
  try {
    const base = { url: server.url, client: CLIENT };
    await phase("prefetch", async () =>
      prefetchRows(
        await runChild<PrefetchResult>({
          mode: "prefetch",
          ...base,
          pages: 40,
          pageSize: PAGE_SIZE,
          workMs: 25,
          serverDelayMs: 25,
          rounds: 3,
        }),
      ),
    );
    await phase("CPU per call", async () =>
      cpuRows(await runChild<CpuResult>({ mode: "cpu", ...base, calls: CALLS, rounds: CPU_ROUNDS, warmup: 200 })),
    );
    await phase("CPU profile", async () => {
      profiled = await runChild<ProfileResult>({ mode: "profile", ...base, calls: 250, rounds: 8, warmup: 200 });
      return [];
    });
    await phase("8 in flight", async () =>
      throughputRows(
        await runChild<ThroughputResult>({
          mode: "throughput",
          ...base,
          requests: REQUESTS,
          rounds: 4,
          concurrency: 8,
          warmup: 200,
        }),
      ),
    );
    await phase("memory", async () => {
      const walkArgs = {
        mode: "walk",
        ...base,
        records: RECORDS,
        pageSize: PAGE_SIZE,
        sampleMs: 5,
        settleMs: SETTLE_MS,
      } as const;
      const clientWalk = await runChild<WalkResult>({ ...walkArgs, kind: "client" });
      const rawWalk = await runChild<WalkResult>({ ...walkArgs, kind: "raw" });
      return memoryRows(clientWalk, rawWalk);
    });
  } finally {
    await stop(server.child);
  }
  if (DIST_EXISTS) {
    await phase("size", async () => {
      sizes = await measureSize();
      return sizeRows(sizes);
    });
  } else
    rows.push({
      measure: "size of dist/",
      value: "**dist/ is missing: run `npm run build` first**",
      target: "main ≤ 8 kB min+gzip",
      ok: false,
    });

  const missed = rows.filter((r) => r.ok === false).length;
  const whyTsx = DIST_EXISTS
    ? "BENCH_CLIENT=src"
    : "dist/ missing: run `npm run build` for the built client and the size rows";
  const failed = failures.length ? `, ${failures.length} measurement(s) failed` : "";
  const notes = [
    `Node ${process.version}, ${new Date().toISOString()}, ${Math.round((performance.now() - started) / 1000)} ` +
      `s. Client measured from ${FROM_DIST ? "the built dist/index.js (ESM)" : `src/ under tsx (${whyTsx})`}.`,
    ...(stale.length
      ? [
          `**dist/ may be stale**: ${stale.length} file(s) under src/ or generated/ changed after it was built ` +
            `(${stale.slice(0, 5).join(", ")}${stale.length > 5 ? ", …" : ""}); run \`npm run build\` first.`,
        ]
      : []),
    `Phases: ${durations.join(", ")}.`,
    "Each measurement runs in a fresh child process (node --expose-gc); the server in its own process. Ratios " +
      "are of totals over alternating rounds (A B C D, D C B A, ...), with the range of the per-round ratios. kB = " +
      "1000 bytes.",
    `${rows.filter((r) => r.ok === true).length} targets met, ${missed} missed${failed}.`,
  ];
  const report = `${[
    `# npm run bench`,
    "",
    renderTable(rows),
    "",
    ...(profiled ? [profileTable(profiled), ""] : []),
    ...(sizes ? [moduleTable(sizes), ""] : []),
    ...notes.map((n) => `${n}  `),
  ].join("\n")}\n`;
  writeFileSync(`${root}reports/bench.md`, report);
  console.log(report);
  console.log("(written to reports/bench.md)");
  if (failures.length) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  killAll("SIGKILL");
  process.exit(1);
});
