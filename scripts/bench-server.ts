/**
 * The benchmark's HTTP server, run in its own process so neither its CPU nor its memory is counted with the
 * measured client's (see scripts/bench/server-core.ts for what it answers and its control endpoints).
 * Reports `{ port }` over IPC when started with an IPC channel (as scripts/bench.ts does), else prints the
 * port on stdout. Exits on SIGTERM/SIGINT, and when its parent goes away (IPC disconnect).
 *
 * Settings from the environment: DELAY_MS (default 0), TOTAL_RECORDS (default 100000), PORT (default any).
 */
import { loadSpec } from "../openapi/lib/spec.js";
import { listingExample, startBenchServer } from "./bench/server-core.js";

const bench = await startBenchServer(
  listingExample(loadSpec()),
  { delayMs: Number(process.env.DELAY_MS ?? 0), totalRecords: Number(process.env.TOTAL_RECORDS ?? 100_000) },
  Number(process.env.PORT ?? 0),
);
const port = Number(new URL(bench.url).port);
const stop = () => {
  void bench.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 1_000).unref();
};
if (process.send) {
  process.send({ port });
  process.on("disconnect", stop);
} else {
  console.log(port);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
