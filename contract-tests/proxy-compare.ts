/**
 * `npm run contract:proxy-compare`: runs the contract suite through `prism proxy --errors` in front of a
 * target and directly against it, and prints a table of what Prism flags next to what the suite flags.
 * The target is CONTRACT_BASE_URL (with CONTRACT_API_KEY) when set; otherwise every variant of the local
 * fault-injecting server. Writes the table to reports/proxy-compare.md too.
 */
import { createServer, type IncomingMessage } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { startPrism } from "../openapi/lib/prism.js";
import { FAULTS, type Fault } from "./fault-server/faults.js";
import { FAULT_SERVER_KEY, startFaultServer } from "./fault-server/server.js";
import { limited, runSuite } from "./spawn-suite.js";

interface Row {
  variant: string;
  prism: string[];
  prismResponses: number;
  suite: string[];
}

/** A pass-through in front of Prism that notes every response Prism turned into a VIOLATIONS error. */
async function recordingForwarder(upstream: string): Promise<{ url: string; flags: Map<string, number>; stop(): Promise<void> }> {
  const flags = new Map<string, number>();
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    let r: Response;
    try {
      r = await fetch(upstream + (req.url ?? "/"), { method: req.method, headers, body, redirect: "manual" });
    } catch {
      res.writeHead(502).end();
      return;
    }
    const text = await r.text();
    if (r.status === 500 && text.includes("prism/errors#VIOLATIONS")) {
      const problem = JSON.parse(text) as { validation?: Array<{ code?: string; message: string; location: string[] }> };
      for (const v of problem.validation ?? []) {
        // Array indices and the recursion of nested schema fields collapse, so one finding is one row.
        const where = v.location.map((p) => (/^\d+$/.test(p) ? "*" : p)).join(".").replace(/(\.fields\.\*)+/g, ".fields[*]…");
        const key = `${v.code ?? v.message.slice(0, 70)} at ${where}`;
        flags.set(key, (flags.get(key) ?? 0) + 1);
      }
      flags.set("#responses", (flags.get("#responses") ?? 0) + 1);
    }
    res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "text/plain" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, flags, stop: () => new Promise((r) => server.close(() => r())) };
}

async function compare(variant: string, baseUrl: string, env: Record<string, string>): Promise<Row> {
  const direct = await runSuite({ ...env, CONTRACT_BASE_URL: baseUrl });
  const prism = await startPrism({ mode: "proxy", upstream: baseUrl, errors: true });
  const forwarder = await recordingForwarder(prism.url);
  try {
    await runSuite({ ...env, CONTRACT_BASE_URL: forwarder.url });
  } finally {
    await forwarder.stop();
    await prism.stop();
  }
  const prismResponses = forwarder.flags.get("#responses") ?? 0;
  forwarder.flags.delete("#responses");
  return { variant, prism: [...forwarder.flags.keys()].sort(), prismResponses, suite: direct.report?.summary.failedChecks ?? ["(no report)"] };
}

function table(rows: Row[]): string {
  const lines = ["| Variant | Prism proxy --errors flags | Suite flags (error checks) | Beyond the proxy |", "|---|---|---|---|"];
  for (const r of rows) {
    const prism = r.prism.length ? `${r.prism.join("; ")} (${r.prismResponses} responses)` : "nothing";
    const beyond = r.suite.length === 0 ? "-" : r.prism.length === 0 ? "yes: only the suite" : "no";
    lines.push(`| ${r.variant} | ${prism} | ${r.suite.join(", ") || "nothing (passes)"} | ${beyond} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (process.env.CONTRACT_BASE_URL?.trim()) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith("CONTRACT_") && v !== undefined)) as Record<string, string>;
    rows.push(await compare("CONTRACT_BASE_URL", process.env.CONTRACT_BASE_URL.trim(), env));
  } else {
    const server = await startFaultServer();
    const env = { CONTRACT_API_KEY: FAULT_SERVER_KEY, CONTRACT_SCHEMA_ID: "dsc_proxyCompare1" };
    const variants: Array<[string, string]> = [["conforming", server.baseUrl()], ...(Object.keys(FAULTS) as Fault[]).map((f): [string, string] => [f, server.baseUrl(f)])];
    try {
      rows.push(...(await limited(2, variants.map(([name, url]) => () => compare(name, url, env)))));
    } finally {
      await server.stop();
    }
  }
  const text = table(rows);
  const dir = resolve(process.env.CONTRACT_REPORTS_DIR?.trim() || "reports");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "proxy-compare.md"), text + "\n");
  console.log(text);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
