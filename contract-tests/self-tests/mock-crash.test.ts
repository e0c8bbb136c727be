/**
 * The embedded mock survives Prism's own defects. Prism 5.14.2 throws an error it does not catch on a request that
 * leaves out an optional array or object header (its `simple` deserializer splits `undefined`); the process died,
 * every request after it was refused, and the run blamed the next request and stopped at the breaker (CI saw it on
 * the corpus's parameters-style document: 22 of 25 operations cut). Now:
 * - the launcher's preload answers the request that threw with a 500 naming the error, and Prism serves on;
 * - a mock that dies anyway (killed, out of memory) is started again on the same port by the run's supervisor;
 * - either way the finding is a warning naming Prism's defect, never an error of the document, and the run goes on.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRISM_CRASH_HEADER } from "../../openapi/lib/prism.js";
import { readSettings } from "../config/settings.js";
import { notAServerError } from "../checks/not-a-server-error.js";
import { specModel } from "../model/model.js";
import { crashReason, MOCK_RESTARTS, superviseMock, type MockSupervisor } from "../transport/mock-target.js";
import { createTarget } from "../transport/target.js";
import { cleanUp, runSuite, tempDir } from "./support/spawn.js";

/** GET /headers takes an optional array header (Prism throws when it is left out); GET /after is plain. */
function document(): string {
  const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
  const file = join(tempDir("contract-mock-crash-"), "headers.json");
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "headers", version: "1" },
      paths: {
        "/headers": {
          get: {
            operationId: "getHeaders",
            parameters: [
              { name: "tags", in: "header", style: "simple", schema: { type: "array", items: { type: "string" } } },
            ],
            responses: ok,
          },
        },
        "/after": { get: { operationId: "getAfter", responses: ok } },
      },
    }),
  );
  return file;
}

const spec = document();
const started: MockSupervisor[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  cleanUp();
});

// One mock for the launcher's and the supervisor's tests, in order (each Prism start costs seconds of CPU).
let mock: MockSupervisor;
beforeAll(async () => {
  mock = await superviseMock({ specPath: spec }, () => undefined, 1);
  started.push(mock);
});

describe("Prism's launcher", () => {
  it("answers a request Prism throws on with a 500 naming the error, and Prism serves on", async () => {
    const pid = mock.pid();
    const res = await fetch(`${mock.url}/headers`);
    expect(res.status).toBe(500);
    expect(res.headers.get(PRISM_CRASH_HEADER)).toMatch(/^TypeError: .*split.* at deserialize\w+ \(/);
    const next = await fetch(`${mock.url}/headers`, { headers: { tags: "a,b" } });
    expect(next.status).toBe(200);
    expect(await mock.recover()).toBeUndefined(); // alive: nothing to recover
    expect(mock.pid()).toBe(pid);
  });
});

describe("the run's mock supervisor", () => {
  it("starts a mock that died again on its port, and the target reports the request as the mock's defect", async () => {
    const settings = { ...readSettings({ CONTRACT_SPEC: spec }), baseUrl: mock.url }; // as the command line does
    const target = createTarget(settings, undefined, mock.recover);
    const get = { operation: "getAfter", method: "GET", path: "/after" };
    const first = mock.pid();
    process.kill(first, "SIGKILL");
    const lost = await target.send(get);
    expect(lost.response.status).toBe(0);
    expect(lost.response.mockCrash).toBe(
      "the Prism mock exited (signal SIGKILL); the mock was started again (1 of at most 1 times in a run)",
    );
    expect(mock.pid()).not.toBe(first);
    const again = await target.send(get);
    expect(again.response.status).toBe(200);
    expect(again.request.url.startsWith(mock.url)).toBe(true);
    expect(target.stopped()).toBeUndefined();
    // A warning naming the mock's defect, not an error of the document or a server.
    const [finding, ...rest] = notAServerError(lost, { model: specModel(spec), intent: "conforming" } as never);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: "warning", title: expect.stringMatching(/^The Prism mock failed/) });
    // Its restarts spent, it leaves the breaker to judge.
    process.kill(mock.pid(), "SIGKILL");
    expect(await mock.recover()).toBeUndefined();
    expect(MOCK_RESTARTS).toBeGreaterThan(1); // a run's default
  });

  it("names Prism's uncaught error and where it was thrown, without the machine's folders", () => {
    const log = [
      "[CLI] start Prism is listening",
      "/home/u/app/node_modules/@stoplight/prism-http/dist/validator/deserializers/style/simple.js:20",
      "TypeError: Cannot read properties of undefined (reading 'split')",
      "    at deserializeArray (/home/u/app/node_modules/@stoplight/prism-http/dist/x/simple.js:20:38)",
      "    at other (/home/u/app/node_modules/lodash/lodash.js:1:1)",
    ].join("\n");
    expect(crashReason(log, { code: 1, signal: null })).toBe(
      "the Prism mock crashed (exit code 1): TypeError: Cannot read properties of undefined (reading 'split') at " +
        "deserializeArray (@stoplight/prism-http/dist/x/simple.js:20:38)",
    );
    expect(crashReason("nothing", { code: null, signal: "SIGKILL" })).toBe("the Prism mock exited (signal SIGKILL)");
  });
});

describe("several Prism processes behind one front (a large document's mock)", () => {
  it("sends the requests to each in turn; one that died is started again while the other answers", {
    timeout: 60_000,
  }, async () => {
    const pair = await superviseMock({ specPath: spec, mockProcesses: 2 }, () => undefined, 1);
    started.push(pair);
    const target = createTarget(
      { ...readSettings({ CONTRACT_SPEC: spec }), baseUrl: pair.url },
      undefined,
      pair.recover,
    );
    const get = { operation: "getAfter", method: "GET", path: "/after" };
    for (let i = 0; i < 4; i++) expect((await target.send(get)).response.status).toBe(200);
    const [first, second] = pair.pids();
    expect(first).not.toBe(second);
    process.kill(second!, "SIGKILL");
    // A request the dead process does not take is sent again (it reached no server): the other one answers it,
    // and the front starts the dead one again on its port meanwhile.
    for (let i = 0; i < 4; i++) expect((await target.send(get)).response.status).toBe(200);
    for (let t = Date.now(); pair.pids()[1] === second && Date.now() - t < 30_000; )
      await new Promise((r) => setTimeout(r, 100));
    expect(pair.pids()[0]).toBe(first);
    expect(pair.pids()[1]).not.toBe(second);
    for (let i = 0; i < 4; i++) expect((await target.send(get)).response.status).toBe(200);
    expect(target.stopped()).toBeUndefined();
  });
});

describe("a contract run against the embedded mock of a document Prism throws on", () => {
  it("goes on past the requests Prism throws on, with a warning naming Prism's error, and passes", async () => {
    const run = await runSuite({ CONTRACT_SPEC: spec, CONTRACT_EXAMPLES: "2" });
    const tail = run.output.slice(-3000);
    expect(run.code, tail).toBe(0);
    expect(run.output).not.toMatch(/stopped answering/);
    const warnings = run.report!.findings.filter((f) => f.title.startsWith("The Prism mock failed on this request"));
    expect(warnings.length, tail).toBeGreaterThan(0);
    expect(warnings.every((f) => f.severity === "warning" && /TypeError/.test(f.received))).toBe(true);
    // The operation after the one Prism throws on was run to the end.
    expect(run.report!.reach!.operations.find((o) => o.operationId === "getAfter")).toMatchObject({ reached: true });
  }, 120_000);
});
