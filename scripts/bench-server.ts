/**
 * The benchmark's HTTP server, run in its own process so it does not compete with the measured client
 * for the event loop. `listing`: the document's listing example on every request. `paging`: pages of
 * `pageSize` generated records, `TOTAL_RECORDS` in all. Prints the port on stdout.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadSpec } from "../openapi/lib/spec.js";

const mode = process.argv[2] ?? "listing";
const totalRecords = Number(process.env.TOTAL_RECORDS ?? 100_000);
const listingOp = loadSpec().paths["/v1/browser/requests"].get;
const examples = listingOp.responses["200"].content["application/json"].examples;
const example = JSON.stringify(examples[Object.keys(examples)[0]!].value);
const template = JSON.parse(example).data.results[0];

const server = createServer((req, res) => {
  res.setHeader("content-type", "application/json");
  if (mode === "listing") return res.end(example);
  const url = new URL(req.url ?? "/", "http://x");
  const pageSize = Number(url.searchParams.get("pageSize") ?? 30);
  const page = Number(url.searchParams.get("page") ?? 1);
  const totalPages = Math.ceil(totalRecords / pageSize);
  const start = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, totalRecords - start));
  const results = Array.from({ length: count }, (_, i) => ({ ...template, id: `brq_${String(start + i).padStart(30, "0")}` }));
  res.end(JSON.stringify({ data: { total_pages: totalPages, total_records: totalRecords, results, page, page_size: pageSize }, error: null }));
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log((server.address() as AddressInfo).port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
