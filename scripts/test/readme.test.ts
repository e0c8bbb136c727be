/**
 * Every TypeScript block of the README is type-checked (one tsc run, `webauto-api` mapped to src/) and run
 * with tsx against the conforming fault server; every `npm run` in its shell blocks names a real script.
 * (The CommonJS block runs in the pack test, against the packed tarball.)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SERVER_KEY, startFaultServer, type FaultServer } from "../../contract-tests/fault-server/server.js";
import { readmeBlocks } from "./readme-blocks.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const blocks = readmeBlocks();
const tsBlocks = blocks.filter((b) => b.lang === "ts");
const dir = mkdtempSync(join(tmpdir(), "readme-blocks-"));
let server: FaultServer;
let outputs: string[] = [];

beforeAll(async () => {
  server = await startFaultServer();
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "esnext",
      moduleResolution: "bundler",
      lib: ["es2022", "dom", "dom.iterable"],
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules/@types")],
      skipLibCheck: true,
      paths: { "webauto-api": [join(ROOT, "src/index.ts")] },
    },
    files: tsBlocks.map((_b, i) => `block${i}.mts`),
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  // Each block is a module of its own (its imports and top-level await as written); one runner imports them
  // in order, in one process, and reports what each printed.
  tsBlocks.forEach((b, i) => {
    writeFileSync(join(dir, `block${i}.mts`), `${b.code}\nexport {};\n`);
  });
  const runner = tsBlocks
    .map(
      (_b, i) =>
        `try { console.log("<<block ${i}>>"); await import("./block${i}.mts"); ` +
        `} catch (err) { console.log("<<failed ${i}>>", err); }`,
    )
    .join("\n");
  writeFileSync(join(dir, "run-all.mts"), `${runner}\nconsole.log("<<end>>");\nexport {};\n`);
  const env = { ...process.env, WEBAUTO_BASE_URL: server.baseUrl(), WEBAUTO_API_KEY: FAULT_SERVER_KEY };
  const { stdout } = await run(
    process.execPath,
    [TSX, "--tsconfig", join(dir, "tsconfig.json"), join(dir, "run-all.mts")],
    { env, cwd: dir, timeout: 60_000 },
  );
  outputs = stdout.split(/<<block \d+>>\n/).slice(1);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's code", () => {
  it("has TypeScript examples for every helper, errors, timeouts and raw", () => {
    const all = tsBlocks.map((b) => b.code).join("\n");
    for (const use of [
      "mapSite(",
      "updateSchema(",
      "listBrowserRequests(",
      "iterateBrowserRequests(",
      "stopReason",
      "fieldTypeCodes",
      "instanceof",
      "signal",
      "client.raw",
    ])
      expect(all).toContain(use);
  });

  it("type-checks under strict TypeScript", async () => {
    const result = await run(process.execPath, [TSC, "-p", join(dir, "tsconfig.json")]).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout, failed: true }),
    );
    expect("failed" in result ? result.stdout : "", "tsc errors in README blocks").toBe("");
  }, 60_000);

  it.each(tsBlocks.map((b, i) => [b.line, i] as const))(
    "the block at line %i runs against a local server",
    (_line, i) => {
      const out = outputs[i] ?? "(did not run)";
      expect(out, "the block threw").not.toContain(`<<failed ${i}>>`);
      expect(out.replace("<<end>>", "").trim().length, "each example prints what it got").toBeGreaterThan(0);
    },
  );

  it("names only npm scripts that exist", () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
    );
    const used = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => [...b.code.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!));
    expect(used.length).toBeGreaterThan(3);
    expect(used.filter((s) => !scripts.includes(s))).toEqual([]);
  });
});
