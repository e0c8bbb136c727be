/**
 * The contract suite's command line end to end (contract-tests/cli/run.ts spawned as users run it, piped and under
 * a pseudo-terminal): --help, options from flags, environment and config file with their precedence, typos
 * refused naming the closest option, live progress and a heartbeat, the mock run and its reports, exit codes
 * (0 pass, 1 findings, 2 invalid setting, 3 internal), findings once with a runnable curl, --replay, the
 * baseline lifecycle in the default file, a target that never answers, and no key in any output or file, in
 * any encoding a server may echo it in.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULT_SERVER_KEY,
  FAULT_SERVER_TRICKY_KEY,
  startFaultServer,
  type FaultServer,
} from "../fault-server/server.js";
import { EXIT_CODES, OPTIONS } from "../config/options.js";
import { cleanUp, runSuite, tempDir, type SuiteRun } from "./support/spawn.js";

let server: FaultServer;
let silent: Server;
const runs: Record<string, SuiteRun> = {};
const baselineRuns: SuiteRun[] = [];
const replays: SuiteRun[] = [];
/** The working directory of the baseline lifecycle: the default baseline file (contract-baseline.json) goes here. */
const project = tempDir("contract-project-");
const configProject = tempDir("contract-config-");
const SCHEMA = JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" });
const live = (baseUrl: string, extra: Record<string, string> = {}) => ({
  CONTRACT_BASE_URL: baseUrl,
  CONTRACT_API_KEY: FAULT_SERVER_KEY,
  CONTRACT_PARAMS: SCHEMA,
  ...extra,
});

