/**
 * `npm run contract:proxy-compare`: runs the contract suite through `prism proxy --errors` in front of a
 * target and directly against it, and prints a table of what Prism flags next to what the suite flags.
 * The target is CONTRACT_BASE_URL (with its CONTRACT_* settings) when set; otherwise every variant of the local
 * fault-injecting server, with a document copy that adds an operation. Writes the table to
 * reports/proxy-compare.md too.
 */
import { createServer, type IncomingMessage } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { startPrism } from "../../openapi/lib/prism.js";
import { runContract } from "./contract-run.js";
import { FAULTS, type Fault } from "../fault-server/faults.js";
import { FAULT_SERVER_KEY, FAULT_SERVER_SECOND_KEY, startFaultServer } from "../fault-server/server.js";
import { documentWithAddedOperation } from "../fixtures/document-copy.js";
import { readSettings, type Settings } from "../config/settings.js";
import { exitAfterOutput } from "../../openapi/lib/exit.js";

interface Row {
  variant: string;
  prism: string[];
  prismResponses: number;
  suite: string[];
}

/** A pass-through in front of Prism that notes every response Prism turned into a VIOLATIONS error. */
async function recordingForwarder(
  upstream: string,
): Promise<{ url: string; flags: Map<string, number>; stop(): Promise<void> }> {
  const flags = new Map<string, number>();
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length"),
    ) as Record<string, string>;
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
      const problem = JSON.parse(text) as {
        validation?: Array<{ code?: string; message: string; location: string[] }>;
      };
      for (const v of problem.validation ?? []) {
        // Array indices and the recursion of nested schema fields collapse, so one finding is one row.
        const where = v.location
          .map((p) => (/^\d+$/.test(p) ? "*" : p))
          .join(".")
          .replace(/(\.fields\.\*)+/g, ".fields[*]…");
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

/** Runs the suite (in this process) directly against `baseUrl` and through Prism's validating proxy. */
async function compare(variant: string, baseUrl: string, settings: Settings): Promise<Row> {
  const { results } = await runContract({ ...settings, baseUrl });
  const suite = [
    ...new Set(results.flatMap((r) => r.findings.filter((f) => f.severity === "error").map((f) => f.check))),
  ].sort();
  const prism = await startPrism({ mode: "proxy", upstream: baseUrl, errors: true, spec: settings.specPath });
  const forwarder = await recordingForwarder(prism.url);
  try {
    await runContract({ ...settings, baseUrl: forwarder.url });
  } finally {
    await forwarder.stop();
    await prism.stop();
  }
  const prismResponses = forwarder.flags.get("#responses") ?? 0;
  forwarder.flags.delete("#responses");
  return { variant, prism: [...forwarder.flags.keys()].sort(), prismResponses, suite };
}

function table(rows: Row[]): string {
  const lines = [
    "| Variant | Prism proxy --errors flags | Suite flags (error checks) | Beyond the proxy |",
    "|---|---|---|---|",
  ];
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
    const settings = readSettings(process.env);
    rows.push(await compare("CONTRACT_BASE_URL", settings.baseUrl, settings));
  } else {
    const server = await startFaultServer();
    // The document copy with GET /v1/browser/requests/{id} added, so the faults of that operation show too.
    const settings = readSettings({
      CONTRACT_BASE_URL: server.baseUrl(),
      CONTRACT_API_KEY: FAULT_SERVER_KEY,
      CONTRACT_SECOND_API_KEY: FAULT_SERVER_SECOND_KEY,
      CONTRACT_PARAMS: '{"updateDataSchema.id":"dsc_proxyCompare1"}',
      CONTRACT_SPEC: documentWithAddedOperation(),
    });
    const variants: Array<[string, string]> = [
      ["conforming", server.baseUrl()],
      ...(Object.keys(FAULTS) as Fault[]).map((f): [string, string] => [f, server.baseUrl(f)]),
    ];
    try {
      // A fault whose refusal the document does not promise is held under CONTRACT_STRICT=1 (see faults.ts).
      for (const [name, url] of variants)
        rows.push(
          await compare(
            name,
            url,
            name in FAULTS && "strict" in FAULTS[name as Fault] ? { ...settings, strict: true } : settings,
          ),
        );
    } finally {
      await server.stop();
    }
  }
  const text = table(rows);
  const dir = resolve(process.env.CONTRACT_REPORTS_DIR?.trim() || "reports");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "proxy-compare.md"), `${text}\n`);
  console.log(text);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  void exitAfterOutput(1);
});
