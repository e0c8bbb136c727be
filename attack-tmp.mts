import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { stringify } from "yaml";
import { startServer, sendJson } from "./src/test/support/server.ts";
import { runContract } from "./contract-tests/engine/run.ts";
import { readSettings } from "./contract-tests/settings.ts";
const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024));
const server = await startServer(async (req, res) => {
  const p = new URL(req.url!, "http://x").pathname;
  if (p === "/bigheader") { res.writeHead(200, { "content-type": "application/json", "x-big": "a".repeat(1024 * 1024) }); return res.end("{}"); }
  if (p === "/cookies") { res.writeHead(200, { "content-type": "application/json", "set-cookie": Array.from({ length: 5000 }, (_, i) => `c${i}=v`) }); return res.end("{}"); }
  if (p === "/slow") { res.writeHead(200, { "content-type": "application/json" }); res.write("{"); const t = setInterval(() => { try { res.write(" "); } catch { clearInterval(t); } }, 200); res.on("close", () => clearInterval(t)); return; }
  if (p === "/bomb") { res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }); return res.end(bomb); }
  if (p.startsWith("/slash/")) return sendJson(res, 200, { id: "../../admin" });
  sendJson(res, 404, {});
});
const ok = { "200": { description: "OK", content: { "application/json": { schema: {} } } } };
const doc = { openapi: "3.1.0", info: { title: "a", version: "1" }, servers: [{ url: "http://{host}:9/x", variables: { host: { default: "169.254.169.254" } } }], paths: {
  "/bigheader": { get: { operationId: "bigheader", responses: ok } },
  "/cookies": { get: { operationId: "cookies", responses: ok } },
  "/slow": { get: { operationId: "slow", responses: ok } },
  "/bomb": { get: { operationId: "bomb", responses: ok } },
  "/slash/list": { get: { operationId: "list", responses: { "200": { description: "OK", content: { "application/json": { schema: {} } }, links: { l: { operationId: "item", parameters: { id: "$response.body#/id" } } } } } } },
  "/slash/{id}": { get: { operationId: "item", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: ok } },
} };
writeFileSync("/tmp/h/attack.yaml", stringify(doc));
const t = Date.now();
const { results } = await runContract(readSettings({ CONTRACT_SPEC: "/tmp/h/attack.yaml", CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: "k-123456", CONTRACT_EXAMPLES: "1", CONTRACT_TIMEOUT_MS: "1500" }));
console.log("ms", Date.now() - t, "rss MB", Math.round(process.memoryUsage().rss / 1e6));
for (const r of results) { const f = r.findings.map((x) => `${x.check}: ${x.title.slice(0, 100)} / ${x.received.slice(0, 100)}`); if (f.length || r.skipReason) console.log(r.id, r.status, r.skipReason ?? "", [...new Set(f)].slice(0, 3)); }
console.log(server.requests.map((r) => r.url).filter((u) => u.startsWith("/slash")));
await server.close();
