/** The conforming server's in-memory data: browser requests and the type-name mapping it chose. */

const STATES = ["completed", "failed", "running", "pending"] as const;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A deterministic 30-character id with `prefix` (live ids are a prefix and 30 letters/digits). */
export function makeId(prefix: string, n: number): string {
  let out = "";
  let x = (n + 1) * 2_654_435_761;
  for (let i = 0; i < 30; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    out += ALNUM[x % ALNUM.length];
  }
  return prefix + out;
}

/** `count` browser requests in all four states, with the live service's extra `query` member on actions. */
export function browserRequests(count = 47, offset = 0): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, n) => {
    const i = n + offset;
    const state = STATES[i % STATES.length]!;
    const started = state !== "failed" && state !== "pending";
    const id = makeId("brq_", i);
    return {
      id,
      url: `https://site${i}.example.com/`,
      proxy_location: i % 3 === 0 ? "us" : null,
      state,
      credit_usage: started ? 2 : 0,
      error: state === "failed" ? "NavigationError" : null,
      error_reason: state === "failed" ? "The page could not be reached." : null,
      actual_url: started ? `https://site${i}.example.com/` : null,
      http_status_code: started ? 200 : null,
      from_cache: false,
      started_at: started ? "2025-08-22T11:05:43.328175Z" : null,
      completed_at: state === "completed" ? "2025-08-22T11:05:47.1020000+00:00" : null,
      running_time: state === "completed" ? "00:00:03.7738250" : null,
      page_load_time: started ? "00:00:01.2500000" : null,
      actions: started
        ? [
            {
              id: makeId("act_", i),
              type: "wait",
              custom_id: null,
              timestamp: "2025-08-22T11:05:44Z",
              output: null,
              reference: null,
              iterations: null,
              actions: null,
              error: null,
              query: "wait?timeout=1000",
            },
          ]
        : null,
      video: null,
    };
  });
}

/** The server's own choice of integers for the eight type names (alphabetical order). */
export const TYPE_CODES: Record<string, number> = Object.fromEntries(
  ["array", "boolean", "datetime", "decimal", "double", "integer", "object", "string"].map((name, i) => [name, i]),
);
