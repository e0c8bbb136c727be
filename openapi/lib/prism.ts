/**
 * Starts and stops Prism (mock or validating proxy) of the project's OpenAPI document on loopback.
 * Every part of the project that needs Prism (npm run mock, the contract runner, client tests,
 * benchmarks, the proxy comparison) goes through this one launcher.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { SPEC_PATH } from "./spec.js";

const require = createRequire(import.meta.url);


/** A running Prism process. */
export interface PrismServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  readonly port: number;
  /** Everything Prism printed so far (stdout and stderr). */
  output(): string;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/** Options of {@link startPrism}. */
export interface PrismOptions {
  mode?: "mock" | "proxy";
  /** Upstream base URL, required for `proxy`. */
  upstream?: string;
  /** Port to listen on; a free one is picked when omitted. */
  port?: number;
  host?: string;
  /** Proxy only: turn responses that violate the document into 500 problem+json (`--errors`). */
  errors?: boolean;
  /** Mock only: generate dynamic data with this seed instead of serving examples. */
  dynamicSeed?: number;
  /** Prism log level; `warn` keeps it quiet and doubles throughput. */
  logLevel?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  spec?: string;
  /** How long to wait for Prism to answer, in milliseconds. */
  startTimeoutMs?: number;
}

/** Asks the OS for a free loopback port. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts Prism and resolves once it answers HTTP requests. */
export async function startPrism(options: PrismOptions = {}): Promise<PrismServer> {
  const mode = options.mode ?? "mock";
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const cli = require.resolve("@stoplight/prism-cli/dist/index.js");
  const args = [cli, mode, "-h", host, "-p", String(port), "-v", options.logLevel ?? "warn"];
  if (mode === "proxy") {
    if (!options.upstream) throw new Error("startPrism: mode 'proxy' needs an upstream URL");
    if (options.errors) args.push("--errors");
    args.push(options.spec ?? SPEC_PATH, options.upstream);
  } else {
    if (options.dynamicSeed !== undefined) args.push("-d", "--seed", String(options.dynamicSeed));
    args.push(options.spec ?? SPEC_PATH);
  }
  // process.execPath on the CLI file, not npx: the pid we hold is the server itself.
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout?.on("data", (b: Buffer) => (log += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (log += b.toString()));
  const url = `http://${host}:${port}`;
  try {
    await waitUntilAnswering(url, child, options.startTimeoutMs ?? 30_000, () => log);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return { url, port, output: () => log, stop: () => stopChild(child) };
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with code ${child.exitCode} before answering:\n${log()}`);
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      return; // any HTTP answer (404 included) means it is listening
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`Prism did not answer on ${url} within ${timeoutMs} ms:\n${log()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
