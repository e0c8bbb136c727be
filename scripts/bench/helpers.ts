/**
 * Pure helpers of `npm run bench` (no I/O, no timers of their own), shared by the orchestrator
 * (scripts/bench.ts), its child processes (scripts/bench/child.ts) and the bench's self-test
 * (scripts/test/bench.test.ts).
 */
import type { Metafile } from "esbuild";

/**
 * The order of the variants in round `round`: forward in even rounds, reversed in odd ones
 * (A B C, C B A, A B C, ...), so no variant always runs first, on a colder process or a quieter machine.
 */
export function alternatingOrder<T>(variants: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...variants] : [...variants].reverse();
}

/** What {@link compareRounds} says about two variants measured in the same alternating rounds. */
export interface RoundComparison {
  /** sum(a) / sum(b): the ratio of the totals (rounds of equal size weigh equally). */
  ratio: number;
  /** The smallest and largest per-round ratio a[i] / b[i]. */
  min: number;
  max: number;
  /** The median per-round ratio (robust to one round disturbed by another process). */
  median: number;
}

/** Compares per-round figures of two variants (`a[i]` and `b[i]` measured in the same round i). */
export function compareRounds(a: readonly number[], b: readonly number[]): RoundComparison {
  if (a.length === 0 || a.length !== b.length)
    throw new Error(`compareRounds needs rounds of both sides (got ${a.length} and ${b.length})`);
  const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
  const ratios = a.map((x, i) => x / b[i]!).sort((p, q) => p - q);
  const mid = ratios.length >> 1;
  const median = ratios.length % 2 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
  return { ratio: sum(a) / sum(b), min: ratios[0]!, max: ratios[ratios.length - 1]!, median };
}

/** A snapshot of {@link InflightCounter}. */
export interface InflightStats {
  /** Requests received so far. */
  requests: number;
  /** Requests being served right now. */
  inFlight: number;
  /** The most requests in flight at once, over every tag. */
  maxInFlight: number;
  /** Per tag (one tag per iterator): the most requests of that tag in flight at once. */
  maxInFlightByTag: Record<string, number>;
}

/**
 * Counts requests in flight on the server side, in all and per tag (the bench tags each iterator's requests
 * with a header). `enter` when a request arrives, the returned `leave` when its response is finished or
 * aborted (calling it twice counts once).
 */
export class InflightCounter {
  #requests = 0;
  #inFlight = 0;
  #max = 0;
  #byTag = new Map<string, { now: number; max: number }>();

  enter(tag?: string): () => void {
    this.#requests++;
    this.#max = Math.max(this.#max, ++this.#inFlight);
    let t: { now: number; max: number } | undefined;
    if (tag !== undefined) {
      t = this.#byTag.get(tag) ?? { now: 0, max: 0 };
      this.#byTag.set(tag, t);
      t.max = Math.max(t.max, ++t.now);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight--;
      if (t) t.now--;
    };
  }

