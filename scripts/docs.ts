/**
 * `npm run docs [-- --out DIR]`: builds the offline docs site (default `site/`):
 *
 *   index.html            landing page: title, version, links to everything below (no script)
 *   reference/index.html  Redoc page of the current document (the working tree's openapi/openapi.yaml)
 *   openapi.yaml          the current document, verbatim
 *   openapi.json          the same document as JSON (converted with the `yaml` package)
 *   changelog.html        CHANGELOG.md rendered with marked (only when CHANGELOG.md exists)
 *   v<version>/index.html Redoc page of every released version, and its v<version>/openapi.yaml
 *   versions.json         the released versions and where each came from
 *
 * Released versions are the distinct `info.version` values of openapi/openapi.yaml in the git history
 * (`git log --format=%H -- openapi/openapi.yaml`, then `git show <sha>:openapi/openapi.yaml`); each
 * version's page shows the newest commit (first in `git log` order) that has it. The working tree's
 * version is listed too: when no commit has it yet, its page shows the working tree. Outside a git
 * checkout (or with git missing) only the current version is listed, with a warning. A shallow clone
 * only sees the versions of the commits it has.
 *
 * Every page works with no network and calls no outside service: Redoc is inlined (`--inlineBundle`),
 * the CLI runs with REDOCLY_TELEMETRY=off (so it sends nothing and writes `disableTelemetry: true` into
 * each page), and the one fetch no option turns off, the footer's Redocly logo, is replaced by an inline
 * image (makeRedocPageOffline in scripts/docs/pages.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { SPEC_PATH } from "../openapi/lib/spec.js";
import { DocumentError } from "../openapi/lib/document-error.js";
import { outsideText } from "../openapi/lib/outside-text.js";
import { assertSelfContained, parseDocumentText, readDocumentFile } from "../openapi/lib/self-contained.js";
import { changelogPage, landingPage, makeRedocPageOffline, type VersionEntry } from "./docs/pages.js";

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Directory of the current document's Redoc page inside the site. */
export const REFERENCE_DIR = "reference";
/** File whose presence marks a directory as a docs site this script may clear and rebuild. */
export const SITE_MARKER = ".docs-site";

/**
 * Environment of every `redocly` process: no telemetry (the CLI's own, and, because the CLI copies its
 * setting into the page, Redoc's in the browser), no update check against the npm registry.
 */
export const REDOCLY_PRIVATE_ENV = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
} as const;

export interface BuildSiteOptions {
  /** Site directory; created, or cleared when it holds an earlier build (see SITE_MARKER). */
  out: string;
  /** The current document; default openapi/openapi.yaml. Its git history gives the released versions. */
  specPath?: string;
  /** Default CHANGELOG.md at the repository root; no page when the file does not exist. */
  changelogPath?: string;
  /** Extra environment for the redocly processes (REDOCLY_PRIVATE_ENV always wins). */
  env?: NodeJS.ProcessEnv;
}

export interface SiteResult {
  out: string;
  title: string;
  version: string;
  /** Newest first. */
  versions: VersionEntry[];
  changelog: boolean;
  /** Site-relative paths of the files written. */
  files: string[];
  warnings: string[];
}

/** One released version's document. */
export interface VersionSource {
  version: string;
  text: string;
  source: VersionEntry["source"];
}

/** A version usable as a directory name (`v<version>`): semver-like characters only. */
const SAFE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

