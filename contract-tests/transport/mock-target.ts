/**
 * The Prism mock a run checks when no base URL is given (the command line and --replay start it). A document
 * Prism refuses, or a start that outlasts its deadline, is a {@link SettingsError} naming the document and
 * Prism's reason (exit 2), not an internal error; while a large document loads, progress is reported.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import {
  PrismStartError,
  startDeadlineMs,
  startPrism,
  type PrismExit,
  type PrismServer,
} from "../../openapi/lib/prism.js";
import { SettingsError } from "../config/options.js";
import { startForwarder } from "./forward.js";
import type { Settings } from "../config/settings.js";

/** Writes whole lines (the command line scrubs every key of the run from them). */
export type Out = (line: string) => void;

/**
 * The Prism mock of the document, or an invalid setting when Prism is not installed, refuses the document or does not
 * listen in time.
 */
export async function startMock(
  settings: Pick<Settings, "specPath" | "prismStartTimeoutMs">,
  progress: Out = (l) => console.error(l),
  port = 0,
): Promise<PrismServer> {
  const spec = settings.specPath;
  const timeoutMs = settings.prismStartTimeoutMs ?? startDeadlineMs(spec);
  const mb = (statSync(spec).size / 1e6).toFixed(1);
  try {
    return await startPrism({
      spec,
      port,
      startTimeoutMs: timeoutMs,
      onWaiting: (ms, of) =>
        progress(
          `contract: the Prism mock is loading ${spec} (${mb} MB): ${Math.round(ms / 1000)} ` +
            `s of at most ${Math.round(of / 1000)} s`,
        ),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND")
      throw new SettingsError(
        "no --base-url (CONTRACT_BASE_URL) was given, and the Prism mock it would start needs " +
          "@stoplight/prism-cli: install it (npm install --save-dev @stoplight/prism-cli@5.14.2) or name a " +
          "server",
      );
    if (!(err instanceof PrismStartError)) throw err;
    if (err.reason === "exited")
      throw new SettingsError(`CONTRACT_SPEC: the Prism mock refuses ${spec}: ${err.prismMessage}`);
    throw new SettingsError(
      `CONTRACT_PRISM_START_TIMEOUT_MS: the Prism mock did not listen within ${timeoutMs} ms on ${spec} (${mb} ` +
        `MB); set --prism-start-timeout-ms (CONTRACT_PRISM_START_TIMEOUT_MS) higher on a slow or busy machine`,
    );
  }
}

/**
 * How many times a run starts the mock again after it died; past that, it is judged as any target that stops
 * answering.
 */
export const MOCK_RESTARTS = 10;

/** The embedded mock of a run, started again when it dies in the middle of the run. */
export interface MockSupervisor {
  /** The mock's base URL: a mock started again listens on the same port. */
  readonly url: string;
  /**
   * Called when a request got no HTTP response. When the mock has exited, starts it again on the same port and
   * resolves with Prism's reason for dying (its uncaught error and where it was thrown); otherwise, or once
   * {@link MOCK_RESTARTS} are spent, resolves undefined: the request got no answer from a running mock.
   */
  recover(): Promise<string | undefined>;
  /** The process id of the mock that runs now (the first, when several serve). */
  pid(): number;
  /** The process ids of every Prism process that serves now. */
  pids(): number[];
  /** Stops the mock that runs now. */
  stop(): Promise<void>;
}

/**
 * Prism dies on some requests (an uncaught error in its request validation: an optional header array left out
 * crashes its `simple` deserializer), and every request after that found no server: the run was cut short and
 * the request after the crash blamed. The supervisor starts it again, and says which request it died on and why.
 * A large document gets several Prism processes (`mockProcesses`) behind one local front, each supervised so.
 */
export async function superviseMock(
  settings: Pick<Settings, "specPath" | "prismStartTimeoutMs" | "mockProcesses">,
  progress: Out = (l) => console.error(l),
  limit = MOCK_RESTARTS,
): Promise<MockSupervisor> {
  const count = settings.mockProcesses ?? defaultMockProcesses(settings.specPath);
  const instances = await Promise.all(Array.from({ length: count }, () => superviseOne(settings, progress, limit)));
  if (instances.length === 1) return instances[0]!;
  // A local front: each request goes to the next process in turn; one that does not take it (it died) is started
  // again on its port while the target sends the request, which reached no server, again (to the next one).
  let next = 0;
  const balancer = await startForwarder(() => {
    const upstream = instances[next++ % instances.length]!;
    return { upstream: upstream.url, onUnreached: () => void upstream.recover() };
  });
  return {
    url: balancer.url,
    // A request that got no answer may have gone to any of them: each dead one is started again.
    recover: async () => (await Promise.all(instances.map((i) => i.recover()))).find((why) => why !== undefined),
    pid: () => instances[0]!.pid(),
    pids: () => instances.map((i) => i.pid()),
    stop: async () => {
      await balancer.close();
      await Promise.all(instances.map((i) => i.stop()));
    },
  };
}

/** A document this large (bytes) keeps one Prism process busy: its run gets a second one where there is a core. */
const LARGE_MOCK_DOCUMENT = 1_000_000;

/** One Prism process, or two for a document over {@link LARGE_MOCK_DOCUMENT} on a machine with two cores or more. */
function defaultMockProcesses(specPath: string): number {
  return statSync(specPath).size > LARGE_MOCK_DOCUMENT && availableParallelism() >= 2 ? 2 : 1;
}

/** One supervised Prism process. */
async function superviseOne(
  settings: Pick<Settings, "specPath" | "prismStartTimeoutMs">,
  progress: Out,
  limit: number,
): Promise<MockSupervisor> {
  let prism = await startMock(settings, progress);
  const url = prism.url;
  let restarts = 0;
  let exit: PrismExit | undefined;
  const watch = (p: PrismServer) =>
    void p.exited.then((how) => {
      if (p === prism) exit = how;
    });
  watch(prism);
  let restarting: Promise<string | undefined> | undefined;
  const restart = async (): Promise<string | undefined> => {
    // The exit of a process that just died may be reported a moment after its connections closed.
    if (!exit) await Promise.race([prism.exited, new Promise((r) => setTimeout(r, 500))]);
    if (!exit || restarts >= limit) return undefined;
    const why = crashReason(prism.output(), exit);
    restarts++;
    exit = undefined;
    try {
      prism = await startMock(settings, progress, prism.port);
    } catch (err) {
      progress(`contract: the Prism mock could not be started again: ${(err as Error).message}`);
      return undefined;
    }
    watch(prism);
    return `${why}; the mock was started again (${restarts} of at most ${limit} times in a run)`;
  };
  return {
    url,
    recover() {
      // Requests that fail together share one restart.
      restarting ??= restart().finally(() => (restarting = undefined));
      return restarting;
    },
    pid: () => prism.pid,
    pids: () => [prism.pid],
    stop: () => prism.stop(),
  };
}

/** Prism's last uncaught error in `log` and the first place it names, or how the process ended. */
export function crashReason(log: string, exit: PrismExit): string {
  const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  const lines = log.split("\n");
  let at = lines.length - 1;
  while (at >= 0 && !/^(\w+Error|Error)(\s*\[[^\]]*\])?:\s/.test(lines[at]!.trim())) at--;
  if (at < 0) return `the Prism mock exited (${how})`;
  const frame = lines.slice(at + 1).find((l) => /^\s+at\s/.test(l));
  return `the Prism mock crashed (${how}): ${prismErrorText(`${lines[at]!.trim()}${frame ? ` ${frame.trim()}` : ""}`)}`;
}

/** An error of Prism's and where it was thrown, with the machine's own folders left out of the file's path. */
export function prismErrorText(text: string): string {
  return text
    .replace(/\((?:[^()]*\/)?node_modules\//g, "(")
    .replace(/\s+/g, " ")
    .trim();
}
