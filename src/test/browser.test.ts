/**
 * The client core uses only web-standard APIs: bundle src/index.ts for the browser with esbuild and run it
 * in headless Chromium against a real local server (same origin), including a retry and a timeout.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type TestServer } from "./support/server.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  // Same rule as the docs test: a skip is loud, and in CI the browser must be there.
  const msg = `!!! browser test of the client SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium).`;
  if (process.env.CI) throw new Error(msg.replace("SKIPPED", "cannot run in CI"));
  console.warn(`\n${msg}\n`);
}

describe.skipIf(!haveChromium)("in headless Chromium", () => {
  let browser: Browser;
  let server: TestServer;
  let bundle = "";
  let attemptsOn503 = 0;

  beforeAll(async () => {
    const out = await build({
      entryPoints: [fileURLToPath(new URL("../index.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      write: false,
      external: ["ajv", "ajv/*", "ajv-formats"],
      logLevel: "silent",
    });
    bundle = out.outputFiles[0]!.text;
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<!doctype html><title>client</title>");
      }
      if (url.pathname === "/client.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        return res.end(bundle);
      }
      if (req.headers["x-api-key"] !== API_KEY) return sendJson(res, 401, { code: "unauthorized", message: "no key" });
      const ids = url.searchParams.get("ids");
      if (ids === "brq_redirect") {
        res.writeHead(302, { location: "http://localhost:9/v1/browser/requests" });
        return res.end();
      }
      if (ids === "brq_slow") return void setTimeout(() => sendJson(res, 200, listing([], 1, 30, 0, 0)), 2_000);
      if (ids === "brq_flaky" && ++attemptsOn503 === 1)
        return sendJson(res, 503, { code: "busy", message: "later" }, { "retry-after": "0" });
      return sendJson(res, 200, listing([browserRequest("brq_A1")], 1, 30, 1, 1));
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists, retries a 503, times out, refuses a redirect and maps 401, with only browser APIs", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // A module script tag, not import() inside evaluate (vitest would rewrite that import).
    await page.addScriptTag({ type: "module", content: 'import * as mod from "/client.js"; window.webauto = mod;' });
    await page.waitForFunction(() => "webauto" in window);
    const result = await page.evaluate(
      async ({ base, key }) => {
        const mod = (window as unknown as { webauto: any }).webauto;
        const client = mod.createClient({ baseUrl: base, apiKey: key });
        const page = await client.listBrowserRequests({ states: ["completed", "failed"] });
        const flaky = await client.listBrowserRequests({ ids: ["brq_flaky"] });
        const name = async (p: Promise<unknown>) =>
          p.then(
            () => "resolved",
            (e: Error) => `${e.name} ${e instanceof mod.WebautoError}`,
          );
        return {
          ids: page.results.map((r: { id: string }) => r.id),
          flaky: flaky.total_records,
          timeout: await name(client.listBrowserRequests({ ids: ["brq_slow"] }, { timeoutMs: 100, maxRetries: 0 })),
          redirect: await name(client.listBrowserRequests({ ids: ["brq_redirect"] })),
          auth: await name(mod.createClient({ baseUrl: base, apiKey: "wrong" }).listBrowserRequests()),
          duration: mod.parseDuration("00:00:04.5297660"),
        };
      },
      { base: server.url, key: API_KEY },
    );
    expect(result).toEqual({
      ids: ["brq_A1"],
      flaky: 1,
      timeout: "TimeoutError true",
      redirect: "RedirectNotFollowedError true",
      auth: "AuthenticationError true",
      duration: 4529.766,
    });
    expect(attemptsOn503).toBe(2);
    expect(server.requests.filter((r) => r.url.startsWith("/v1/")).map((r) => r.url)).toContain(
      "/v1/browser/requests?status=completed,failed",
    );
  });
});
