/**
 * The spec gates that fail the build: redocly lint (recommended, invalid examples as errors),
 * Spectral's spectral:oas with warnings failing, and the generated-types drift check. Each gate is also
 * shown to fail on a deliberately broken copy of the document, so a green gate means something.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { SPEC_PATH } from "../lib/spec.js";

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REDOCLY = require.resolve("@redocly/cli/bin/cli.js");
const SPECTRAL = join(ROOT, "node_modules/@stoplight/spectral-cli/dist/index.js");
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");

function run(args: string[]): { status: number | null; output: string } {
  const res = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  return { status: res.status, output: `${res.stdout}\n${res.stderr}` };
}

const redocly = (spec: string) => run([REDOCLY, "lint", spec, "--config", join(ROOT, "redocly.yaml")]);
// The ruleset's overrides name `openapi/openapi.yaml` relative to the ruleset, so a copy is linted with a
// copy of the ruleset laid out the same way.
const spectral = (spec: string) =>
  run([SPECTRAL, "lint", spec, "--ruleset", join(dirname(dirname(spec)), ".spectral.yaml"), "--fail-severity=warn"]);
const driftCheck = (spec: string, outDir: string) =>
  run([TSX, join(ROOT, "scripts/generate.ts"), "--check", "--spec", spec, "--out", outDir]);

/** Writes a copy of the document, edited by `edit`, and of the Spectral ruleset into a temp folder. */
function brokenCopy(edit: (yaml: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "webauto-spec-"));
  mkdirSync(join(dir, "openapi"));
  copyFileSync(join(ROOT, ".spectral.yaml"), join(dir, ".spectral.yaml"));
  const file = join(dir, "openapi", "openapi.yaml");
  const original = readFileSync(SPEC_PATH, "utf8");
  const edited = edit(original);
  expect(edited, "the edit must change the document").not.toBe(original);
  writeFileSync(file, edited);
  return file;
}

// An example that contradicts its schema: a string field type in the response of the schema update.
const invalidExample = (yaml: string) =>
  yaml.replace(
    "                      - name: title\n                        type: 0",
    "                      - name: title\n                        type: string",
  );

// Each gate spawns a CLI (redocly, Spectral, tsc); on a loaded 2-core machine tsc alone can take 30 s.
describe("spec gates", { timeout: 120_000 }, () => {
  test("redocly lint passes on the document with no warnings", () => {
    const { status, output } = redocly(SPEC_PATH);
    expect(status, output).toBe(0);
    expect(output).toMatch(/Your API description is valid/);
    // The "Node 20 support is ending" box is a deprecation notice of the CLI, not a lint warning.
    expect(output).not.toMatch(/\d+ warnings?\b/i);
  });

  test("redocly lint fails on an example that violates its schema", () => {
    const { status, output } = redocly(brokenCopy(invalidExample));
    expect(status, output).not.toBe(0);
    expect(output).toMatch(/no-invalid-media-type-examples/);
  });

  test("spectral:oas passes with warnings counted as failures", () => {
    const { status, output } = spectral(SPEC_PATH);
    expect(status, output).toBe(0);
    expect(output).toMatch(/No results with a severity of 'warn' or higher/);
  });

  // Spectral does not validate examples under recursive $refs (Action, SchemaField): redocly and the
  // ajv example test cover those. A flat example shows Spectral's own rule is live.
  test("spectral:oas fails on an invalid example and on a missing operation description", () => {
    const bad = spectral(
      brokenCopy((y) => y.replace("                  max_cache_age: 3600", "                  max_cache_age: an hour")),
    );
    expect(bad.status, bad.output).not.toBe(0);
    expect(bad.output).toMatch(/oas3-valid-media-example/);
    const undescribed = spectral(
      brokenCopy((y) =>
        y.replace(
          / {6}summary: List browser requests\n {6}description: \|\n(?: {8}.*\n|\n)+? {6}parameters:/,
          "      summary: List browser requests\n      parameters:",
        ),
      ),
    );
    expect(undescribed.status, undescribed.output).not.toBe(0);
    expect(undescribed.output).toMatch(/operation-description/);
  });

  test("every file in generated/ is up to date with the document", () => {
    const { status, output } = driftCheck(SPEC_PATH, join(ROOT, "generated"));
    expect(status, output).toBe(0);
    expect(output).toMatch(/schema\.d\.ts, operations\.json, routes\.ts, schemas\.ts/);
  });

  test("the drift check fails when the document changed after generation, naming each stale file with a diff", () => {
    const dir = mkdtempSync(join(tmpdir(), "webauto-gen-"));
    for (const name of readdirSync(join(ROOT, "generated")))
      copyFileSync(join(ROOT, "generated", name), join(dir, name));
    const spec = brokenCopy((y) =>
      y.replace(
        "      enum: [pending, running, completed, failed]",
        "      enum: [pending, running, completed, failed, cancelled]",
      ),
    );
    const { status, output } = driftCheck(spec, dir);
    expect(status, output).toBe(1);
    // operations.json keeps $refs, so an enum edit leaves it as it was; the three files that inline the enum are stale.
    for (const name of ["schema.d.ts", "routes.ts", "schemas.ts"])
      expect(output).toContain(`${join(dir, name)} is stale`);
    expect(output).not.toContain(`${join(dir, "operations.json")} is stale`);
    expect(output).toMatch(/^\+.*cancelled/m);
  });

  test("a file that is not an OpenAPI document ends generation with one line naming it and the rule, no stack", () => {
    const dir = mkdtempSync(join(tmpdir(), "webauto-gen-"));
    const spec = join(dir, "list.yaml");
    writeFileSync(spec, "- not\n- a document\n");
    const { status, output } = driftCheck(spec, dir);
    expect(status, output).toBe(1);
    expect(output).toContain(`npm run generate: cannot generate from ${spec}: ${spec} is not an OpenAPI document`);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
