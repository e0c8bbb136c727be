/**
 * Drives the real `spec:diff` and `spec:changelog` commands (tsx on scripts/spec-diff.ts and
 * scripts/spec-changelog.ts) against throwaway git repositories: a template repo holds two commits
 * (one without the document, one with a copy of openapi/openapi.yaml), each scenario copies it, edits
 * the working-tree document and runs the command with `--base HEAD`. The scenarios run concurrently.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPEC_PATH, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { readChangelog } from "../spec-diff/changelog.js";
import { SPEC_IN_REPO } from "../spec-diff/documents.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const work = mkdtempSync(join(tmpdir(), "spec-diff-test-"));
const template = join(work, "template");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [TSX, join(ROOT, "scripts", script), ...args], { cwd }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 99) : 0, stdout, stderr });
    });
  });
}

const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
    stdio: "pipe",
  });

/** A copy of the template repository whose working-tree document went through `edit`. */
function scenario(name: string, edit: (doc: OpenApiDocument) => void): string {
  const dir = join(work, name);
  cpSync(template, dir, { recursive: true });
  const file = join(dir, SPEC_IN_REPO);
  const doc = parse(readFileSync(file, "utf8")) as OpenApiDocument;
  edit(doc);
  writeFileSync(file, stringify(doc));
  return dir;
}

const schemas = (doc: OpenApiDocument) => doc.components.schemas;
const dropPending = (doc: OpenApiDocument) => {
  schemas(doc).BrowserRequestState.enum = schemas(doc).BrowserRequestState.enum.filter((v: string) => v !== "pending");
};
const diffIn = (dir: string, base = "HEAD", ...args: string[]) =>
  run("spec-diff.ts", ["--base", base, "--repo", dir, ...args], dir);

let r: Record<string, Run>;
let changelogDir: string;
let customReport: string;

