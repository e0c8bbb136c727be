/**
 * The docs site built by `npm run docs` (scripts/docs.ts): its building blocks without a browser, then
 * the whole site, built once, in real headless Chromium (playwright-core) with the network cut off:
 * every request that is not file:/data:/blob: is recorded and aborted, so a page that needs the network
 * shows nothing and a page that phones home is caught.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { buildSite, compareVersionsDesc, findVersions, REFERENCE_DIR, type SiteResult } from "../../scripts/docs.js";
import { LOCAL_LOGO, makeRedocPageOffline, REDOC_LOGO_URLS, renderChangelog } from "../../scripts/docs/pages.js";
import { loadSpec, SPEC_PATH } from "../lib/spec.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  const msg =
    `!!! docs test SKIPPED: no Chromium at ${CHROMIUM}. Install it with ` +
    `\`apt-get install -y chromium\` (.ci/run does).`;
  // In CI the browser must be there: a skip would hide a broken docs page.
  if (process.env.CI) throw new Error(msg.replace("SKIPPED", "cannot run in CI"));
  console.warn(`\n${msg}\n`);
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHANGELOG = join(ROOT, "CHANGELOG.md");
const IDLE_MS = 20_000;
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Operation {
  method: string;
  path: string;
  summary: string;
  /** Redoc's route for an operation: #/<tag slug>/<operationId in lower case>. */
  hash: string;
  codes: string[];
}

/** The operations of a document, as Redoc shows them. */
function operationsOf(doc: Record<string, any>): Operation[] {
  return Object.entries((doc.paths ?? {}) as Record<string, any>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        summary: op.summary as string,
        hash: `#/${String(op.tags?.[0] ?? "")
          .toLowerCase()
          .replace(/\s+/g, "-")}/${String(op.operationId).toLowerCase()}`,
        codes: Object.keys(op.responses ?? {}),
      })),
  );
}

const spec = loadSpec();
const operations = operationsOf(spec);

