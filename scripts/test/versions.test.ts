/** The document's info.version, package.json's version and CHANGELOG.md move together. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../openapi/lib/spec.js";
import { readChangelog } from "../spec-diff/changelog.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const infoVersion = String(loadSpec().info.version);

describe("versions", () => {
  it("package.json's version equals the document's info.version", () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string };
    expect(pkg.version).toBe(infoVersion);
  });

  it("CHANGELOG.md has a dated entry with changes for the document's info.version", () => {
    const entry = readChangelog(readFileSync(`${ROOT}CHANGELOG.md`, "utf8")).findRelease(infoVersion);
    expect(entry, `no CHANGELOG.md entry for ${infoVersion}`).toBeDefined();
    expect(entry!.date).toBeInstanceOf(Date);
    expect(entry!.isEmpty()).toBe(false);
  });
});
