/**
 * The document drives the client: an operation added to the document as YAML only, then `npm run generate`
 * (into a scratch copy of generated/), gives `client.raw` a typed path for it, with its path parameter and
 * response type, and a route the client finds by method and path. A wrong use is a type error.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentWithAddedOperation } from "../../contract-tests/fixtures/document-copy.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
// Inside the project (gitignored .scratch/), so the consumer resolves openapi-fetch as the client does.
let dir: string;

const run = (args: string[]) => {
  const res = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  return { status: res.status, output: `${res.stdout}\n${res.stderr}` };
};

/** A consumer file typed against the scratch generated/ types. */
function consumer(name: string, body: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import type { Client } from "openapi-fetch";\nimport type { paths } from "./generated/schema.js";\ndeclare ` +
      `const raw: Client<paths>;\n${body}\n`,
  );
  return file;
}

/** One tsc run over every consumer file (one compiler start for the whole test file). */
let checked: { status: number | null; output: string } | undefined;
function typecheck() {
  if (checked) return checked;
  const files = [consumer("ok", OK), consumer("bad", BAD)];
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files,
    }),
  );
  checked = run([TSC, "-p", join(dir, "tsconfig.json")]);
  return checked;
}

const OK = `export async function get(): Promise<string | undefined> {
  const { data } = await raw.GET("/v1/browser/requests/{id}", { params: { path: { id: "brq_1" } } });
  const state: "pending" | "running" | "completed" | "failed" | undefined = data?.state;
  return state;
}`;

const BAD = `export async function get(): Promise<unknown> {
  const { data } = await raw.GET("/v1/browser/requests/{id}", { params: { path: {} } });
  return data?.no_such_member;
}`;

beforeAll(() => {
  mkdirSync(join(ROOT, ".scratch"), { recursive: true });
  dir = mkdtempSync(join(ROOT, ".scratch", "added-op-"));
  const spec = documentWithAddedOperation(dir);
  const generated = run([TSX, join(ROOT, "scripts/generate.ts"), "--spec", spec, "--out", join(dir, "generated")]);
  expect(generated.status, generated.output).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an operation added to the document, then npm run generate", () => {
  it("is a typed path of client.raw: its path parameter and its response's members", () => {
    const { output } = typecheck();
    expect(output, output).not.toMatch(/ok\.ts\(/);
    expect(output).toMatch(/bad\.ts\(/); // the run did check the files
  });

  it("refuses a call without its path parameter, and a member the response does not have", () => {
    const { status, output } = typecheck();
    expect(status).not.toBe(0);
    expect(output).toMatch(/bad\.ts\(\d+,\d+\): error TS2741: Property 'id' is missing/);
    expect(output).toMatch(/bad\.ts\(\d+,\d+\): error TS2339: Property 'no_such_member' does not exist/);
  });

  it("is in the generated route table, with its method, path and success schema", () => {
    const routes = readFileSync(join(dir, "generated", "routes.ts"), "utf8");
    expect(routes).toMatch(/"getBrowserRequest": \{\s*"method": "GET",\s*"path": "\/v1\/browser\/requests\/\{id\}"/);
    expect(routes).toMatch(/"schema": "BrowserRequest"/);
  });
});