/** Released versions computed here independently of scripts/docs.ts: distinct info.version in git, plus the current. */
function versionsFromGit(): string[] {
  const found = new Set<string>([String(spec.info.version)]);
  const git = (args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const rel = posix.normalize(SPEC_PATH.slice(ROOT.length).split("\\").join("/"));
  for (const sha of git(["log", "--format=%H", "--", rel]).split("\n").filter(Boolean)) {
    try {
      found.add(String(parse(git(["show", `${sha}:${rel}`])).info.version));
    } catch {
      // deleted or unparsable in that commit: not a version
    }
  }
  return [...found];
}

describe("docs site building blocks", () => {
  const page = (options: string) =>
    `<html><script type="module">const img = e ? \`${REDOC_LOGO_URLS[0]}\` : \`${REDOC_LOGO_URLS[1]}\`;\n` +
    `const __redoc_options = ${options};\nhydrate(1, 2);</script></html>`;

  test("makeRedocPageOffline swaps each footer logo URL for the inline image and changes nothing else", () => {
    const before = page(`{"skipBundle":true,"disableTelemetry":true}`);
    const after = makeRedocPageOffline(before);
    for (const url of REDOC_LOGO_URLS) expect(after).not.toContain(url);
    expect(after.split(LOCAL_LOGO)).toHaveLength(3);
    expect(LOCAL_LOGO).toMatch(/^data:image\/svg\+xml,[^`$\\]+$/); // safe inside the bundle's template literal
    expect(after.replaceAll(LOCAL_LOGO, "X")).toBe(
      before.replaceAll(REDOC_LOGO_URLS[0], "X").replaceAll(REDOC_LOGO_URLS[1], "X"),
    );
  });

  test("makeRedocPageOffline refuses a page it cannot make private", () => {
    expect(() =>
      makeRedocPageOffline(page(`{"disableTelemetry":true}`).replace(REDOC_LOGO_URLS[0], "https://cdn.example/x.svg")),
    ).toThrow(/logo-mini-full\.svg exactly once.*found 0/);
    expect(() => makeRedocPageOffline(page(`{"disableTelemetry":false}`))).toThrow(/telemetry is not disabled/);
    expect(() => makeRedocPageOffline(page(`{"skipBundle":true}`))).toThrow(/telemetry is not disabled/);
    expect(() =>
      makeRedocPageOffline(
        `import { hydrate } from "https://cdn.redocly.com/r.js";${page(`{"disableTelemetry":true}`)}`,
      ),
    ).toThrow(/CDN/);
  });

  test("renderChangelog: version headings get ids; raw HTML, remote images and script links cannot reach out", () => {
    const { html, anchors } = renderChangelog(
      [
        "# Changelog",
        "## [Unreleased]",
        "## [1.2.0] - 2026-01-02",
        "- fixed <img src=https://tracker.example/p.gif> in `code`",
        "![badge](https://img.shields.io/x.svg) ![local](diagram.png)",
        "[bad](javascript:alert(1)) [good](https://example.com/a?b=1&c=2)",
        "## 1.1.0",
        "[1.2.0]: https://github.com/o/r/compare/v1.1.0...v1.2.0",
      ].join("\n\n"),
    );
    expect([...anchors]).toEqual(["v1.2.0", "v1.1.0"]);
    expect(html).toMatch(
      /<h2 id="v1\.2\.0"><a href="https:\/\/github\.com\/o\/r\/compare\/v1\.1\.0\.\.\.v1\.2\.0">1\.2\.0<\/a> - 2026-01-02<\/h2>/,
    );
    expect(html).toContain('<h2 id="v1.1.0">1.1.0</h2>');
    expect(html).toContain("&lt;img src=https://tracker.example/p.gif&gt;");
    expect(html).toContain('<a href="https://img.shields.io/x.svg">badge</a>');
    expect(html).toContain('<img src="diagram.png" alt="local">');
    expect(html).not.toMatch(/<img[^>]+src="https?:/);
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2">good</a>');
  });

  test("versions are listed newest first", () => {
    const sorted = ["1.0.0", "1.10.0", "2.0.0-rc.1", "1.2.0", "2.0.0", "1.2.0-beta.2", "1.2.0-beta.10"].sort(
      compareVersionsDesc,
    );
    expect(sorted).toEqual(["2.0.0", "2.0.0-rc.1", "1.10.0", "1.2.0", "1.2.0-beta.10", "1.2.0-beta.2", "1.0.0"]);
  });

  test("released versions: each distinct info.version from its newest commit, plus the working tree's own", () => {
    const dir = mkdtempSync(join(tmpdir(), "webauto-docs-git-"));
    const g = (...args: string[]) =>
      execFileSync(
        "git",
        ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args],
        { encoding: "utf8" },
      );
    const doc = (version: string, note: string) =>
      `openapi: 3.1.0\ninfo:\n  title: T\n  version: ${version}\n  description: ${note}\npaths: {}\n`;
    const commit = (text: string, msg: string) => {
      writeFileSync(join(dir, "openapi.yaml"), text);
      g("add", "openapi.yaml");
      g("commit", "-q", "-m", msg);
      return g("rev-parse", "HEAD").trim();
    };
    g("init", "-q");
    commit(doc("1.0.0", "first"), "a");
    const b = commit(doc("1.0.0", "second"), "b");
    commit("openapi: [unclosed\n", "broken");
    const c = commit(doc("2.0.0", "third"), "c");
    writeFileSync(join(dir, "other.txt"), "x"); // a commit that does not touch the document is not looked at
    g("add", "other.txt");
    g("commit", "-q", "-m", "d");
    const current = doc("2.1.0", "working tree");
    writeFileSync(join(dir, "openapi.yaml"), current);

    const { versions, warnings } = findVersions(join(dir, "openapi.yaml"), current);
    expect(
      versions.map((v) => [v.version, v.source.kind === "commit" ? v.source.sha : "working-tree", v.text]),
    ).toEqual([
      ["2.1.0", "working-tree", current],
      ["2.0.0", c, doc("2.0.0", "third")],
      ["1.0.0", b, doc("1.0.0", "second")],
    ]);
    expect(warnings).toEqual([expect.stringMatching(/^commit [0-9a-f]{12}: openapi\.yaml does not parse/)]);
  });

  test("outside a git checkout only the current version is listed, with a warning", () => {
    const dir = mkdtempSync(join(tmpdir(), "webauto-docs-nogit-"));
    const text = readFileSync(SPEC_PATH, "utf8").replace(/^( {2}version:) .*$/m, "$1 7.1.0");
    writeFileSync(join(dir, "openapi.yaml"), text);
    const { versions, warnings } = findVersions(join(dir, "openapi.yaml"), text);
    expect(versions).toEqual([{ version: "7.1.0", text, source: { kind: "working-tree" } }]);
    expect(warnings.join("\n")).toMatch(/not in a git checkout.*current version \(7\.1\.0\) only/);
  });

  test(
    "the build fails with redocly's message on a broken " + "document, and never overwrites a foreign directory",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "webauto-docs-broken-"));
      const broken = join(dir, "openapi.yaml");
      writeFileSync(broken, readFileSync(SPEC_PATH, "utf8").replace(/^openapi: .*$/m, "openapi: 9.9.9"));
      const err = await buildSite({ out: join(dir, "site"), specPath: broken }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(
        /^redocly build-docs failed for .*openapi\.yaml \(exit 1\):\n[\s\S]*Unsupported OpenAPI version: 9\.9\.9/,
      );
      expect(err?.message).not.toContain("\u2551"); // the CLI's notice boxes are dropped

      const foreign = join(dir, "foreign");
      mkdirSync(foreign);
      writeFileSync(join(foreign, "keep.txt"), "not a site");
      await expect(buildSite({ out: foreign })).rejects.toThrow(/not a docs site.*refusing to overwrite/);
      expect(readFileSync(join(foreign, "keep.txt"), "utf8")).toBe("not a site");
    },
  );
});

describe.skipIf(!haveChromium)("docs site in headless Chromium, offline", () => {
  let browser: Browser;
  let site: SiteResult;
  let outDir: string;
  let netLog: string;
  let netHook: string;
  /** Requests that tried to leave file:// from every page these tests opened (except the idle one). */
  const external: string[] = [];
  const idle: { context?: BrowserContext; page?: Page; requests: string[]; readyAt: number } = {
    requests: [],
    readyAt: 0,
  };

  async function newPage(record: string[]) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      record.push(`${route.request().method()} ${url}`);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("websocket", (ws) => record.push(`WEBSOCKET ${ws.url()}`));
    return { page, context };
  }

  const fileUrl = (rel: string) => pathToFileURL(join(outDir, rel)).href;
  const bodyText = (page: Page) => page.innerText("body");

  beforeAll(async () => {
    const tmp = mkdtempSync(join(tmpdir(), "webauto-docs-"));
    outDir = join(tmp, "site");
    // A preload that logs every TCP connection the redocly processes open (they must open none).
    netLog = join(tmp, "net.log");
    netHook = join(tmp, "net-hook.mjs");
    writeFileSync(
      netHook,
      `import net from "node:net"; import { appendFileSync } from "node:fs";
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = Array.isArray(args[0]) ? args[0][0] : args[0];
  const where = o && typeof o === "object" ? (o.path ?? (o.host ?? "localhost") + ":" + o.port) : (args[1] ?? "localhost") + ":" + o;
  if (process.env.NET_LOG) appendFileSync(process.env.NET_LOG, process.pid + " connect " + where + "\\n");
  return connect.apply(this, args);
};\n`,
    );
    const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(netHook).href}`.trim();
    site = await buildSite({ out: outDir, env: { NODE_OPTIONS: nodeOptions, NET_LOG: netLog } });

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // The idle page: opened now, left alone while the other tests run, checked by the idle test.
    const { page, context } = await newPage(idle.requests);
    idle.page = page;
    idle.context = context;
    await page.goto(fileUrl(`${REFERENCE_DIR}/index.html`));
    // (expect.poll works inside tests only.)
    await page.waitForFunction((text) => document.body.innerText.includes(text), operations[0]!.summary, {
      timeout: 15_000,
      polling: 200,
    });
    idle.readyAt = Date.now();
  });
  afterAll(async () => browser?.close());

  test("the build opened no network connection (the redocly CLI runs with its telemetry off)", () => {
    expect(existsSync(netLog) ? readFileSync(netLog, "utf8") : "").toBe("");
    // The hook does see connections: a process with it that connects somewhere is logged.
    const probeLog = `${netLog}.probe`;
    spawnSync(process.execPath, ["-e", "require('net').connect(9, '127.0.0.1').on('error', () => {})"], {
      env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(netHook).href}`, NET_LOG: probeLog },
    });
    expect(readFileSync(probeLog, "utf8")).toMatch(/connect 127\.0\.0\.1:9\n/);
  });

  test("the landing page shows title and version and links every part of the site to a file that exists", async () => {
    const { page, context } = await newPage(external);
    try {
      await page.goto(fileUrl("index.html"));
      const text = await bodyText(page);
      expect(text).toContain(spec.info.title);
      expect(text).toContain(`Version ${spec.info.version}`);
      expect(await page.locator("script").count(), "the landing page needs no script").toBe(0);
      const hrefs = await page.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      for (const href of hrefs) {
        expect(href, "links stay inside the site").not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/\//i);
        const [file = "", fragment] = href.split("#");
        const target = resolve(outDir, file);
        expect(target.startsWith(`${outDir}/`) && existsSync(target), `${href} resolves to a file of the site`).toBe(
          true,
        );
        if (fragment) expect(readFileSync(target, "utf8"), `${href}: the anchor exists`).toContain(`id="${fragment}"`);
      }
      const files = new Set(hrefs.map((h) => h.split("#")[0]));
      const expected = [
        `${REFERENCE_DIR}/index.html`,
        "openapi.yaml",
        "openapi.json",
        ...site.versions.map((v) => `${v.dir}/index.html`),
      ];
      for (const f of expected) expect(files, `the landing page links ${f}`).toContain(f);
      if (existsSync(CHANGELOG)) {
        expect(files).toContain("changelog.html");
      } else {
        expect(files).not.toContain("changelog.html");
        expect(text).toContain("No changelog: CHANGELOG.md did not exist when this site was built.");
      }
    } finally {
      await context.close();
    }
  });

  test("the downloads are the document: openapi.yaml verbatim, openapi.json equal to it", () => {
    expect(readFileSync(join(outDir, "openapi.yaml"), "utf8")).toBe(readFileSync(SPEC_PATH, "utf8"));
    expect(parse(readFileSync(join(outDir, "openapi.yaml"), "utf8"))).toEqual(spec);
    expect(JSON.parse(readFileSync(join(outDir, "openapi.json"), "utf8"))).toEqual(spec);
  });

  test("every version found in git has its page and its document, and nothing else is listed", () => {
    const fromGit = versionsFromGit();
    expect(site.versions.map((v) => v.version).sort()).toEqual([...fromGit].sort());
    expect(
      readdirSync(outDir)
        .filter((d) => /^v\d/.test(d))
        .sort(),
    ).toEqual(fromGit.map((v) => `v${v}`).sort());
    for (const v of fromGit) {
      expect(existsSync(join(outDir, `v${v}`, "index.html")), `v${v}/index.html`).toBe(true);
      expect(String(parse(readFileSync(join(outDir, `v${v}`, "openapi.yaml"), "utf8")).info.version)).toBe(v);
    }
  });

  test("the changelog page renders CHANGELOG.md when it exists", async () => {
    if (!existsSync(CHANGELOG)) {
      expect(site.changelog).toBe(false);
      expect(existsSync(join(outDir, "changelog.html"))).toBe(false);
      return;
    }
    expect(site.changelog).toBe(true);
    const { page, context } = await newPage(external);
    try {
      await page.goto(fileUrl("changelog.html"));
      const firstHeading = /^#\s+(.+)$/m.exec(readFileSync(CHANGELOG, "utf8"))?.[1];
      expect(await page.locator("h1").first().innerText()).toBe(firstHeading);
      expect(await page.locator("script").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    "%s renders with its summary and exactly its documented response codes, offline",
    async (_name, op) => {
      const { page, context } = await newPage(external);
      try {
        await page.goto(fileUrl(`${REFERENCE_DIR}/index.html`) + op.hash);
        // Redoc renders the operation in steps: wait until its header (method, path, summary) is there.
        const header = `${op.method}\n${op.path}\n${op.summary}`;
        await expect.poll(() => bodyText(page), { timeout: 15_000, interval: 200 }).toContain(header);
        const section = (await bodyText(page)).split(header)[1] ?? "";
        // Response codes are the tab labels right under the "Responses" heading.
        const tabs = /\nResponses\n((?:(?:\d{3}|\dXX|default)\n)+)/.exec(section)?.[1]?.trim().split("\n") ?? [];
        expect(tabs).toEqual(op.codes);
      } finally {
        await context.close();
      }
    },
  );

  test("each released version's page renders its own document (v<version>/index.html)", async () => {
    expect(site.versions.length).toBeGreaterThan(0);
    for (const v of site.versions) {
      const doc = parse(readFileSync(join(outDir, v.dir, "openapi.yaml"), "utf8"));
      const first = operationsOf(doc)[0]!;
      const { page, context } = await newPage(external);
      try {
        await page.goto(fileUrl(`${v.dir}/index.html`) + first.hash);
        await expect
          .poll(() => bodyText(page), { timeout: 15_000, interval: 200 })
          .toContain(`${first.method}\n${first.path}\n${first.summary}`);
        expect(await page.title()).toBe(`${doc.info.title} ${v.version}`);
      } finally {
        await context.close();
      }
    }
  });

  test(
    `left idle for ${IDLE_MS / 1000} s, the reference page sends no request outside file:// (no telemetry, no logo)`,
    async () => {
      // (Timers may fire a millisecond early: wait until the clock says so.)
      const left = () => idle.readyAt + IDLE_MS - Date.now();
      while (left() > 0) await new Promise((r) => setTimeout(r, left() + 5));
      expect(Date.now() - idle.readyAt).toBeGreaterThanOrEqual(IDLE_MS);
      expect(idle.requests).toEqual([]);
      // The net is live in that very page: an image from Redocly's CDN, as the footer logo was, is caught.
      await idle.page!.evaluate((url) => {
        new Image().src = url;
      }, REDOC_LOGO_URLS[0]);
      await expect.poll(() => idle.requests, { timeout: 5_000 }).toEqual([`GET ${REDOC_LOGO_URLS[0]}`]);
      await idle.context!.close();
    },
    IDLE_MS + 15_000,
  );

  test("no other page these tests opened asked for anything outside file://", () => {
    expect(external).toEqual([]);
  });
});
