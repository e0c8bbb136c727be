/**
 * Starts and stops Prism (mock or validating proxy) of the project's OpenAPI document on loopback.
 * Every part of the project that needs Prism (npm run mock, the contract runner, client tests,
 * benchmarks, the proxy comparison) goes through this one launcher.
 *
 * Two guarantees the launcher gives every caller:
 * - **Ready means our Prism is listening.** Readiness is not an HTTP probe of the port (another server on
 *   that port would answer it): Prism is started with a tiny preload that reports, over an IPC channel,
 *   the address its own server socket bound. If Prism exits first (e.g. `EADDRINUSE`), `startPrism`
 *   rejects; a taken port is also detected before spawning, with a {@link PortInUseError}.
 * - **Prism does not outlive its parent.** The same preload exits Prism when the IPC channel closes, which
 *   the OS does whenever the parent process ends, however it ends (SIGKILL, crash, `process.exit`
 *   without `stop()`). Signals are the caller's business: `stop()` sends SIGTERM (SIGKILL after 3 s).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { SPEC_PATH } from "./spec.js";
import { assertSelfContainedFile } from "./self-contained.js";

const require = createRequire(import.meta.url);

/** A running Prism process. */
export interface PrismServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  /** The port Prism's socket is bound to (the real one, also when port 0 or none was asked for). */
  readonly port: number;
  /** Process id of the Prism server itself (no wrapper process in between). */
  readonly pid: number;
  /** Settles when the Prism process has exited, for whatever reason (never rejects). */
  readonly exited: Promise<PrismExit>;
  /** Everything Prism printed so far (stdout and stderr). */
  output(): string;
  /** Stops the process (SIGTERM, SIGKILL after 3 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** How a Prism process ended. */
export interface PrismExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of {@link startPrism}. */
export interface PrismOptions {
  mode?: "mock" | "proxy";
  /** Upstream base URL, required for `proxy`. */
  upstream?: string;
  /** Port to listen on; when omitted (or 0) Prism binds a free one and {@link PrismServer.port} tells which. */
  port?: number;
  host?: string;
  /** Proxy only: turn responses that violate the document into 500 problem+json (`--errors`). */
  errors?: boolean;
  /** Mock only: generate dynamic data with this seed instead of serving examples. */
  dynamicSeed?: number;
  /** Prism log level; `warn` keeps it quiet and doubles throughput. */
  logLevel?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  spec?: string;
  /** How long to wait for Prism to listen, in milliseconds (default: {@link startDeadlineMs} of the document). */
  startTimeoutMs?: number;
  /** Called every {@link PROGRESS_EVERY_MS} while Prism has not listened yet (a large document loads for a while). */
  onWaiting?: (elapsedMs: number, timeoutMs: number) => void;
  /**
   * Check that the port is free before spawning Prism (default true), so a taken port fails at once with a
   * {@link PortInUseError} instead of after Prism has loaded the document. Prism failing to bind is
   * detected either way; turning this off only skips the early check.
   */
  checkPortFirst?: boolean;
  /** Called with each chunk Prism prints (stdout and stderr), e.g. to show its log in a terminal. */
  onOutput?: (text: string, stream: "stdout" | "stderr") => void;
  /** Aborting it while Prism starts kills Prism and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The port asked for is held by another socket (checked before spawning, or reported by Prism). */
export class PortInUseError extends Error {
  readonly code = "EADDRINUSE";
  constructor(
    readonly port: number,
    readonly host: string,
    /** Prism's output when Prism itself failed to bind; empty when the early check caught it. */
    readonly output = "",
  ) {
    super(`port ${port} on ${host} is already in use (by another process)`);
    this.name = "PortInUseError";
  }
}

/**
 * Prism did not start: it exited before listening (most often a document it refuses, with its reason in
 * {@link prismMessage}), or it did not listen within the deadline.
 */
export class PrismStartError extends Error {
  constructor(
    message: string,
    readonly reason: "exited" | "timeout",
    /** Prism's own account of why it stopped (its `fatal` lines), or its last output lines. */
    readonly prismMessage: string,
  ) {
    super(message);
    this.name = "PrismStartError";
  }
}

/**
 * Prism's reason for stopping, from its output: its `fatal` log lines, else the last lines it printed before its
 * usage text.
 */
function prismReason(log: string): string {
  const fatal = [...log.matchAll(/\bfatal\s+(.+)/g)].map((m) => m[1]!.trim());
  if (fatal.length > 0) return fatal.join("\n");
  const message = /\bmessage: '((?:[^'\\]|\\.)*)'/.exec(log)?.[1];
  if (message) return message;
  return log
    .split("\n")
    .filter((l) => l.trim())
    .slice(-5)
    .join("\n");
}

