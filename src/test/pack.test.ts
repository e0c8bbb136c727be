/**
 * The package as users get it: `npm run build`, `npm pack`, install the tarball into a scratch project in a
 * temp dir, and `import { createClient } from "webauto-api"` in a plain node script that calls a real
 * local server.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeBlocks } from "../../scripts/test/readme-blocks.js";
import { FAULT_SERVER_KEY, startFaultServer } from "../../contract-tests/fault-server/server.js";
import { browserRequest, listing, sendJson, startServer } from "./support/server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "webauto-pack-"));
const scratch = join(work, "scratch");
let packed: string[] = [];
let tarball = "";

function run(cmd: string, args: string[], cwd: string, timeout = 60_000): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout });
}

beforeAll(() => {
  // npm pack runs prepack, which builds dist/ (a fresh clone has none): the command line's bundle is removed
  // first, so the tarball holds it only if prepack built it.
  rmSync(join(root, "dist/contract-cli.js"), { force: true });
  const packOutput = run("npm", ["pack", "--pack-destination", work, "--json"], root, 120_000);
  // The build's own lines come first on stdout; the JSON list is last.
  const out = JSON.parse(packOutput.slice(packOutput.search(/^\[\s*\{/m))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  packed = out[0]!.files.map((f) => f.path);
  tarball = out[0]!.filename;
  run("mkdir", ["-p", scratch], work);
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  run("npm", ["install", join(work, out[0]!.filename), "--prefer-offline", "--no-audit", "--no-fund"], scratch);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed tarball", () => {
  it("contains the ESM and CommonJS entries with declarations for each, and no tests", () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        "dist/index.js",
        "dist/index.cjs",
        "dist/index.d.ts",
        "dist/index.d.cts",
        "package.json",
        "LICENSE",
      ]),
    );
    expect(packed.filter((p) => p.includes("test") || p.startsWith("src/"))).toEqual([]);
  });

  it("installs the webauto-contract command: --help, a short run against a local server, and a clear exit 2 for the " +
    "mock without Prism", async () => {
    expect(packed).toEqual(
      expect.arrayContaining(["dist/contract-cli.js", "contract.config.schema.json", "openapi/openapi.yaml"]),
    );
    const bin = join(scratch, "node_modules/.bin/webauto-contract");
    expect(run(bin, ["--help"], scratch)).toMatch(
      /^usage: webauto-contract \[options\][\s\S]*--base-url <url>[\s\S]*env: CONTRACT_BASE_URL/,
    );
    const server = await startFaultServer();
    try {
      const exec = promisify(execFile);
      const env = {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CONTRACT_"))),
        CONTRACT_API_KEY: FAULT_SERVER_KEY,
      };
      const { stdout } = await exec(
        bin,
        [
          "--base-url",
          server.baseUrl(),
          "--operations",
          "listBrowserRequests",
          "--phases",
          "auth",
          "--reports-dir",
          "reports",
        ],
        { cwd: scratch, env, encoding: "utf8", timeout: 60_000 },
      );
      expect(stdout).toMatch(/^Seed: \d+/m);
      expect(stdout).toMatch(/^\[1\/1\] ✓ listBrowserRequests › auth/m);
      expect(stdout).toMatch(/^1 passed, 0 failed, 0 skipped$/m);
      // The package's own document is the default, found next to the installed package.json.
      expect(stdout).toContain(join(scratch, "node_modules/webauto-api/openapi/openapi.yaml"));
      const mock = await exec(bin, [], { cwd: scratch, env, encoding: "utf8", timeout: 60_000 }).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect(mock).toMatchObject({ code: 2, stderr: expect.stringContaining("needs @stoplight/prism-cli") });
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("is required from CommonJS as well as imported from ESM", () => {
    writeFileSync(
      join(scratch, "main.cjs"),
      `const { createClient, ArgumentError, VERSION } = require("webauto-api");
let refused = "";
try { createClient({ baseUrl: "https://api.example.com/v1", apiKey: "k_cjs_test" }); } catch (e) { refused = (e instanceof ArgumentError) + " " + e.message; }
console.log(JSON.stringify({ type: typeof createClient, version: VERSION, refused }));
`,
    );
    const result = JSON.parse(run(process.execPath, ["main.cjs"], scratch)) as Record<string, string>;
    expect(result).toMatchObject({
      type: "function",
      refused: expect.stringMatching(/^true baseUrl: must not end with \/v1/),
    });
  });

  it("loads its lazy chunks (raw's openapi-fetch, the field pairing) from CommonJS and ESM alike", async () => {
    const script = (load: string) => `${load}
const client = createClient({ baseUrl: process.env.WEBAUTO_BASE_URL, apiKey: "k_lazy_chunks" });
(async () => {
  const raw = await client.raw.GET("/v1/browser/requests", {});
  const schema = await client.updateSchema("dsc_1", { fields: [{ name: "a", type: "string" }] });
  console.log(JSON.stringify({ raw: raw.response.status, typeName: schema.fields[0].typeName }));
})();
`;
    writeFileSync(join(scratch, "lazy.cjs"), script('const { createClient } = require("webauto-api");'));
    writeFileSync(join(scratch, "lazy.mjs"), script('import { createClient } from "webauto-api";'));
    const server = await startServer((req, res) =>
      req.method === "PUT"
        ? sendJson(res, 200, { id: "dsc_1", fields: [{ name: "a", type: 3, description: null, fields: [] }] })
        : sendJson(res, 200, listing([], 1, 30, 0, 0)),
    );
    try {
      for (const file of ["lazy.cjs", "lazy.mjs"]) {
        const { stdout } = await promisify(execFile)(process.execPath, [file], {
          cwd: scratch,
          env: { ...process.env, WEBAUTO_BASE_URL: server.url },
          encoding: "utf8",
          timeout: 20_000,
        });
        expect(JSON.parse(stdout), file).toEqual({ raw: 200, typeName: "string" });
      }
    } finally {
      await server.close();
    }
  });

  it("runs the README's CommonJS example against a local server", async () => {
    const js = readmeBlocks().filter((b) => b.lang === "js");
    expect(js).toHaveLength(1);
    writeFileSync(join(scratch, "readme.cjs"), js[0]!.code);
    const server = await startServer((_req, res) =>
      sendJson(res, 200, listing([browserRequest("brq_Readme1")], 1, 1, 1, 1)),
    );
    try {
      const env = { ...process.env, WEBAUTO_BASE_URL: server.url, WEBAUTO_API_KEY: "k_readme_example" };
      // Asynchronously: the server answering it lives in this process.
      const { stdout } = await promisify(execFile)(process.execPath, ["readme.cjs"], {
        cwd: scratch,
        env,
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(stdout.trim()).toBe("1");
    } finally {
      await server.close();
    }
  });

  it("passes publint and are-the-types-wrong (ESM and CJS resolution, node10, node16 and bundlers)", () => {
    expect(run(process.execPath, [join(root, "node_modules/publint/src/cli.js"), "--strict"], root)).toMatch(
      /All good!/,
    );
    const attw = run(
      process.execPath,
      [join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"), join(work, tarball), "--format", "json"],
      root,
    );
    const problems = (JSON.parse(attw) as { analysis: { problems: unknown[] } }).analysis.problems;
    expect(problems).toEqual([]);
  });

  it("imports cleanly in a scratch project and calls a real local server", () => {
    writeFileSync(
      join(scratch, "main.mjs"),
      `import { createServer } from "node:http";
import { createClient, NotFoundError, parseDuration } from "webauto-api";
const seen = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url, key: req.headers["x-api-key"] });
  res.writeHead(req.method === "PUT" ? 404 : 200, { "content-type": "application/json" });
  res.end(JSON.stringify({ data: { total_pages: 1, total_records: 1, page: 1, page_size: 30, results: [{ id: "brq_a" }] }, error: null }));
});
server.listen(0, "127.0.0.1", async () => {
  const client = createClient({ baseUrl: "http://127.0.0.1:" + server.address().port, apiKey: "k_pack_test" });
  const page = await client.listBrowserRequests({ states: ["completed", "failed"] });
  let notFound = false;
  try { await client.updateSchema("x", { fields: [] }); } catch (e) { notFound = e instanceof NotFoundError; }
  let validation = "ok";
  try { await createClient({ baseUrl: "http://127.0.0.1:" + server.address().port, apiKey: "k", validateResponses: true }).listBrowserRequests(); }
  catch (e) { validation = e.name + ": " + e.message; }
  console.log(JSON.stringify({ ids: page.results.map((r) => r.id), seen, notFound, ms: parseDuration("00:00:01.5"), validation }));
  server.close();
});
`,
    );
    const result = JSON.parse(run(process.execPath, ["main.mjs"], scratch)) as Record<string, unknown>;
    expect(result.ids).toEqual(["brq_a"]);
    expect(result.seen).toEqual(
      expect.arrayContaining([{ url: "/v1/browser/requests?status=completed,failed", key: "k_pack_test" }]),
    );
    expect(result.notFound).toBe(true);
    expect(result.ms).toBe(1500);
    // ajv is an optional peer: without it, validateResponses fails with a message naming the packages;
    // with it installed, the minimal record above violates the document.
    expect(String(result.validation)).toMatch(
      /needs the optional packages ajv@8 and ajv-formats@3|ResponseValidationError/,
    );
  });

  // The declarations are bundled (the generated types rolled in), so nothing outside dist/ is needed.
  it("type-checks a consumer against the packed declarations", () => {
    writeFileSync(
      join(scratch, "check.ts"),
      `import { createClient, type BrowserRequest, type SitemapResponse } from "webauto-api";
const client = createClient({ baseUrl: "https://api.example.com", apiKey: "k" });
const ids: Promise<BrowserRequest["id"][]> = client.listBrowserRequests().then((p) => p.results.map((r) => r.id));
const links: Promise<SitemapResponse["links"]> = client.mapSite({ url: "https://x" }).then((s) => s.links);
void ids; void links;
`,
    );
    // The declarations are real types, not `any`: a wrong use is a compile error. One tsc run checks both files.
    writeFileSync(
      join(scratch, "wrong.ts"),
      `import { createClient } from "webauto-api";
const client = createClient({ baseUrl: "https://api.example.com", apiKey: "k" });
export const n: Promise<number> = client.mapSite({ url: "https://x" }).then((s) => s.links);
`,
    );
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          types: [],
        },
        files: ["check.ts", "wrong.ts"],
      }),
    );
    let compilerOutput = "";
    try {
      run(process.execPath, [tsc, "-p", "tsconfig.json"], scratch);
    } catch (err) {
      compilerOutput = String((err as { stdout?: string }).stdout);
    }
    expect(
      compilerOutput.split("\n").filter((l) => l.includes("error TS")),
      "only wrong.ts has errors",
    ).toEqual([expect.stringMatching(/^wrong\.ts.*error TS2322/)]);
    expect(compilerOutput).toMatch(/wrong\.ts.*error TS2322/);
  });
});
