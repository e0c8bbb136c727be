/**
 * `npm run mock`: serves the OpenAPI document with Prism (static examples) on 127.0.0.1 until stopped.
 *
 * Port, first found wins: `npm run mock -- --port N` (or `--port=N`, or a bare `N`); `npm run mock --port=N`
 * (npm keeps that flag as its own config and hands it over as `npm_config_port`; `npm run mock --port N`
 * arrives as `npm_config_port=true` plus a bare `N`, also accepted); `MOCK_PORT=N`; 4010. 0 picks a free port.
 *
 * Exit codes: 0 stopped (SIGINT, SIGTERM, SIGHUP, or the npm process that started it is gone);
 * 1 could not start (port in use, Prism failed) or Prism died; 2 invalid arguments.
 *
 * Lifetime: the signals above stop Prism before this process exits. Prism itself exits when this
 * process ends in any other way (openapi/lib/prism.ts ties it to us over IPC). Because `sh -c` between
 * npm and this process dies of a forwarded SIGTERM/SIGINT without passing it on, this process also
 * watches its parent (and, when run by npm, the npm process above the shell) and stops when it is gone.
 */
import { readFileSync } from "node:fs";
import type { PrismServer } from "../openapi/lib/prism.js";
import { exitAfterOutput } from "../openapi/lib/exit.js";

const DEFAULT_PORT = 4010;
const USAGE = `usage: npm run mock [-- --port N]    or    MOCK_PORT=N npm run mock
  Serves openapi/openapi.yaml with Prism (static examples) on http://127.0.0.1:N (default ${DEFAULT_PORT}; 0 picks a free port).
  Stop with Ctrl-C, SIGTERM or SIGHUP. Exit codes: 0 stopped, 1 could not start or Prism died, 2 invalid arguments.`;

type Parsed = { help: true } | { port: number } | { error: string };

/** Works out the port from the command line and the environment (see the file comment for the order). */
function parsePort(argv: string[], env: NodeJS.ProcessEnv): Parsed {
  let fromArgs: { value: string; source: string } | undefined;
  const give = (value: string, source: string): string | undefined => {
    if (fromArgs)
      return (
        `the port is given twice (${fromArgs.source} ${JSON.stringify(fromArgs.value)} ` +
        `and ${source} ${JSON.stringify(value)})`
      );
    fromArgs = { value, source };
    return undefined;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let problem: string | undefined;
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--port" || arg === "-p") {
      const value = argv[++i];
      if (value === undefined) return { error: `${arg} needs a value, e.g. npm run mock -- --port 4011` };
      problem = give(value, arg);
    } else if (arg.startsWith("--port=")) {
      problem = give(arg.slice("--port=".length), "--port");
    } else if (!arg.startsWith("-")) {
      problem = give(arg, "argument");
    } else {
      return { error: `unknown option ${JSON.stringify(arg)}` };
    }
    if (problem) return { error: problem };
  }
  const npmPort = env.npm_config_port;
  let chosen = fromArgs;
  if (!chosen && npmPort !== undefined && npmPort !== "") {
    // `npm run mock --port` without a value (or with the value swallowed) leaves only "true" behind.
    if (npmPort === "true")
      return { error: `npm took --port as its own flag and no port arrived; use npm run mock -- --port 4011` };
    chosen = { value: npmPort, source: "npm_config_port (npm run mock --port=N)" };
  }
  if (!chosen && env.MOCK_PORT !== undefined && env.MOCK_PORT !== "")
    chosen = { value: env.MOCK_PORT, source: "MOCK_PORT" };
  if (!chosen) return { port: DEFAULT_PORT };
  const port = /^\d{1,5}$/.test(chosen.value) ? Number(chosen.value) : NaN;
  if (!(port >= 0 && port <= 65535))
    return {
      error: `invalid port ${JSON.stringify(chosen.value)} (from ${chosen.source}): give an integer from 0 to 65535`,
    };
  return { port };
}

/** pids whose end means nobody is waiting for this mock any more: the parent, and under npm the npm process too. */
function watchedAncestors(): number[] {
  const pids = [process.ppid];
  if (process.platform !== "linux" || !process.env.npm_lifecycle_event) return pids;
  // npm runs scripts as `sh -c "<script>"`: climb over shells up to the npm process itself.
  const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ash", "ksh", "busybox"]);
  try {
    let pid = process.ppid;
    for (let depth = 0; depth < 4 && SHELLS.has(readFileSync(`/proc/${pid}/comm`, "utf8").trim()); depth++) {
      // /proc/PID/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after the last ")".
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!Number.isInteger(pid) || pid <= 1) break;
      pids.push(pid);
    }
  } catch {
    // /proc unreadable: the parent alone is watched
  }
  return pids;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const parsed = parsePort(process.argv.slice(2), process.env);
if ("help" in parsed) console.log(USAGE);
if ("error" in parsed) console.error(`mock: ${parsed.error}\n${USAGE}`);
const port = "port" in parsed ? parsed.port : await exitAfterOutput("help" in parsed ? 0 : 2);

// A closed terminal (SIGHUP) or pipe must not turn a log line into a crash before Prism is stopped.
process.stdout.on("error", () => undefined);
process.stderr.on("error", () => undefined);

const startup = new AbortController();
let started: PrismServer | undefined;
let stopping = false;
const stop = async (why: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  console.error(`mock: stopping (${why})`);
  // still starting: startPrism kills Prism, rejects, we exit 0 below
  if (!started) return startup.abort(new Error(why));
  await started.stop();
  await exitAfterOutput(0);
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal));

const originalParent = process.ppid;
const ancestors = watchedAncestors();
setInterval(() => {
  if (process.ppid !== originalParent || !ancestors.every(isAlive))
    void stop("the process that started the mock is gone");
}, 500).unref();

// Imported only now, so that a wrong argument is reported without loading the launcher.
const { PortInUseError, startPrism } = await import("../openapi/lib/prism.js");
const prism = await startPrism({
  port,
  signal: startup.signal,
  onOutput: (text, stream) => (stream === "stderr" ? process.stderr : process.stdout).write(text),
}).catch((err: unknown) => {
  if (stopping) return exitAfterOutput(0);
  if (err instanceof PortInUseError) {
    console.error(
      `mock: port ${err.port} is already in use (by another process); pick ` +
        `another with npm run mock -- --port N or MOCK_PORT=N`,
    );
  } else {
    console.error(`mock: Prism did not start: ${(err as Error).message}`);
  }
  return exitAfterOutput(1);
});
started = prism;

console.log(
  `Prism mock of openapi/openapi.yaml listening on ${prism.url} (pid ${process.pid}, ` +
    `Prism pid ${prism.pid}; Ctrl-C to stop)`,
);
console.log(
  "Static mode: every answer is the document's example; PUT /v1/schemas/{id} always returns the example schema, " +
    "whose fields pair only with the example request's fields (for any other tree they do not pair, and the client " +
    "refuses the answer with a ResponseValidationError).",
);
console.log(
  "Rejections: no X-API-Key gets 401 problem+json; an invalid body 422 problem+json listing the violations; an " +
    "invalid listing query (page=0, unknown status) the documented 400 with an empty body, its reason only in the " +
    "sl-violations response header (and in the log below).",
);

void prism.exited.then((how) => {
  if (stopping) return;
  console.error(`mock: Prism exited unexpectedly (${how.signal ? `signal ${how.signal}` : `code ${how.code}`})`);
  void exitAfterOutput(1);
});