/** How often {@link PrismOptions.onWaiting} is called. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * The default start deadline for a document: 60 s plus 15 s per MB. Prism reads and dereferences the whole
 * document before it listens: GitHub's 13 MB description takes about 21 s on an idle 2-core machine and
 * 88 s on a busy one, so a fixed deadline fits either small documents or large ones, not both; and on a
 * machine busy with other work even a 0.1 MB document has taken over 10 s.
 */
export function startDeadlineMs(spec: string = SPEC_PATH): number {
  let bytes = 0;
  try {
    bytes = statSync(spec).size;
  } catch {
    bytes = 0; // Prism says why it cannot read it
  }
  return 60_000 + Math.ceil((15_000 * bytes) / 1_000_000);
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

/** Resolves true when `port` can be bound on `host` right now (the probe socket is closed again at once). */
function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" ? resolve(false) : reject(err)));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** The response header with which Prism's process answers a request that threw an error Prism did not catch. */
export const PRISM_CRASH_HEADER = "x-prism-uncaught-error";

/**
 * Preloaded into the Prism process (`node --import data:...`):
 * - reports the address of every server socket that starts listening, over the IPC channel, so readiness
 *   belongs to this very process and not to whatever answers on the port;
 * - exits when the IPC channel closes, i.e. when the parent is gone, whether it stopped us or not;
 * - keeps Prism serving when one request throws an error Prism does not catch (an optional array header left out
 *   crashes its `simple` deserializer, killing the process and failing every request after it): the requests
 *   open at that moment are answered 500 with the error in {@link PRISM_CRASH_HEADER}, and Prism goes on. An
 *   uncaught error while no request is open (a port in use, a broken start) still ends it, as before.
 * The channel is unref'd so that it never keeps Prism alive on its own.
 */
const PRELOAD = [
  `import net from "node:net";`,
  `const listen = net.Server.prototype.listen;`,
  `net.Server.prototype.listen = function (...args) {`,
  `  this.once("listening", () => { try { process.send({ prism: "listening", address: this.address() }); } catch ` +
    `{} });`,
  `  return listen.apply(this, args);`,
  `};`,
  `process.channel.unref();`,
  `process.on("disconnect", () => process.exit(0));`,
  `if (!process.connected) process.exit(0);`, // the parent was gone before this line ran
  `import http from "node:http";`,
  `const open = new Set();`,
  `const emit = http.Server.prototype.emit;`,
  `http.Server.prototype.emit = function (event, ...args) {`,
  `  if (event === "request") { const res = args[1]; open.add(res); res.once("close", () => open.delete(res)); }`,
  `  return emit.call(this, event, ...args);`,
  `};`,
  `const uncaught = (err) => {`,
  `  const text = String((err && err.stack) || err);`,
  // An error it survives is logged after a prefix, so that the reason of a later death is not taken from it.
  `  if (open.size === 0) { process.stderr.write(text + "\\n"); process.exit(1); }`,
  `  process.stderr.write("answered 500 to the open requests, and serving on, after: " + text + "\\n");`,
  `  const why = text.split("\\n").slice(0, 2).map((l) => l.trim()).join(" ").replace(/[^\\x20-\\x7e]/g, "?");`,
  `  for (const res of open) {`,
  `    try { if (!res.headersSent) res.writeHead(500, { "${PRISM_CRASH_HEADER}": why.slice(0, 1000) }); res.end(); }`,
  `    catch {}`,
  `  }`,
  `  open.clear();`,
  `};`,
  `process.on("uncaughtException", uncaught);`,
  `process.on("unhandledRejection", uncaught);`,
].join(" ");
// One readable line in `ps`: only the characters a data: URL cannot carry as they are get escaped.
const PRELOAD_URL = `data:text/javascript,${PRELOAD.replace(/\s+/g, " ").replace(/[%#?]/g, encodeURIComponent)}`;

interface ListeningMessage {
  prism: "listening";
  address: { address: string; port: number } | string | null;
}
const isListening = (m: unknown): m is ListeningMessage =>
  typeof m === "object" && m !== null && (m as { prism?: unknown }).prism === "listening";

/** Starts Prism and resolves once its own server socket listens. */
export async function startPrism(options: PrismOptions = {}): Promise<PrismServer> {
  const mode = options.mode ?? "mock";
  const host = options.host ?? "127.0.0.1";
  const wanted = options.port ?? 0;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535)
    throw new RangeError(`startPrism: invalid port ${String(options.port)}`);
  if (mode === "proxy" && !options.upstream) throw new Error("startPrism: mode 'proxy' needs an upstream URL");
  options.signal?.throwIfAborted();
  if (wanted !== 0 && options.checkPortFirst !== false && !(await isPortFree(wanted, host)))
    throw new PortInUseError(wanted, host);

  // Prism resolves every $ref of the document, wherever it is: a non-local one is refused before it starts.
  assertSelfContainedFile(options.spec ?? SPEC_PATH);
  const cli = require.resolve("@stoplight/prism-cli/dist/index.js");
  const args = ["--import", PRELOAD_URL, cli, mode, "-h", host, "-p", String(wanted), "-v", options.logLevel ?? "warn"];
  if (mode === "proxy") {
    if (options.errors) args.push("--errors");
    args.push(options.spec ?? SPEC_PATH, options.upstream!);
  } else {
    if (options.dynamicSeed !== undefined) args.push("-d", "--seed", String(options.dynamicSeed));
    args.push(options.spec ?? SPEC_PATH);
  }
  // process.execPath on the CLI file, not npx: the pid we hold is the server itself. The IPC channel
  // carries the readiness report and ties Prism's life to ours (see PRELOAD).
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let log = "";
  const onData = (stream: "stdout" | "stderr") => (b: Buffer) => {
    const text = b.toString();
    log += text;
    options.onOutput?.(text, stream);
  };
  child.stdout?.on("data", onData("stdout"));
  child.stderr?.on("data", onData("stderr"));
  const exited = new Promise<PrismExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    // A failed spawn emits "error" and no "exit": count it as an exit, with the reason in the log.
    child.once("error", (err) => {
      log += `${err.message}\n`;
      if (child.pid === undefined) resolve({ code: null, signal: null });
    });
  });

  let port: number;
  try {
    port = await waitUntilListening(child, exited, {
      host,
      wanted,
      timeoutMs: options.startTimeoutMs ?? startDeadlineMs(options.spec ?? SPEC_PATH),
      log: () => log,
      onWaiting: options.onWaiting,
      signal: options.signal,
    });
  } catch (err) {
    child.kill("SIGKILL");
    await exited; // reaped by us: a rejection means no process is left behind
    throw err;
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    pid: child.pid!,
    exited,
    output: () => log,
    stop: () => stopChild(child, exited),
  };
}

