/**
 * What scripts/bench.ts asks of a measurement child (scripts/bench/child.ts) and what the child answers
 * over IPC.
 */

export type ChildArgs =
  | { mode: "cpu"; url: string; client: string; calls: number; rounds: number; warmup: number }
  | {
      mode: "throughput";
      url: string;
      client: string;
      requests: number;
      rounds: number;
      concurrency: number;
      warmup: number;
    }
  | {
      mode: "prefetch";
      url: string;
      client: string;
      pages: number;
      pageSize: number;
      workMs: number;
      serverDelayMs: number;
      rounds: number;
    }
  | {
      mode: "walk";
      url: string;
      client: string;
      kind: "client" | "raw";
      records: number;
      pageSize: number;
      sampleMs: number;
      settleMs: number;
    }
  | { mode: "profile"; url: string; client: string; calls: number; rounds: number; warmup: number };

/** The variants of the CPU and throughput rows. */
export const CALL_VARIANTS = ["raw", "rawLikeClient", "client", "clientRawGet", "openapiFetch"] as const;
export type CallVariant = (typeof CALL_VARIANTS)[number];

export interface CpuResult {
  mode: "cpu";
  calls: number;
  rounds: number;
  /** Per variant, per round: CPU µs (user + system) of `calls` calls. */
  cpuUs: Record<CallVariant, number[]>;
  /** Per variant, per round: wall ms of the same calls. */
  wallMs: Record<CallVariant, number[]>;
}
export interface ThroughputResult {
  mode: "throughput";
  concurrency: number;
  perRound: number;
  /** Per variant, per round: wall ms of `perRound` requests. */
  wallMs: Record<CallVariant, number[]>;
}
export interface PrefetchResult {
  mode: "prefetch";
  pages: number;
  /** Per round, ms of one walk. */
  onMs: number[];
  offMs: number[];
  /** Most requests in flight at once per iterator, over every measured walk of each kind. */
  onMaxPerIterator: number;
  offMaxPerIterator: number;
  /** Two iterators walked at once: the server's total maximum and the per-iterator maximum. */
  pairTotalMax: number;
  pairMaxPerIterator: number;
}
export interface MemorySample {
  rss: number;
  heapUsed: number;
  /** The V8 heap's reserved size (what RSS keeps after a GC when the young generation has grown). */
  heapTotal: number;
}
export interface WalkResult {
  mode: "walk";
  kind: "client" | "raw";
  records: number;
  pages: number;
  seconds: number;
  samples: number;
  start: MemorySample;
  peak: MemorySample;
  afterGc: MemorySample;
  /** After `settleMs` of idle time and another full GC: V8's memory reducer gives the grown heap back. */
  afterIdle: MemorySample;
  settleMs: number;
  /** After the same walk a second time and a full GC: what a further walk adds (retention per walk). */
  afterSecondWalkGc: MemorySample;
  /** Most requests in flight at once on the server during the walk. */
  maxInFlight: number;
}
/** Sampled CPU profiles (main thread) of raw fetch and the client, self time grouped by where it is spent. */
export interface ProfileResult {
  mode: "profile";
  calls: number;
  /**
   * Per variant: µs of self time per call, by place (`client: fn` for the client's functions, else the runtime
   * module).
   */
  perCallUs: Record<"raw" | "client", Record<string, number>>;
}
export type ChildResult = CpuResult | ThroughputResult | PrefetchResult | WalkResult | ProfileResult;