/** Orders versions newest first: numeric dot parts compared as numbers, a pre-release before its release. */
export function compareVersionsDesc(a: string, b: string): number {
  const split = (v: string) => {
    const [core = "", pre] = v.split("+")[0]!.split(/-(.*)/s);
    return { core: core.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.core.length, y.core.length); i++) {
    const p = x.core[i] ?? 0;
    const q = y.core[i] ?? 0;
    if (p === q) continue;
    if (typeof p === "number" && typeof q === "number") return q - p;
    return String(q).localeCompare(String(p));
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return -1;
  if (y.pre === undefined) return 1;
  return y.pre.localeCompare(x.pre, "en", { numeric: true });
}

function git(cwd: string, args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
}

function versionOf(text: string): string | undefined {
  const v = (parse(text) as { info?: { version?: unknown } } | null)?.info?.version;
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

/**
 * The released versions of the document at `specPath`: every distinct `info.version` in its git
 * history, each from the newest commit that has it, plus the working tree's version when no commit has
 * it. Newest version first. Outside a git checkout: the current version only, with a warning.
 */
export function findVersions(specPath: string, currentText: string): { versions: VersionSource[]; warnings: string[] } {
  const warnings: string[] = [];
  const current = versionOf(currentText);
  if (current === undefined) throw new Error(`${specPath}: no info.version`);
  const dir = dirname(specPath);
  const file = basename(specPath);
  const found = new Map<string, VersionSource>();
  let log: string | undefined;
  try {
    git(dir, ["rev-parse", "--is-inside-work-tree"]);
    log = git(dir, ["log", "--no-show-signature", "--format=%H%x09%cI", "--", file]);
  } catch (err) {
    const why =
      (err as { code?: string }).code === "ENOENT" ? "git is not installed" : `${specPath} is not in a git checkout`;
    warnings.push(`${why}: the site lists the current version (${current}) only`);
  }
  if (log !== undefined) {
    const commits = log.split("\n").filter(Boolean);
    if (commits.length === 0)
      warnings.push(`no commit has ${specPath}: the site lists the current version (${current}) only`);
    for (const line of commits) {
      const [sha = "", date = ""] = line.split("\t");
      let text: string;
      try {
        text = git(dir, ["show", `${sha}:./${file}`]);
      } catch {
        continue; // the commit deleted the file
      }
      let version: string | undefined;
      try {
        version = versionOf(text);
      } catch (err) {
        warnings.push(
          `commit ${sha.slice(0, 12)}: ${file} does not parse (${(err as Error).message.split("\n")[0]}); skipped`,
        );
        continue;
      }
      if (version === undefined) {
        warnings.push(`commit ${sha.slice(0, 12)}: ${file} has no info.version; skipped`);
        continue;
      }
      if (!found.has(version)) found.set(version, { version, text, source: { kind: "commit", sha, date } });
    }
  }
  if (!found.has(current))
    found.set(current, { version: current, text: currentText, source: { kind: "working-tree" } });
  const versions: VersionSource[] = [];
  for (const v of found.values()) {
    if (SAFE_VERSION.test(v.version)) versions.push(v);
    else warnings.push(`info.version ${JSON.stringify(v.version)} cannot name a directory; no page for it`);
  }
  versions.sort((a, b) => compareVersionsDesc(a.version, b.version));
  return { versions, warnings };
}

/** Runs `redocly build-docs --inlineBundle` on one document; rejects with the CLI's output on failure. */
function buildRedocPage(specFile: string, outFile: string, title: string, env: NodeJS.ProcessEnv): Promise<void> {
  const cli = require.resolve("@redocly/cli/bin/cli.js");
  const args = [cli, "build-docs", specFile, "--inlineBundle", "--title", title, "--output", outFile];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolvePromise();
      // The CLI's notice boxes (Node 20 deprecation, Redoc 3) say nothing about the failure: drop them.
      const message = output
        .split("\n")
        .filter((l) => !/^\s*[\u2554\u2551\u255a]/.test(l))
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      reject(
        new Error(
          `redocly build-docs failed for ${specFile} (${signal ? `signal ${signal}` : `exit ${code}`}):\n${message}`,
        ),
      );
    });
  });
}

/** Empties `out` when it holds an earlier build; refuses to touch a non-empty directory that does not. */
function prepareOut(out: string): void {
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw new Error(`--out ${out} is a file; the docs site is a directory`);
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(SITE_MARKER)) {
      throw new Error(
        `--out ${out} is a non-empty directory that is not a docs site (no ${SITE_MARKER}); refusing to overwrite it`,
      );
    }
    for (const e of entries) rmSync(join(out, e), { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, SITE_MARKER), "Built by `npm run docs`; the next build clears this directory.\n");
}

