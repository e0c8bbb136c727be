/**
 * The mock's life: it refuses a taken port instead of claiming another server as its own, it stops with
 * every process it started when its npm process is signalled or killed, and it reads its port the ways a
 * user gives it. Everything runs the real `npm run mock` (or scripts/mock.ts) against real loopback ports.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer as createHttpServer, type Server } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { freePort, PortInUseError, startPrism } from "../lib/prism.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The environment a user would have, without port settings inherited from whoever runs the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.MOCK_PORT;
  delete env.npm_config_port;
  return { ...env, ...extra };
}

interface Run {
  child: ChildProcess;
  /** Process group of the run: npm (or node) and everything it started, unless something left the group. */
  pgid: number;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: Run[] = [];

/** Starts a command in a process group of its own, so the test can tell whether anything of it is left. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (output += b.toString()));
  // After "exit", the pipes may still hold the last output: wait for both to end (bounded, since a grandchild
  // such as Prism could keep a pipe open).
  const ended = (s: NodeJS.ReadableStream) =>
    new Promise<void>((r) => {
      s.once("end", () => r());
      s.once("close", () => r());
    });
  const drained = Promise.all([ended(child.stdout!), ended(child.stderr!)]);
  const exit = once(child, "exit").then(async ([code, signal]) => {
    await Promise.race([drained, sleep(2_000)]);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const run = { child, pgid: child.pid!, output: () => output, exit };
  runs.push(run);
  return run;
}
const npmRunMock = (args: string[], env: Record<string, string> = {}) =>
  start("npm", ["run", "mock", ...args], cleanEnv(env));
const nodeMock = (args: string[], env: Record<string, string> = {}) =>
  start(process.execPath, ["--import", "tsx", join(ROOT, "scripts/mock.ts"), ...args], cleanEnv(env));

/** Waits for the banner and returns what it says (URL and Prism's pid). */
async function listening(run: Run): Promise<{ url: string; port: number; mockPid: number; prismPid: number }> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const m = /listening on (http:\/\/127\.0\.0\.1:(\d+)) \(pid (\d+), Prism pid (\d+);/.exec(run.output());
    if (m) return { url: m[1]!, port: Number(m[2]), mockPid: Number(m[3]), prismPid: Number(m[4]) };
    if (run.child.exitCode !== null || run.child.signalCode !== null || Date.now() > deadline) {
      throw new Error(`the mock did not start:\n${run.output()}`);
    }
    await sleep(50);
  }
}

/** True while any process of the group exists (zombies included: they are reaped by their parent). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
/** Whether a TCP connection to the port is accepted now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
/** Polls until `done()` or the deadline; returns how long it took, or throws. */
async function within(ms: number, what: string, done: () => boolean | Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  while (!(await done())) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
  return Date.now() - t0;
}
const answersWithKey = async (url: string) =>
  (await fetch(`${url}/v1/browser/requests`, { headers: { "X-API-Key": "k" } })).status;

const servers: Server[] = [];
/** A plain node:http server on a free loopback port: "another process" holding the port. */
async function foreignServer(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = createHttpServer((_req, res) => {
    hits++;
    res.end("not the mock");
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as { port: number }).port, hits: () => hits };
}

