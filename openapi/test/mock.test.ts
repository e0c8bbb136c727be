/**
 * `npm run mock` (scripts/mock.ts, the real entry point) serves each of the three operations with the
 * document's example, enforces the API key, and rejects what the document rules out.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../lib/prism.js";
import { loadSpec } from "../lib/spec.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const spec = loadSpec();
const example = (path: string, method: string, where: "request" | "200") => {
  const op = spec.paths[path][method];
  const media = where === "request" ? op.requestBody.content["application/json"] : op.responses["200"].content["application/json"];
  return (Object.values(media.examples)[0] as { value: unknown }).value;
};

describe("npm run mock", () => {
  let child: ChildProcess;
  let base: string;
  let output = "";

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, "scripts/mock.ts"), "--port", String(port)], { cwd: ROOT });
    child.stdout?.on("data", (b: Buffer) => (output += b.toString()));
    child.stderr?.on("data", (b: Buffer) => (output += b.toString()));
    const deadline = Date.now() + 30_000;
    while (!output.includes(`listening on ${base}`)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm run mock did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    child?.kill("SIGTERM");
  });

  const call = (method: string, path: string, body?: unknown, key: string | null = "test-key") =>
    fetch(base + path, {
      method,
      headers: { ...(key ? { "X-API-Key": key } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  test("POST /v1/site/map answers 200 with the sitemap example", async () => {
    const res = await call("POST", "/v1/site/map", example("/v1/site/map", "post", "request"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(example("/v1/site/map", "post", "200"));
  });

  test("PUT /v1/schemas/{id} answers 200 with the integer-typed schema example", async () => {
    const res = await call("PUT", "/v1/schemas/dsc_8Vt3Qm6Lx1Rz9Kp4Nw7Hc2Jb5Yf0Gs", example("/v1/schemas/{id}", "put", "request"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(example("/v1/schemas/{id}", "put", "200"));
  });

  test("GET /v1/browser/requests answers 200 with the listing example, comma-separated filters accepted", async () => {
    const res = await call("GET", "/v1/browser/requests?ids=brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP,brq_K8mT3q&status=completed,failed&pageSize=10&page=2");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(example("/v1/browser/requests", "get", "200"));
  });

  test("the mock refuses a request without X-API-Key and the documented 400 answers page 0 and unknown states", async () => {
    expect((await call("GET", "/v1/browser/requests", undefined, null)).status).toBe(401);
    expect((await call("GET", "/v1/browser/requests?page=0")).status).toBe(400);
    expect((await call("GET", "/v1/browser/requests?status=done")).status).toBe(400);
    expect((await call("PUT", "/v1/schemas/x", { fields: [{ name: "a", type: 3 }] })).status).toBe(422);
    expect((await call("POST", "/v1/site/map", { max_cache_age: 0 })).status).toBe(422);
  });
});