/** Every form a key can take in text: raw, JSON-escaped, percent-encoded. */
const encodings = (key: string) => [
  key,
  JSON.stringify(key).slice(1, -1),
  key.replace(/\+/g, "\\u002B").replace(/\//g, "\\/"),
  encodeURIComponent(key),
];

beforeAll(async () => {
  server = await startFaultServer();
  // Accepts connections and never says a word: the preflight must give the verdict.
  silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  writeFileSync(
    join(configProject, "contract.config.json"),
    JSON.stringify({
      $schema: "./contract.config.schema.json",
      seed: 5,
      examples: 2,
      maxRequests: 7,
      operations: ["tag:Browser Requests", "/v1/site/*"],
      phases: ["auth", "negative"],
    }),
  );
  const lifecycle = async () => {
    // The server also echoes the key JSON-escaped in every answer: nothing the suite writes may hold it. No
    // CONTRACT_BASELINE: --update-baseline writes the default file, and the next plain run must read it.
    // Two generated requests per operation are enough for the baseline's story (npm test stays within its time).
    const env = live(server.baseUrl("link-count-mismatch", "echo-key"), {
      CONTRACT_API_KEY: FAULT_SERVER_TRICKY_KEY,
      CONTRACT_EXAMPLES: "2",
    });
    const inProject = { cwd: project };
    baselineRuns.push(await runSuite(env, [], undefined, inProject));
    baselineRuns.push(await runSuite(env, ["--update-baseline"], undefined, inProject));
    baselineRuns.push(await runSuite(env, [], undefined, inProject));
    const report = join(baselineRuns[0]!.reportsDir, "contract-report.json");
    // The failing request again: at the same target it still fails; at a fixed one it passes.
    replays.push(
      await runSuite(
        { CONTRACT_API_KEY: FAULT_SERVER_TRICKY_KEY, CONTRACT_PARAMS: SCHEMA },
        ["--replay", report, "--base-url", server.baseUrl("link-count-mismatch", "echo-key")],
        undefined,
        inProject,
      ),
    );
    replays.push(
      await runSuite(
        { CONTRACT_API_KEY: FAULT_SERVER_TRICKY_KEY, CONTRACT_PARAMS: SCHEMA },
        ["--replay", report, "--base-url", server.baseUrl()],
        undefined,
        inProject,
      ),
    );
    const expiredPath = join(tempDir("contract-baseline-"), "expired.json");
    const expired = JSON.parse(readFileSync(join(project, "contract-baseline.json"), "utf8")) as {
      entries: Array<{ expires: string }>;
    };
    for (const e of expired.entries) e.expires = "2020-01-01";
    writeFileSync(expiredPath, JSON.stringify(expired));
    // In parallel: a new fault with the accepted one gone (a new finding, an entry fixed), and an expired entry.
    baselineRuns.push(
      ...(await Promise.all([
        runSuite({ ...env, CONTRACT_BASE_URL: server.baseUrl("wrong-total-pages") }, [], undefined, inProject),
        runSuite({ ...env, CONTRACT_BASELINE: expiredPath }, [], undefined, inProject),
      ])),
    );
  };
  const runsWithRequests = async () => {
    runs.mock = await runSuite({});
    // Every request with the key hangs until its deadline: progress lines and heartbeats, piped and in a terminal.
    const slow = [
      live(server.baseUrl("never-answers"), { CONTRACT_TIMEOUT_MS: "1500", CONTRACT_HEARTBEAT_MS: "400" }),
      ["--operations", "listBrowserRequests", "--max-failures", "1"],
    ] as const;
    runs.slowPty = await runSuite(slow[0], [...slow[1]], undefined, { pty: true, timeoutMs: 90_000 });
    runs.slowPipe = await runSuite(slow[0], [...slow[1]]);
    runs.schema = await runSuite(live(server.baseUrl("missing-required-field")), [
      "--operations",
      "GET /v1/browser/*",
      "--phases",
      "examples",
      "--seed",
      "7",
    ]);
  };
  // Runs that end at once or wait on a deadline (the preflight's): in their own chain.
  const others = async () => {
    runs.silent = await runSuite({
      CONTRACT_BASE_URL: silentUrl,
      CONTRACT_API_KEY: FAULT_SERVER_KEY,
      CONTRACT_PREFLIGHT_TIMEOUT_MS: "1000",
    });
    runs.help = await runSuite({}, ["--help"]);
    // The file sets seed, examples, maxRequests and the selection; the environment overrides examples, a flag
    // maxRequests.
    runs.config = await runSuite({ CONTRACT_EXAMPLES: "3" }, ["--dry-run", "--max-requests", "9"], undefined, {
      cwd: configProject,
    });
    runs.badSetting = await runSuite({ CONTRACT_SITEMAP_URL: "ftp://example.com" });
    runs.typoEnv = await runSuite({ CONTRACT_BASEURL: "https://staging.example.com", CONTRACT_APIKEY: "x" });
    runs.typoFlag = await runSuite({}, ["--only", "listBrowserRequests"]);
    runs.badBaseline = await runSuite({ CONTRACT_BASELINE: fileURLToPath(import.meta.url) });
  };
  await Promise.all([lifecycle(), runsWithRequests(), others()]);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  silent?.close();
  cleanUp();
});

describe("options", () => {
  it(
    "--help lists every option of the table with its default, " +
      "environment variable and config key, and the precedence",
    () => {
      const run = runs.help!;
      expect(run.code).toBe(0);
      expect(run.output).toContain("Precedence: flags > environment variables > config file");
      for (const o of OPTIONS) {
        expect(run.output, o.name).toContain(o.flag === false ? `(${o.env} only)` : `--${o.name}`);
        expect(run.output, o.name).toContain(`default: ${o.default}`);
        if (o.env) expect(run.output).toContain(`env: ${o.env}`);
        if (o.key) expect(run.output).toContain(`config: ${o.key}`);
      }
    },
  );

  it("--help and the README list the same exit codes, 0 to 4 (incomplete included)", () => {
    expect(runs.help!.output).toContain(
      `Exit codes: ${EXIT_CODES.map(([code, what]) => `${code} ${what}`).join(", ")}.`,
    );
    expect(EXIT_CODES.map(([code]) => code)).toEqual([0, 1, 2, 3, 4]);
    // The README's list in its "Contract suite" section.
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
    const section = readme.slice(
      readme.indexOf("## Contract suite"),
      readme.indexOf("\n## ", readme.indexOf("## Contract suite") + 1),
    );
    const listed = section.slice(section.indexOf("**Exit codes:**")).split("\n\n")[0]!;
    expect([...listed.matchAll(/^- \*\*(\d)\*\*:/gm)].map((m) => Number(m[1]))).toEqual([0, 1, 2, 3, 4]);
  });

  it(
    "reads contract.config.json under the environment and the flags, and " +
      "narrows the run to the selected operations and phases",
    () => {
      const run = runs.config!;
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/^ {2}seed +5 +from contract\.config\.json: seed$/m);
      expect(run.output).toMatch(/^ {2}examples +3 +from CONTRACT_EXAMPLES$/m);
      expect(run.output).toMatch(/^ {2}max-requests +9 +from --max-requests$/m);
      const planned = run.lines
        .map((l) => l.text.trim())
        .filter((t) => /^\w+\/(auth|negative|examples|positive)$/.test(t));
      expect(planned).toEqual([
        "createSitemapRequest/negative",
        "createSitemapRequest/auth",
        "listBrowserRequests/negative",
        "listBrowserRequests/auth",
      ]);
    },
  );

  it("refuses a misspelt variable or flag with exit 2, naming the closest known one, before testing anything", () => {
    expect(runs.typoEnv!.code).toBe(2);
    expect(runs.typoEnv!.output).toMatch(
      /unknown environment variable CONTRACT_(BASEURL|APIKEY); did you mean CONTRACT_(BASE_URL|API_KEY)\?/,
    );
    expect(runs.typoFlag!.code).toBe(2);
    expect(runs.typoFlag!.output).toContain("unknown option --only; did you mean --operations?");
    for (const run of [runs.typoEnv!, runs.typoFlag!]) expect(run.output).not.toMatch(/Contract suite:|Prism|\n\s+at /);
  });
});

