/**
 * The option table and what it drives (in-process; cli.test.ts runs the command line): flags, environment
 * and config file with their precedence, the committed JSON Schema of the config file, typos named with the
 * closest option, every CONTRACT_* variable the project mentions known to the table, and the seed that
 * makes a run's generated requests repeat.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { configSchemaText, CONFIG_SCHEMA_PATH } from "../../scripts/contract-schema.js";
import { startServer, sendJson } from "../../src/test/support/server.js";
import { runContract } from "../cli/contract-run.js";
import { closest, OPTIONS, resolveOptions, SettingsError } from "../config/options.js";
import { settingsFrom } from "../config/settings.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
afterAll(() => cleanUp());

/** A project folder with these files (name to JSON value). */
function project(files: Record<string, unknown>): string {
  const dir = tempDir("contract-options-");
  for (const [name, value] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
  }
  return dir;
}

const refused = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(SettingsError);
    return (err as Error).message;
  }
  throw new Error("expected a SettingsError");
};

describe("the option table", () => {
  it("has one row per name, flag, variable and config key", () => {
    for (const field of ["name", "env", "key"] as const) {
      const values = OPTIONS.map((o) => o[field]).filter(Boolean);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it(
    "knows every CONTRACT_* variable the README, the docs and the " + "workflows mention (but the typo shown as one)",
    () => {
      const texts = ["README.md", "docs/contract-suite.md", ".github/workflows/staging-contract.yml"]
        .map((f) => readFileSync(join(ROOT, f), "utf8"))
        .join("\n");
      const mentioned = [...new Set([...texts.matchAll(/\bCONTRACT_[A-Z_]*[A-Z]\b(?!` →)/g)].map((m) => m[0]))];
      expect(mentioned.length).toBeGreaterThan(10);
      expect(mentioned.filter((v) => !OPTIONS.some((o) => o.env === v))).toEqual([]);
    },
  );

  it("is documented in the README: every flag and variable of the table", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(
      OPTIONS.filter(
        (o) => (o.flag !== false && !readme.includes(`\`--${o.name}`)) || (o.env && !readme.includes(`\`${o.env}\``)),
      ).map((o) => o.name),
    ).toEqual([]);
  });

  it("is the source of the committed JSON Schema of the config file (npm run contract:schema rewrites it)", () => {
    expect(readFileSync(CONFIG_SCHEMA_PATH, "utf8")).toBe(configSchemaText());
  });

  it("names the closest known name for a typo", () => {
    const envs = OPTIONS.map((o) => o.env!).filter(Boolean);
    expect(closest("CONTRACT_BASEURL", envs)).toBe("CONTRACT_BASE_URL");
    expect(closest("CONTRACT_APIKEY", envs)).toBe("CONTRACT_API_KEY");
    expect(closest("CONTRACT_MAX_REQUEST", envs)).toBe("CONTRACT_MAX_REQUESTS");
    expect(refused(() => resolveOptions({ argv: ["--max-request", "3"] }))).toBe(
      "unknown option --max-request; did you mean --max-requests? (see --help)",
    );
    expect(refused(() => resolveOptions({ env: { CONTRACT_STRICTMODE: "1" } }))).toMatch(
      /CONTRACT_STRICTMODE; did you mean CONTRACT_STRICT\?/,
    );
  });
});

describe("flags, environment and config file", () => {
  const dir = project({
    "contract.config.json": {
      seed: 1,
      examples: 2,
      maxRequests: 3,
      baseline: "accepted.json",
      reportsDir: "out",
      strict: true,
      operations: ["listBrowserRequests"],
    },
  });

  it("takes a flag over the environment over the file over the default, and says where each came from", () => {
    const r = resolveOptions({
      argv: ["--max-requests=9", "--strict=false"],
      env: { CONTRACT_EXAMPLES: "5", CONTRACT_MAX_REQUESTS: "8" },
      cwd: dir,
    });
    expect(Object.fromEntries([...r].map(([k, v]) => [k, [v.value, v.source]]))).toMatchObject({
      "max-requests": [9, "flag"],
      strict: [false, "flag"],
      examples: [5, "env"],
      seed: [1, "file"],
      operations: [["listBrowserRequests"], "file"],
    });
    const s = settingsFrom(r);
    expect(s).toMatchObject({
      maxRequests: 9,
      examples: 5,
      seed: 1,
      strict: false,
      operations: ["listBrowserRequests"],
    });
    // Paths in the file are relative to the file, not to where the command runs.
    expect(s.baselinePath).toBe(join(dir, "accepted.json"));
    expect(s.reportsDir).toBe(join(dir, "out"));
  });

  it(
    'reads the "contract" key of package.json when there is no ' +
      "contract.config.json, and --config names another file",
    () => {
      const pkg = project({ "package.json": { name: "x", contract: { seed: 42 } }, "ci/contract.json": { seed: 43 } });
      expect(resolveOptions({ cwd: pkg }).get("seed")).toMatchObject({
        value: 42,
        label: 'package.json "contract": seed',
      });
      expect(resolveOptions({ cwd: pkg, argv: ["--config", "ci/contract.json"] }).get("seed")).toMatchObject({
        value: 43,
        source: "file",
      });
    },
  );

  it.each([
    [{ maxRequest: 3 }, /contract\.config\.json: unknown key "maxRequest"; did you mean "maxRequests"\?/],
    [{ maxRequests: 0 }, /contract\.config\.json: maxRequests must be >= 1/],
    [{ workers: 65 }, /contract\.config\.json: workers must be <= 64/],
    [{ strict: "yes" }, /contract\.config\.json: strict must be boolean/],
    [{ operations: "listBrowserRequests" }, /contract\.config\.json: operations must be array/],
    [{ baseUrl: "ftp://x" }, /contract\.config\.json: baseUrl must match pattern/],
    [{ apiKey: "sk_live_in_a_file" }, /"apiKey" may not be in a file .* set CONTRACT_API_KEY/],
    [
      "{not json sk_live_in_a_file",
      /contract\.config\.json .* is not valid JSON \(at character 1\); its content is not shown/,
    ],
  ])("validates the file against its schema at start: %j", (config, message) => {
    const msg = refused(() => resolveOptions({ cwd: project({ "contract.config.json": config }) }));
    expect(msg).toMatch(message);
    expect(msg).not.toContain("sk_live_in_a_file");
  });

  it("refuses a key on the command line, a value-less option and a stray argument", () => {
    expect(refused(() => resolveOptions({ argv: ["--api-key", "sk_x"] }))).toMatch(
      /--api-key is not a flag: .* set CONTRACT_API_KEY/,
    );
    expect(refused(() => resolveOptions({ argv: ["--seed"] }))).toMatch(/--seed needs a value/);
    expect(refused(() => resolveOptions({ argv: ["listBrowserRequests"] }))).toMatch(
      /unexpected argument "listBrowserRequests"/,
    );
    expect(refused(() => resolveOptions({ argv: ["--seed", "-1"] }))).toMatch(
      /--seed must be an integer of at least 0/,
    );
  });

  it("refuses a selection that names nothing, with the closest name", async () => {
    const settings = (argv: string[]) => settingsFrom(resolveOptions({ argv }));
    const plan = (argv: string[]) =>
      import("../cli/contract-run.js").then(({ ContractRun }) => new ContractRun(settings(argv)).scenarios());
    await expect(plan(["--operations", "listBrowserRequest"])).rejects.toThrow(
      /matches no operation of the document; closest: listBrowserRequests/,
    );
    await expect(plan(["--operations", "tag:Browser"])).rejects.toThrow(/closest: tag:Browser Requests/);
    await expect(plan(["--phases", "negativ"])).rejects.toThrow(/did you mean negative\?/);
    await expect(plan(["--checks", "response_schema"])).rejects.toThrow(/did you mean response_schema_conformance\?/);
    expect((await plan(["--operations", "PUT /v1/**", "--phases", "auth,examples"])).map((s) => s.id)).toEqual([
      "updateDataSchema/examples",
      "updateDataSchema/auth",
    ]);
  });
});

describe("--seed", () => {
  it("sends the same generated requests for the same seed, and other ones for another", async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    try {
      const bodies = async (seed: string) => {
        const from = server.requests.length;
        await runContract(
          settingsFrom(
            resolveOptions({
              argv: [
                "--base-url",
                server.url,
                "--operations",
                "createSitemapRequest",
                "--phases",
                "positive",
                "--examples",
                "3",
                "--seed",
                seed,
              ],
              env: { CONTRACT_API_KEY: "k_seed_test" },
            }),
          ),
        );
        return server.requests.slice(from).map((r) => `${r.url} ${r.body}`);
      };
      const [a, b, c] = [await bodies("1"), await bodies("1"), await bodies("2")];
      expect(a.length).toBeGreaterThan(2);
      expect(b).toEqual(a);
      expect(c).not.toEqual(a);
    } finally {
      await server.close();
    }
  });
});