async function waitUntilListening(
  child: ChildProcess,
  exited: Promise<PrismExit>,
  o: {
    host: string;
    wanted: number;
    timeoutMs: number;
    log: () => string;
    signal: AbortSignal | undefined;
    onWaiting?: ((elapsedMs: number, timeoutMs: number) => void) | undefined;
  },
): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  const progress = o.onWaiting
    ? setInterval(() => o.onWaiting!(Date.now() - started, o.timeoutMs), PROGRESS_EVERY_MS)
    : undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(o.signal?.reason);
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });
  });
  let onMessage: ((m: unknown) => void) | undefined;
  const listening = new Promise<number>((resolve) => {
    onMessage = (m: unknown) => {
      if (!isListening(m) || typeof m.address !== "object" || m.address === null) return;
      resolve(m.address.port);
    };
    child.on("message", onMessage);
  });
  const failed = exited.then((how) => {
    const log = o.log();
    if (/EADDRINUSE/.test(log)) throw new PortInUseError(o.wanted, o.host, log);
    const why = how.signal ? `signal ${how.signal}` : `code ${how.code}`;
    throw new PrismStartError(`Prism exited with ${why} before listening:\n${log}`, "exited", prismReason(log));
  });
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PrismStartError(
            `Prism did not listen on ${o.host}:${o.wanted || "(any port)"} within ${o.timeoutMs} ms:\n${o.log()}`,
            "timeout",
            prismReason(o.log()),
          ),
        ),
      o.timeoutMs,
    );
  });
  try {
    const port = await Promise.race([listening, failed, timedOut, aborted]);
    if (o.wanted !== 0 && port !== o.wanted)
      throw new Error(`Prism listened on port ${port}, not on the ${o.wanted} asked for:\n${o.log()}`);
    return port;
  } finally {
    clearTimeout(timer);
    clearInterval(progress);
    if (onAbort) o.signal?.removeEventListener("abort", onAbort);
    if (onMessage) child.off("message", onMessage);
    failed.catch(() => undefined); // settles later, when Prism eventually exits
  }
}

async function stopChild(child: ChildProcess, exited: Promise<PrismExit>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.kill("SIGTERM");
    await exited;
    clearTimeout(timer);
  }
}