describe("progress, in a pipe and in a terminal", () => {
  it("prints the seed first, then a line per finished scenario as it finishes, not all at the end", () => {
    const run = runs.mock!;
    expect(run.output).toMatch(/^Seed: 20251121 /m);
    const progress = run.lines.filter((l) => /^\[ *\d+\/\d+\] [✓✗-] /.test(l.text));
    expect(progress.length).toBe(
      run.report!.summary.scenarios.passed +
        run.report!.summary.scenarios.skipped +
        run.report!.summary.scenarios.failed,
    );
    expect(progress[0]!.text).toMatch(
      /^\[ 1\/\d+\] ✓ createSitemapRequest › examples \(\d+ requests?, 0 errors, 0 warnings, \d+\.\d s\)$/,
    );
    const end = run.lines.at(-1)!.ms;
    expect(end - progress[0]!.ms, "the first line came well before the end").toBeGreaterThan(300);
  });

  it.each(["slowPty", "slowPipe"])(
    "%s: a heartbeat while a request is outstanding, --max-failures stops the run, and the process ends",
    (name) => {
      const run = runs[name]!;
      expect(run.code, run.output.slice(-2000)).toBe(1);
      const texts = run.lines.map((l) => l.text);
      const first = texts.findIndex((t) => /^\[ *1\/\d+\] ✗ listBrowserRequests › examples/.test(t));
      const heartbeat = /^ {2}… still running listBrowserRequests › examples: waiting \d+\.\d s for GET /;
      const beat = texts.findIndex((t) => heartbeat.test(t) && t.includes("/v1/browser/requests"));
      expect(beat, run.output.slice(0, 3000)).toBeGreaterThanOrEqual(0);
      expect(beat, "the heartbeat came while the first scenario was still running").toBeLessThan(first);
      expect(run.output).toContain("skipped: 1 scenario failed, the limit of --max-failures 1");
      expect(run.ms, "seconds: no hang").toBeLessThan(40_000);
    },
  );
});

describe("the mock run", () => {
  it("exits 0, prints the report by operation and the closing count line, and writes six reports", () => {
    const run = runs.mock!;
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toContain("Contract report: mock target");
    for (const op of [
      "createSitemapRequest (POST /v1/site/map)",
      "updateDataSchema (PUT /v1/schemas/{id})",
      "listBrowserRequests (GET /v1/browser/requests)",
    ])
      expect(run.output).toContain(`== ${op} ==`);
    expect(run.output).toMatch(/^Verdict: PASS \(reached all 3 operations\)\n\d+ passed, 0 failed, \d+ skipped$/m);
    expect(Object.keys(run.files()).sort()).toEqual([
      "contract-exchanges.har",
      "contract-junit.xml",
      "contract-report.json",
      "contract-report.sarif",
      "contract-report.txt",
      "contract-summary.md",
    ]);
    expect(run.report).toMatchObject({ verdict: "pass", target: { kind: "mock" } });
  });

  it("marks scenarios that need a live target as skipped with the reason, in the report and the JUnit file", () => {
    const run = runs.mock!;
    expect(run.report!.skipped.map((s) => s.reason)).toContain(
      "skipped: needs a live target (the mock answers static examples whatever the state)",
    );
    expect(run.files()["contract-junit.xml"]).toMatch(
      /<property name="skip-reason" value="skipped: needs a live target[^"]*"\/>\s*<\/properties>\s*<skipped\/>/,
    );
    expect(run.files()["contract-summary.md"]).toMatch(/^## Contract suite: ✅ pass/);
  });
});

