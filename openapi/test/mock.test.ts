/**
 * `npm run mock` (the real npm script, started as users start it) serves each of the three operations
 * with the document's example, enforces the API key, and rejects what the document rules out; its banner
 * and its 400s tell the user what they are getting; SIGTERM to the npm process stops every process of it.
 * (More about a taken port, signals and arguments: mock-lifecycle.test.ts.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadSpec } from "../lib/spec.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const spec = loadSpec();
const example = (path: string, method: string, where: "request" | "200") => {
  const op = spec.paths[path][method];
  const media =
    where === "request" ? op.requestBody.content["application/json"] : op.responses["200"].content["application/json"];
  return (Object.values(media.examples)[0] as { value: unknown }).value;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Whether any process of the group is left (kill(-pgid, 0) fails with ESRCH once all are gone and reaped). */
const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("npm run mock", () => {
  let npm: ChildProcess;
  let base: string;
  let port: number;
  let output = "";

  beforeAll(async () => {
    // Port 0: Prism binds a free port and the banner names it (no window for another process to take it).
    // detached: the run gets a process group of its own, so the last test can see that none of it is left.
    const env = { ...process.env };
    delete env.MOCK_PORT;
    delete env.npm_config_port;
    npm = spawn("npm", ["run", "mock", "--", "--port", "0"], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    npm.stdout!.on("data", (b: Buffer) => (output += b.toString()));
    npm.stderr!.on("data", (b: Buffer) => (output += b.toString()));
    const deadline = Date.now() + 30_000;
    const listening = () => /listening on (http:\/\/127\.0\.0\.1:(\d+)) /.exec(output);
    let m = listening();
    while (!m) {
      if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`npm run mock did not start:\n${output}`);
      await sleep(50);
      m = listening();
    }
    base = m[1]!;
    port = Number(m[2]);
  });
  afterAll(() => {
    if (npm?.pid && groupAlive(npm.pid)) process.kill(-npm.pid, "SIGKILL");
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
    const res = await call(
      "PUT",
      "/v1/schemas/dsc_8Vt3Qm6Lx1Rz9Kp4Nw7Hc2Jb5Yf0Gs",
      example("/v1/schemas/{id}", "put", "request"),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(example("/v1/schemas/{id}", "put", "200"));
  });

  test("GET /v1/browser/requests answers 200 with the listing example, comma-separated filters accepted", async () => {
    const res = await call(
      "GET",
      "/v1/browser/requests?ids=brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP,brq_K8mT3q&status=completed,failed&pageSize=10&page=2",
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(example("/v1/browser/requests", "get", "200"));
  });

  test(
    "the mock refuses a request without X-API-Key and the " + "documented 400 answers page 0 and unknown states",
    async () => {
      expect((await call("GET", "/v1/browser/requests", undefined, null)).status).toBe(401);
      expect((await call("GET", "/v1/browser/requests?page=0")).status).toBe(400);
      expect((await call("GET", "/v1/browser/requests?status=done")).status).toBe(400);
      expect((await call("PUT", "/v1/schemas/x", { fields: [{ name: "a", type: 3 }] })).status).toBe(422);
      expect((await call("POST", "/v1/site/map", { max_cache_age: 0 })).status).toBe(422);
    },
  );

  test(
    "the banner names the port Prism bound, not the 0 asked for, " + "and states the static schema answer in one line",
    () => {
      expect(base).not.toMatch(/:0$/);
      const lines = output.split("\n");
      const schemaLines = lines.filter((l) => l.includes("PUT /v1/schemas/{id}"));
      expect(schemaLines).toHaveLength(1);
      expect(schemaLines[0]).toMatch(/example/);
      expect(schemaLines[0]).toMatch(/ResponseValidationError/);
      expect(lines.filter((l) => l.includes("sl-violations"))).toHaveLength(1);
    },
  );

  test(
    "PUT /v1/schemas/{id} with a tree other than the example still answers the example, whose fields do not pair " +
      "with the tree sent",
    async () => {
      const sent = { name: "Other", fields: [{ name: "only", type: "string", fields: [] }] };
      const res = await call("PUT", "/v1/schemas/dsc_other", sent);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { name: string; fields: { name: string }[] };
      expect(body).toEqual(example("/v1/schemas/{id}", "put", "200"));
      expect(body.name).not.toBe(sent.name);
      expect(body.fields.map((f) => f.name)).not.toEqual(sent.fields.map((f) => f.name));
    },
  );

  test(
    "an invalid listing query gets the documented 400 with an empty body; the reason is only in the sl-violations " +
      "header",
    async () => {
      // Prism names query parameters lower-cased in the violation (pageSize -> pagesize).
      for (const [query, param] of [
        ["page=0", "page"],
        ["status=done", "status"],
        ["pageSize=0", "pagesize"],
      ] as const) {
        const res = await call("GET", `/v1/browser/requests?${query}`);
        expect(res.status, query).toBe(400);
        expect(await res.text(), query).toBe("");
        const violations = JSON.parse(res.headers.get("sl-violations") ?? "[]") as {
          location: string[];
          message: string;
        }[];
        expect(violations.length, query).toBeGreaterThan(0);
        expect(violations[0]!.location.slice(0, 3), query).toEqual(["request", "query", param]);
        expect(violations[0]!.message, query).toContain(param);
      }
    },
  );

  test(
    "the 401 without a key and the 422 for an invalid body " + "are problem+json with the reason in the body",
    async () => {
      const unauthorized = await call("GET", "/v1/browser/requests", undefined, null);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get("content-type")).toBe("application/problem+json");
      expect(((await unauthorized.json()) as { type: string }).type).toMatch(/#UNAUTHORIZED$/);
      const invalid = await call("POST", "/v1/site/map", { max_cache_age: 0 });
      expect(invalid.status).toBe(422);
      expect(invalid.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await invalid.json()) as { validation: { message: string }[] };
      expect(problem.validation.map((v) => v.message).join("\n")).toMatch(/url/);
    },
  );

  // Last: it ends the run the other tests use.
  test(
    "SIGTERM to the npm process: within a few seconds the port is free and no process of the run (npm, node, " +
      "Prism) is left",
    async () => {
      expect(await accepts(port)).toBe(true);
      expect(groupAlive(npm.pid!)).toBe(true);
      const exited = new Promise((r) => npm.once("exit", r));
      process.kill(npm.pid!, "SIGTERM");
      await exited;
      const t0 = Date.now();
      while (groupAlive(npm.pid!)) {
        if (Date.now() - t0 > 5_000) throw new Error(`processes of the run still alive 5 s after SIGTERM:\n${output}`);
        await sleep(50);
      }
      expect(await accepts(port)).toBe(false);
      expect(output).toContain("mock: stopping (SIGTERM)");
    },
  );
});