afterAll(async () => {
  // Whatever a failed test left behind: its whole process group. (Not afterEach: tests run concurrently.)
  for (const run of runs.splice(0)) if (groupAlive(run.pgid)) process.kill(-run.pgid, "SIGKILL");
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

// Everything here spawns processes and mostly waits: all of it runs at once (vitest's maxConcurrency, 5).
describe.concurrent("the mock's life", { timeout: 60_000 }, () => {
  describe.concurrent("a taken port", () => {
    test(
      "npm run mock on a port another server holds exits 1 " + "naming the port, and never claims to listen",
      async () => {
        const other = await foreignServer();
        const run = npmRunMock(["--", "--port", String(other.port)]);
        const { code } = await run.exit;
        expect(code).toBe(1);
        expect(run.output()).toContain(
          `mock: port ${other.port} is already in use (by another process); pick ` +
            `another with npm run mock -- --port N or MOCK_PORT=N`,
        );
        expect(run.output()).not.toContain("listening on");
        const res = await fetch(`http://127.0.0.1:${other.port}/`);
        expect(await res.text()).toBe("not the mock");
      },
    );

    test("startPrism({port}) on a taken port rejects with PortInUseError before spawning", async () => {
      const other = await foreignServer();
      const err = await startPrism({ port: other.port }).then(
        () => new Error("startPrism resolved on a taken port"),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PortInUseError);
      expect((err as PortInUseError).port).toBe(other.port);
      expect((err as PortInUseError).message).toBe(
        `port ${other.port} on 127.0.0.1 is already in use (by another process)`,
      );
    });

    test(
      "without the early check, startPrism still rejects: readiness " +
        "is our Prism listening, not the port answering",
      async () => {
        const other = await foreignServer();
        // Prism's own EADDRINUSE (not the start timeout) proves readiness waited for our Prism, however long it took.
        const err = await startPrism({ port: other.port, checkPortFirst: false }).then(
          () => new Error("startPrism resolved on a taken port"),
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(PortInUseError);
        expect((err as PortInUseError).output).toMatch(/EADDRINUSE/);
      },
    );
  });

  describe.concurrent("stopping (SIGTERM to npm: see mock.test.ts)", () => {
    // One invocation form per test, so that the ways of giving the port are covered by the same runs. Each
    // test also checks which mechanism stopped the mock: the IPC tie of Prism to its parent would free the
    // port even if the mock's own handling were broken.
    const cases: {
      name: string;
      launch: (port: number) => Run;
      kill: "npm" | "mock";
      signal: NodeJS.Signals;
      says: string;
    }[] = [
      {
        name: "SIGINT to the npm process of `MOCK_PORT=N npm run mock`: npm forwards it, the mock stops Prism",
        launch: (p) => npmRunMock([], { MOCK_PORT: String(p) }),
        kill: "npm",
        signal: "SIGINT",
        says: "mock: stopping (SIGINT)",
      },
      {
        name: "SIGHUP to the mock of `npm run mock --port N` (no --: npm_config_port=true and a bare N)",
        launch: (p) => npmRunMock(["--port", String(p)]),
        kill: "mock",
        signal: "SIGHUP",
        says: "mock: stopping (SIGHUP)",
      },
      {
        name:
          "SIGKILL of the npm process of `npm run mock --port=N` " +
          "(npm_config_port=N): the mock sees its parent gone",
        launch: (p) => npmRunMock([`--port=${p}`]),
        kill: "npm",
        signal: "SIGKILL",
        says: "mock: stopping (the process that started the mock is gone)",
      },
    ];

    test.each(cases)(
      "$name; the port is free again and no process of the run is left",
      async ({ launch, kill, signal, says }) => {
        const port = await freePort();
        const run = launch(port);
        const { url, port: bound, mockPid, prismPid } = await listening(run);
        expect(bound).toBe(port);
        expect(await answersWithKey(url)).toBe(200);
        expect(pidAlive(prismPid)).toBe(true);

        process.kill(kill === "npm" ? run.pgid : mockPid, signal);
        await within(5_000, "every process of the run gone", () => !groupAlive(run.pgid));
        expect(pidAlive(prismPid)).toBe(false);
        expect(await accepts(port)).toBe(false);
        expect(run.output()).toContain(says);
      },
    );

    test(
      "SIGKILL of scripts/mock.ts itself (nothing forwarded): " + "Prism exits on its own as its parent is gone",
      async () => {
        const run = nodeMock(["--port", "0"]);
        const { port, prismPid } = await listening(run);
        expect(await accepts(port)).toBe(true);
        run.child.kill("SIGKILL");
        await within(5_000, "Prism gone after its parent was killed", () => !pidAlive(prismPid));
        expect(await accepts(port)).toBe(false);
      },
    );
  });

  describe.concurrent("arguments", () => {
    test.each([
      {
        how: "MOCK_PORT=abc",
        args: [],
        env: { MOCK_PORT: "abc" } as Record<string, string>,
        named: '"abc" (from MOCK_PORT)',
      },
      { how: "--port 70000", args: ["--port", "70000"], env: {}, named: '"70000" (from --port)' },
      {
        how: "npm_config_port=4o10",
        args: [],
        env: { npm_config_port: "4o10" } as Record<string, string>,
        named: '"4o10" (from npm_config_port',
      },
      { how: "--port without a value", args: ["--port"], env: {}, named: "--port needs a value" },
      { how: "an unknown option", args: ["--prot", "4011"], env: {}, named: 'unknown option "--prot"' },
    ])("$how exits 2 naming the value", async ({ args, env, named }) => {
      const run = nodeMock(args, env);
      const { code } = await run.exit;
      expect(code).toBe(2);
      expect(run.output()).toContain(named);
      expect(run.output()).not.toContain("listening on");
    });
  });
});