describe("findings", () => {
  it(
    "exits 1 for a finding, reported once, naming the check in the output, the " +
      "JSON, the JUnit failure and the markdown summary with its curl",
    () => {
      const run = baselineRuns[0]!;
      expect(run.code, run.output.slice(-3000)).toBe(1);
      expect(run.output.split("✗ [error] sitemap_link_count:").length - 1, "one finding, printed once").toBe(1);
      expect(run.report!.summary.failedChecks).toEqual(["sitemap_link_count"]);
      expect(run.files()["contract-junit.xml"]).toMatch(
        /<failure message="\d+ contract finding\(s\): sitemap_link_count"/,
      );
      const summary = run.files()["contract-summary.md"]!;
      expect(summary).toMatch(/## Contract suite: ❌ fail[\s\S]*`sitemap_link_count`/);
      expect(summary).toMatch(/```sh\ncurl -X POST .*"x-api-key: \$CONTRACT_API_KEY"/);
    },
  );

  it("points a schema finding into the document, and repeats the generation seed it was given", () => {
    const run = runs.schema!;
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/^Seed: 7 /m);
    const paths = run
      .report!.findings.filter((f) => f.check === "response_schema_conformance")
      .map((f) => f.schemaPath);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^#\/components\/schemas\/\w+\/required$/);
  });

  it(
    "never writes the key, echoed JSON-escaped by the server, to " + "the output or any report file (JUnit included)",
    () => {
      for (const [name, run] of Object.entries({
        ...runs,
        ...Object.fromEntries([...baselineRuns, ...replays].map((r, i) => [`lifecycle${i}`, r])),
      })) {
        const all = [run.output, ...Object.values(run.files())].join("\n");
        for (const form of [...encodings(FAULT_SERVER_TRICKY_KEY), ...encodings(FAULT_SERVER_KEY)])
          expect(all.includes(form), `${name} leaks ${form}`).toBe(false);
      }
      expect(baselineRuns[0]!.output, "the echo itself is reported, scrubbed").toContain('"served for ***"');
    },
  );

  it("--replay re-sends exactly the failing requests: still failing at the same target, passing at a fixed one", () => {
    const [same, fixed] = replays;
    expect(same!.code, same!.output).toBe(1);
    expect(same!.output).toMatch(/^✗ still fails: createSitemapRequest sitemap_link_count: /m);
    expect(same!.output).toContain("Replay: 1 of 1 still fails, 0 pass now");
    expect(fixed!.code, fixed!.output).toBe(0);
    expect(fixed!.output).toMatch(/^✓ passes now: createSitemapRequest sitemap_link_count: .*\(now 2\d\d\)$/m);
  });

  it(
    "gives a target that accepts connections and never answers a " +
      "verdict within the preflight deadline, saying why",
    () => {
      const run = runs.silent!;
      expect(run.code).toBe(1);
      expect(run.ms, "seconds, not the minutes of every request's full timeout").toBeLessThan(60_000);
      expect(run.output).toMatch(/preflight: the target answers HTTP/);
      expect(run.report!.findings[0]).toMatchObject({
        check: "not_a_server_error",
        received: "no HTTP answer within 1000 ms",
      });
      // The request shown is the one the preflight sent: its probe, the first safe operation without path parameters.
      expect(run.report!.findings[0]!.curl).toMatch(/^curl -X GET '[^']*\/v1\/browser\/requests'/);
      expect(run.report!.skipped.every((s) => s.reason.includes("did not answer the preflight"))).toBe(true);
    },
  );

  // (A base URL with credentials is refused without repeating them: settings.test.ts, in-process.)
  it("exits 2 for an invalid setting, naming the variable and the rule, before starting anything", () => {
    expect(runs.badSetting!.code).toBe(2);
    expect(runs.badSetting!.output).toContain(
      'contract: invalid setting: CONTRACT_SITEMAP_URL must use http or https, got "ftp:"',
    );
    expect(runs.badSetting!.output).not.toContain("Prism");
    expect(runs.badBaseline!.code).toBe(2);
    expect(runs.badBaseline!.output).toMatch(/CONTRACT_BASELINE .* is not valid JSON/);
  });
});

describe("the baseline of accepted findings", () => {
  it(
    "fails on a finding; --update-baseline writes the default file; then the " +
      "next plain run reads it and passes, showing it as accepted",
    () => {
      const [first, update, accepted] = baselineRuns;
      expect(first!.code).toBe(1);
      expect(update!.code).toBe(0);
      expect(update!.output).toContain(
        `Baseline: wrote 1 entry to ${join(project, "contract-baseline.json")} (the file the next run reads)`,
      );
      expect(existsSync(join(project, "contract-baseline.json"))).toBe(true);
      expect(accepted!.code, accepted!.output.slice(-2000)).toBe(0);
      expect(accepted!.report!.accepted[0]).toMatchObject({
        check: "sitemap_link_count",
        operation: "createSitemapRequest",
      });
      expect(accepted!.output).toMatch(/~ accepted by the baseline until \d{4}-\d\d-\d\d: sitemap_link_count/);
    },
  );

  it(
    "fails again on a new finding the baseline does not list, and " + "reports the entry no longer occurring as fixed",
    () => {
      const run = baselineRuns[3]!;
      expect(run.code).toBe(1);
      expect(run.report!.summary.failedChecks).toEqual(["listing_total_pages"]);
      expect(run.report!.baseline.fixed).toHaveLength(1);
      expect(run.output).toMatch(/✓ fixed: baseline entry createSitemapRequest sitemap_link_count/);
    },
  );

  it("fails on an expired entry whose finding still occurs", () => {
    const run = baselineRuns[4]!;
    expect(run.code).toBe(1);
    expect(run.report!.baseline.expired).toHaveLength(1);
    expect(run.output).toMatch(/✗ baseline entry expired on 2020-01-01/);
  });
});
