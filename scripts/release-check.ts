/**
 * `npm run release:check -- --tag v1.2.3`: what the release workflow checks before it publishes. The tag names
 * the package version, the changelog has a section for it, and the package as packed holds the client
 * entries and the `webauto-contract` command (prepack builds dist/). Exits 1 naming what is wrong.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The files the package must hold to be worth publishing. */
export const REQUIRED_FILES = [
  "dist/index.js",
  "dist/index.cjs",
  "dist/index.d.ts",
  "dist/index.d.cts",
  "dist/contract-cli.js",
  "openapi/openapi.yaml",
  "contract.config.schema.json",
  "README.md",
  "LICENSE",
];

/** What is wrong with releasing `tag` from a package (`pkg`), its changelog text and its packed file list. */
export function releaseProblems(
  tag: string,
  pkg: { version: string; bin?: Record<string, string> },
  changelog: string,
  packed: string[],
): string[] {
  const problems: string[] = [];
  if (tag !== `v${pkg.version}`)
    problems.push(
      `the tag ${JSON.stringify(tag)} does not name the package version ${pkg.version} (expected v${pkg.version})`,
    );
  if (!new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\]`, "m").test(changelog))
    problems.push(`CHANGELOG.md has no "## [${pkg.version}]" section`);
  for (const file of REQUIRED_FILES) if (!packed.includes(file)) problems.push(`the package would not contain ${file}`);
  const bin = pkg.bin?.["webauto-contract"]?.replace(/^\.\//, "");
  if (!bin || !packed.includes(bin))
    problems.push(`the bin webauto-contract (${bin ?? "undeclared"}) is not in the package`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { tag: { type: "string" } } });
  const tag = values.tag ?? process.env.GITHUB_REF_NAME ?? "";
  const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as {
    version: string;
    bin?: Record<string, string>;
  };
  // The build prepack runs, then the list of what `npm publish` would upload.
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  const packed = (
    JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    ) as Array<{ files: Array<{ path: string }> }>
  )[0]!.files.map((f) => f.path);
  const problems = releaseProblems(tag, pkg, readFileSync(`${ROOT}/CHANGELOG.md`, "utf8"), packed);
  for (const p of problems) console.error(`release:check: ${p}`);
  // The process ends by itself, once its output is written (process.exit could cut it short on a pipe).
  if (problems.length) process.exitCode = 1;
  else console.log(`release:check: ${tag} is ready to publish (${packed.length} files)`);
}