beforeAll(async () => {
  mkdirSync(join(template, "openapi"), { recursive: true });
  git(template, "init", "-q");
  writeFileSync(join(template, "README.md"), "before the document\n");
  git(template, "add", "README.md");
  git(template, "commit", "-qm", "no document yet");
  cpSync(SPEC_PATH, join(template, SPEC_IN_REPO));
  cpSync(join(ROOT, "CHANGELOG.md"), join(template, "CHANGELOG.md"));
  git(template, "add", ".");
  git(template, "commit", "-qm", "document 1.0.0");

  const breakingNoBump = scenario("breaking-no-bump", (d) => {
    dropPending(d);
    schemas(d).BrowserRequest.properties.url.type = ["string", "null"];
  });
  const breakingMajor = scenario("breaking-major", (d) => {
    dropPending(d);
    d.info.version = "2.0.0";
  });
  const removedOperation = scenario("removed-operation-minor", (d) => {
    delete d.paths["/v1/browser/requests"];
    d.info.version = "1.1.0";
  });
  const nonBreaking = scenario("non-breaking", (d) => {
    schemas(d).DataSchemaInput.properties.tags = { type: "array", items: { type: "string" }, description: "Labels." };
    d.paths["/v1/browser/requests"].get.operationId = "listRequests";
    d.info.version = "1.1.0";
  });
  const annotation = scenario("annotation", (d) => {
    d.paths["/v1/browser/requests"].get.description = "Lists browser requests.";
    schemas(d).FieldTypeName["x-response-counterpart"] = "#/components/schemas/SchemaField";
  });
  const unchanged = scenario("unchanged", () => {});
  writeFileSync(join(work, "summary.md"), "earlier step\n");
  changelogDir = nonBreaking;
  const stale = "## [1.1.0] - 2029-12-31\n\n### Changed\n\n- A stale bullet\n\n## [1.0.0]";
  const seeded = readFileSync(join(nonBreaking, "CHANGELOG.md"), "utf8").replace("## [1.0.0]", stale);
  writeFileSync(join(nonBreaking, "CHANGELOG.md"), seeded);

  const entries = await Promise.all([
    diffIn(breakingNoBump),
    diffIn(breakingMajor),
    diffIn(removedOperation, "HEAD", "--out", "custom/report.md", "--summary", join(work, "summary.md")),
    run("spec-diff.ts", ["--base", "HEAD"], nonBreaking),
    diffIn(annotation),
    diffIn(unchanged),
    diffIn(unchanged, "HEAD~1", "--out", join(work, "from-nothing.md")),
    run("spec-diff.ts", ["--repo", unchanged], unchanged),
    diffIn(unchanged, "no-such-ref"),
    run("spec-changelog.ts", ["--base", "HEAD", "--date", "2030-01-02"], changelogDir),
  ]);
  const names = [
    "breakingNoBump",
    "breakingMajor",
    "removedOperation",
    "nonBreaking",
    "annotation",
    "unchanged",
    "fromNothing",
    "missingBase",
    "unknownRef",
    "changelog",
  ];
  r = Object.fromEntries(names.map((n, i) => [n, entries[i]!]));
  customReport = readFileSync(join(removedOperation, "custom/report.md"), "utf8");
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The markdown of one class's section of a report ("" when the section is absent). */
const section = (report: string, title: string) => report.split(/^## /m).find((s) => s.startsWith(title)) ?? "";

describe("spec:diff", () => {
  it("fails a removed enum value without a major bump, naming the value and the parameter", () => {
    expect(r.breakingNoBump!.code, r.breakingNoBump!.stderr).toBe(1);
    const breaking = section(r.breakingNoBump!.stdout, "Breaking (");
    expect(breaking).toContain('`"pending"` removed');
    expect(breaking).toContain("query parameter `status`");
    expect(r.breakingNoBump!.stdout).toContain("1.0.0 → 1.0.0 is not one");
    expect(r.breakingNoBump!.stdout).toContain("**Gate:** FAIL");
  });

  it("passes the same removal when info.version takes a major bump", () => {
    expect(r.breakingMajor!.code, r.breakingMajor!.stderr).toBe(0);
    expect(section(r.breakingMajor!.stdout, "Breaking (")).toContain('`"pending"` removed');
    expect(r.breakingMajor!.stdout).toContain("info.version changed: 1.0.0 → 2.0.0");
    expect(r.breakingMajor!.stdout).toContain("Breaking changes come with a major bump");
  });

  it("fails a removed operation under a minor bump; --out and --summary receive the report", () => {
    expect(r.removedOperation!.code).toBe(1);
    const breaking = section(r.removedOperation!.stdout, "Breaking (");
    expect(breaking).toContain("Operation removed: GET /v1/browser/requests");
    expect(breaking).toContain("`operation-removed`: clients calling it fail");
    expect(breaking).toContain("listBrowserRequests");
    expect(r.removedOperation!.stdout).toContain("Breaking changes require a major bump: 1.0.0 → 1.1.0 is not one.");
    expect(customReport).toBe(r.removedOperation!.stdout);
    const summary = readFileSync(join(work, "summary.md"), "utf8");
    expect(summary.startsWith("earlier step\n# OpenAPI document changes")).toBe(true);
    expect(summary).toContain("Operation removed: GET /v1/browser/requests");
  });

  it("rates a response property that became nullable breaking, naming the rule", () => {
    const breaking = section(r.breakingNoBump!.stdout, "Breaking (");
    expect(breaking).toMatch(/`data\.results\[\]\.url`.*`response-became-nullable`: clients may receive values/);
    expect(r.breakingNoBump!.stdout).toContain("| Breaking | 2 |");
  });

  it(
    "passes an added optional request property (non-breaking) and a changed operationId (a warning), report in " +
      "reports/",
    () => {
      expect(r.nonBreaking!.code, r.nonBreaking!.stderr).toBe(0);
      expect(r.nonBreaking!.stdout).toContain("| Breaking | 0 |\n| Warning | 1 |");
      expect(section(r.nonBreaking!.stdout, "Warning (")).toMatch(
        /operationId changed.*`"listBrowserRequests"` → `"listRequests"`.*`operation-id-changed`: generated clients/,
      );
      expect(section(r.nonBreaking!.stdout, "Non-breaking (")).toContain(
        "Optional property added: request body (application/json) property `tags`",
      );
      expect(readFileSync(join(changelogDir, "reports/spec-diff.md"), "utf8")).toBe(r.nonBreaking!.stdout);
    },
  );

  it("passes annotation-only changes, listing the description and the x- extension", () => {
    expect(r.annotation!.code, r.annotation!.stderr).toBe(0);
    expect(r.annotation!.stdout).toMatch(
      /\| Breaking \| 0 \|\n\| Warning \| 0 \|\n\| Non-breaking \| 0 \|\n\| Annotation-only \| 2 \|/,
    );
    const notes = section(r.annotation!.stdout, "Annotation-only (");
    expect(notes).toContain("x-response-counterpart");
    expect(notes).toContain("GET /v1/browser/requests (listBrowserRequests)");
  });

  it("passes and says so when nothing changed", () => {
    expect(r.unchanged!.code).toBe(0);
    expect(r.unchanged!.stdout).toContain("No changes");
  });

  it("treats a ref without the document as everything added", () => {
    expect(r.fromNothing!.code, r.fromNothing!.stderr).toBe(0);
    const report = readFileSync(join(work, "from-nothing.md"), "utf8");
    expect(report).toContain("`HEAD~1` (no document there)");
    expect(report).toContain("| Breaking | 0 |");
    expect(section(report, "Non-breaking (")).toContain("Operation added: PUT /v1/schemas/{id}");
  });

  it("exits 2 naming --base when it is missing or unknown", () => {
    expect(r.missingBase!.code).toBe(2);
    expect(r.missingBase!.stderr).toContain("missing --base");
    expect(r.unknownRef!.code).toBe(2);
    expect(r.unknownRef!.stderr).toContain("--base no-such-ref is not a commit or tree");
  });
});

describe("spec:changelog", () => {
  it("replaces the entry for the new info.version with one naming the change, keeping older ones", () => {
    expect(r.changelog!.code, r.changelog!.stderr).toBe(0);
    const text = readFileSync(join(changelogDir, "CHANGELOG.md"), "utf8");
    expect(text.match(/^## \[1\.1\.0\]/gm)).toHaveLength(1);
    expect(text).not.toContain("A stale bullet");
    const entry = readChangelog(text).findRelease("1.1.0")!;
    expect(entry.date?.toISOString().slice(0, 10)).toBe("2030-01-02");
    expect(
      entry.changes
        .get("changed")!
        .map((c) => c.title)
        .join("\n"),
    ).toContain("operationId changed");
    expect(
      entry.changes
        .get("added")!
        .map((c) => c.title)
        .join("\n"),
    ).toContain("Optional property added: request body (application/json) property `tags`");
    expect(readChangelog(text).findRelease("1.0.0")).toBeDefined();
  });
});