/** Builds the whole site; throws (with redocly's output) when any page fails to build. */
export async function buildSite(options: BuildSiteOptions): Promise<SiteResult> {
  const out = resolve(options.out);
  const specPath = resolve(options.specPath ?? SPEC_PATH);
  const changelogPath = resolve(options.changelogPath ?? join(ROOT, "CHANGELOG.md"));
  const env = { ...process.env, ...options.env, ...REDOCLY_PRIVATE_ENV };

  const currentText = readFileSync(specPath, "utf8");
  // Redocly resolves every $ref (it would fetch URLs and read ../ files, and publish them): each document
  // of the site is checked to be self-contained before any is built.
  const doc = readDocumentFile(specPath) as { info?: { title?: unknown; version?: unknown; summary?: unknown } };
  assertSelfContained(doc, specPath);
  const title = String(doc?.info?.title ?? "API");
  const { versions, warnings } = findVersions(specPath, currentText);
  for (const v of versions) {
    const label = `${specPath} (version ${v.version})`;
    assertSelfContained(parseDocumentText(v.text, label), label);
  }
  const version = String(doc.info?.version);

  prepareOut(out);
  const files: string[] = [];
  const write = (rel: string, content: string) => {
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    writeFileSync(join(out, rel), content);
    files.push(rel);
  };
  write("openapi.yaml", currentText);
  write("openapi.json", `${JSON.stringify(doc, null, 2)}\n`);

  // Redoc pages: the current document, then each version whose document differs from it (a version
  // whose text is the current one gets a copy of the reference page).
  const referencePage = `${REFERENCE_DIR}/index.html`;
  mkdirSync(join(out, REFERENCE_DIR), { recursive: true });
  const jobs: Array<() => Promise<void>> = [
    () => buildRedocPage(specPath, join(out, referencePage), `${title} ${version}`, env),
  ];
  const copies: string[] = [];
  for (const v of versions) {
    const rel = `v${v.version}`;
    write(`${rel}/openapi.yaml`, v.text);
    if (v.text === currentText) copies.push(`${rel}/index.html`);
    else
      jobs.push(() =>
        buildRedocPage(join(out, rel, "openapi.yaml"), join(out, rel, "index.html"), `${title} ${v.version}`, env),
      );
  }
  await runLimited(jobs, 2);
  const pages = [
    referencePage,
    ...versions.filter((v) => v.text !== currentText).map((v) => `v${v.version}/index.html`),
  ];
  for (const rel of pages) {
    writeFileSync(join(out, rel), makeRedocPageOffline(readFileSync(join(out, rel), "utf8")));
    files.push(rel);
  }
  for (const rel of copies) {
    copyFileSync(join(out, referencePage), join(out, rel));
    files.push(rel);
  }

  let changelogAnchors: Set<string> | undefined;
  const haveChangelog = existsSync(changelogPath);
  if (haveChangelog) {
    const page = changelogPage(title, readFileSync(changelogPath, "utf8"));
    changelogAnchors = page.anchors;
    write("changelog.html", page.html);
  } else {
    warnings.push(`${changelogPath} does not exist: no changelog page (the landing page says so)`);
  }

  const entries: VersionEntry[] = versions.map((v) => ({ version: v.version, dir: `v${v.version}`, source: v.source }));
  write("versions.json", `${JSON.stringify({ current: version, versions: entries }, null, 2)}\n`);
  write(
    "index.html",
    landingPage({
      title,
      version,
      ...(typeof doc.info?.summary === "string" ? { summary: doc.info.summary } : {}),
      referenceDir: REFERENCE_DIR,
      versions: entries,
      ...(haveChangelog ? { changelogHref: "changelog.html", changelogAnchors } : {}),
    }),
  );
  return { out, title, version, versions: entries, changelog: haveChangelog, files: files.sort(), warnings };
}

/** Runs async jobs with at most `limit` at a time; rejects with the first failure after all settle. */
async function runLimited(jobs: Array<() => Promise<void>>, limit: number): Promise<void> {
  const queue = [...jobs];
  const errors: unknown[] = [];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      await job().catch((err: unknown) => errors.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  if (errors.length > 0) throw errors[0];
}

function parseOut(argv: string[]): string {
  let out = "site";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--out") {
      const v = argv[++i];
      if (!v) throw new Error("--out needs a directory");
      out = v;
    } else if (a.startsWith("--out=")) out = a.slice("--out=".length);
    else throw new Error(`unknown argument ${a}; usage: npm run docs [-- --out DIR]`);
  }
  if (/\.html?$/i.test(out))
    throw new Error(`--out ${out}: give a directory (the site's index.html is written inside it)`);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const site = await buildSite({ out: parseOut(process.argv.slice(2)) });
    for (const w of site.warnings) console.warn(`warning: ${w}`);
    const bytes = site.files.reduce((n, f) => n + statSync(join(site.out, f)).size, 0);
    console.log(
      `wrote ${site.out}/ (${site.files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB, renders offline): ` +
        `index.html, ${REFERENCE_DIR}/index.html (${site.version}), ` +
        `${site.versions.map((v) => `${v.dir}/`).join(" ")}${site.changelog ? ", changelog.html" : ""}`,
    );
  } catch (err) {
    console.error(
      `npm run docs: ${(err as Error).message
        .split("\n")
        .map((line) => outsideText(line))
        .join("\n")}`,
    );
    // A document refused before any page is built (a non-local $ref) is invalid input: exit 2.
    process.exitCode = err instanceof DocumentError ? 2 : 1;
  }
}
