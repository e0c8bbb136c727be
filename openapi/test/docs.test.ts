/**
 * The Redoc page built by `npm run docs` renders the three operations and their response codes in real
 * headless Chromium with the network cut off (every non-file request is aborted).
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildDocs } from "../../scripts/docs.js";
import { loadSpec } from "../lib/spec.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  const msg = `!!! docs test SKIPPED: no Chromium at ${CHROMIUM}. Install it with \`apt-get install -y chromium\` (.ci/run does).`;
  // In CI the browser must be there: a skip would hide a broken docs page.
  if (process.env.CI) throw new Error(msg.replace("SKIPPED", "cannot run in CI"));
  console.warn(`\n${msg}\n`);
}

const spec = loadSpec();
const operations = Object.entries(spec.paths as Record<string, any>).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    summary: op.summary as string,
    // Redoc's route for an operation: #/<tag slug>/<operationId in lower case>.
    hash: `#/${(op.tags[0] as string).toLowerCase().replace(/\s+/g, "-")}/${(op.operationId as string).toLowerCase()}`,
    codes: Object.keys(op.responses),
  })),
);

describe.skipIf(!haveChromium)("offline Redoc page in headless Chromium", () => {
  let browser: Browser;
  let pageUrl: string;
  const externalRequests: string[] = [];

  beforeAll(async () => {
    const out = join(mkdtempSync(join(tmpdir(), "webauto-docs-")), "index.html");
    const { bytes } = buildDocs(out);
    expect(bytes, "the Redoc bundle is inlined").toBeGreaterThan(1_000_000);
    pageUrl = pathToFileURL(out).href;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  afterAll(async () => browser?.close());

  async function openPage(hash: string) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      externalRequests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(pageUrl + hash);
    return { page, context };
  }

  test("the document lists exactly three operations", () => {
    expect(operations.map((o) => `${o.method} ${o.path}`)).toHaveLength(3);
  });

  test.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    "%s renders with its summary and every response code, offline",
    async (_name, op) => {
      const { page, context } = await openPage(op.hash);
      try {
        // Redoc renders the operation in steps: wait until its header (method, path, summary) is there.
        const header = `${op.method}\n${op.path}\n${op.summary}`;
        await expect.poll(() => page.innerText("body"), { timeout: 15_000, interval: 200 }).toContain(header);
        const text = await page.innerText("body");
        const start = text.indexOf(header);
        const section = text.slice(start);
        // Response codes are the tab labels right under the "Responses" heading.
        const tabs = /\nResponses\n((?:\d{3}\n)+)/.exec(section)?.[1]?.trim().split("\n") ?? [];
        expect(tabs).toEqual(op.codes);
      } finally {
        await context.close();
      }
    },
  );

  test("nothing the page needs comes from the network (only the optional footer logo is asked for)", () => {
    expect(externalRequests.filter((u) => !u.endsWith("/logo-mini-full.svg"))).toEqual([]);
  });
});
