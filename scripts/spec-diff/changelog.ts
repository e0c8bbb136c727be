/**
 * CHANGELOG.md in the Keep a Changelog style, read and written with the keep-a-changelog package. An
 * entry is made from a SpecDiff: one bullet per change, under Breaking, Added, Changed or Documentation.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Changelog, parser, Release } from "keep-a-changelog";
import type { Change } from "./classify.js";
import { valueChange } from "./report.js";
import type { SpecDiff } from "./run.js";

const INTRO = [
  "All notable changes to the OpenAPI document (`openapi/openapi.yaml`). The format is based on",
  "[Keep a Changelog](https://keepachangelog.com/en/1.1.0/) and `info.version` follows",
  "[Semantic Versioning](https://semver.org/spec/v2.0.0.html). Entries are written by",
  "`npm run spec:changelog -- --base <git ref>` from the same comparison as `npm run spec:diff`.",
].join("\n");

/** The entry sections, in order. */
const SECTIONS = ["breaking", "added", "changed", "documentation"] as const;

/** A Release with this project's sections ahead of Keep a Changelog's standard ones. */
class SpecRelease extends Release {
  constructor(version?: string, date?: string, description?: string) {
    super(version, date, description);
    this.changes = new Map([
      ...SECTIONS.map((s): [string, never[]] => [s, []]),
      ...[...this.changes].filter(([k]) => !SECTIONS.includes(k as never)),
    ]);
  }
}

/** The section a change goes to. */
function sectionOf(change: Change): (typeof SECTIONS)[number] {
  if (change.cls === "breaking") return "breaking";
  if (change.cls === "annotation") return "documentation";
  if (change.cls === "warning") return "changed";
  return change.action === "add" ? "added" : "changed";
}

/** The bullet for one change: where, what, and the value when it is short. */
function bulletOf(change: Change): string {
  const value = valueChange(change);
  const op = change.operation ?? "";
  const signature = op.replace(/ \(.*\)$/, "");
  // An added or removed operation: its text already names method and path; add only the operationId.
  const what =
    op && change.text.includes(signature)
      ? `${change.text}${op.slice(signature.length)}`
      : `${op ? `${op}: ` : ""}${change.text}`;
  return `${what}${value ? ` (${value})` : ""}`;
}

/** Parses a CHANGELOG.md that uses this project's sections. */
export function readChangelog(markdown: string): Changelog {
  return parser(markdown, { releaseCreator: (v, d, desc) => new SpecRelease(v, d, desc) });
}

function load(file: string): Changelog {
  return existsSync(file) ? readChangelog(readFileSync(file, "utf8")) : new Changelog("Changelog", INTRO);
}

/** Writes (or replaces) the entry for the head document's info.version; returns the entry's bullets. */
export function writeEntry(file: string, diff: SpecDiff, date: string): string[] {
  const changelog = load(file);
  changelog.format = "markdownlint";
  const release = new SpecRelease(
    diff.headVersion,
    date,
    diff.baseVersion === null ? "First version of the document." : "",
  );
  const bullets: string[] = [];
  for (const change of diff.changes) {
    if (change.pointer === "/info/version") continue;
    const bullet = bulletOf(change);
    bullets.push(bullet);
    release.addChange(sectionOf(change), bullet);
  }
  if (bullets.length === 0) release.addChange("changed", `No change to the document since \`${diff.baseRef}\`.`);
  changelog.releases = changelog.releases.filter((r) => r.version !== release.version);
  if (!changelog.releases.some((r) => r.version === undefined)) changelog.addRelease(new SpecRelease());
  changelog.addRelease(release);
  writeFileSync(file, changelog.toString());
  return bullets;
}