  snapshot(): InflightStats {
    return {
      requests: this.#requests,
      inFlight: this.#inFlight,
      maxInFlight: this.#max,
      maxInFlightByTag: Object.fromEntries([...this.#byTag].map(([tag, t]) => [tag, t.max])),
    };
  }

  /** Forgets the maxima and counts (requests in flight stay counted, so a late `leave` cannot go negative). */
  reset(): void {
    this.#requests = 0;
    this.#max = this.#inFlight;
    for (const [tag, t] of this.#byTag) {
      if (t.now === 0) this.#byTag.delete(tag);
      else t.max = t.now;
    }
  }
}

/** The largest per-tag maximum of a snapshot (0 when no request was tagged). */
export function maxPerTag(stats: InflightStats): number {
  return Math.max(0, ...Object.values(stats.maxInFlightByTag));
}

/**
 * Walks `pages` (e.g. `pager.iterPages()`), calling `work(page, index)` on each and awaiting it before asking
 * for the next page, as a caller working through a page would. Returns the number of pages seen.
 */
export async function walkPages<P>(
  pages: AsyncIterable<P>,
  work: (page: P, index: number) => Promise<void> | void,
): Promise<number> {
  let index = 0;
  for await (const page of pages) await work(page, index++);
  return index;
}

/** The parts of a V8 CPU profile (inspector `Profiler.Profile`) that {@link selfTimeByPlace} reads. */
export interface CpuProfileLike {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Self time (µs) of a sampled CPU profile grouped by place: `client: <function>` for frames of `clientUrl`,
 * the module for other scripts (`node:internal/deps/undici/undici`), `(name)` for V8's own entries
 * (`(garbage collector)`, `(program)`); `(idle)` is left out.
 */
export function selfTimeByPlace(profile: CpuProfileLike, clientUrl: string): Record<string, number> {
  const place = new Map<number, string>();
  for (const { id, callFrame: f } of profile.nodes) {
    if (f.url === clientUrl) place.set(id, `client: ${f.functionName || "(anonymous)"}`);
    else if (f.url) place.set(id, f.url.startsWith("node:") ? f.url : f.url.replace(/^.*\/node_modules\//, ""));
    else place.set(id, f.functionName.startsWith("(") ? f.functionName : `(${f.functionName || "native"})`);
  }
  const out: Record<string, number> = {};
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const where = place.get(samples[i]!) ?? "(unknown)";
    if (where === "(idle)") continue;
    out[where] = (out[where] ?? 0) + (deltas[i] ?? 0);
  }
  return out;
}

/** One output chunk of a split bundle. */
export interface ChunkSize {
  /** The output path as esbuild's metafile names it. */
  path: string;
  /** Minified bytes (the metafile's `bytes`). */
  bytes: number;
  /** How it is loaded: with the entry (statically imported) or later (reached only through `import()`). */
  loaded: "startup" | "lazy";
}

/**
 * Sorts the outputs of a split esbuild bundle into what loads with the entry (the entry and every chunk it
 * imports statically, transitively) and what loads lazily (reachable only through dynamic `import()`).
 */
export function classifyChunks(metafile: Pick<Metafile, "outputs">, entryPoint: string): ChunkSize[] {
  const outputs = metafile.outputs;
  const js = Object.keys(outputs).filter((p) => !p.endsWith(".map"));
  const entry = js.find((p) => outputs[p]!.entryPoint === entryPoint);
  if (!entry) throw new Error(`no output has the entry point ${entryPoint}`);
  const startup = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const imp of outputs[queue.pop()!]!.imports) {
      if (imp.external || imp.kind !== "import-statement" || startup.has(imp.path) || !outputs[imp.path]) continue;
      startup.add(imp.path);
      queue.push(imp.path);
    }
  }
  return js.map((path) => ({ path, bytes: outputs[path]!.bytes, loaded: startup.has(path) ? "startup" : "lazy" }));
}

/** The `n` inputs weighing most in the given outputs (bytes each input contributes to them, minified). */
export function topInputs(
  metafile: Pick<Metafile, "outputs">,
  outputPaths: readonly string[],
  n: number,
): Array<{ input: string; bytes: number }> {
  const byInput = new Map<string, number>();
  for (const out of outputPaths) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[out]?.inputs ?? {}))
      byInput.set(input, (byInput.get(input) ?? 0) + bytesInOutput);
  }
  return [...byInput]
    .map(([input, bytes]) => ({ input, bytes }))
    .sort((a, b) => b.bytes - a.bytes || a.input.localeCompare(b.input))
    .slice(0, n);
}

/** One row of the report: what, the figure, the target, and whether it is met (undefined: no target). */
export interface Row {
  measure: string;
  value: string;
  target?: string;
  ok?: boolean;
}

/** Renders rows as a markdown table (`|` in cells escaped). */
export function renderTable(rows: readonly Row[]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = ["| measure | value | target | met |", "|---|---|---|---|"];
  for (const r of rows)
    lines.push(
      `| ${cell(r.measure)} | ${cell(r.value)} | ${cell(r.target ?? "")} ` +
        `| ${r.ok === undefined ? "" : r.ok ? "✔" : "✘"} |`,
    );
  return lines.join("\n");
}

/** Rounds to `digits` decimals. */
export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Bytes as MB (2^20) with one decimal. */
export function mb(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}

/** A signed figure (`+1.2`, `-0.4`). */
export function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}
