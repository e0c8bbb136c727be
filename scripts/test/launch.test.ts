/**
 * scripts/launch.mjs (`npm run contract` and the other command-line scripts): the bundle is reused while the sources
 * are unchanged and rebuilt after an edit, so a stale build never runs. In a temporary copy of the launcher with a
 * two-file entry (its node_modules the project's, its cache its own), each start a fresh process.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "launch-test-"));
const cache = join(dir, "cache");
mkdirSync(join(dir, "scripts"));
mkdirSync(join(dir, "src"));
copyFileSync(join(ROOT, "scripts/launch.mjs"), join(dir, "scripts/launch.mjs"));
copyFileSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
const entry = join(dir, "src/main.ts");
const word = join(dir, "src/word.ts");
writeFileSync(
  entry,
  'import { word } from "./word.js";\nconst n: number = 1;\n' +
    "console.log(JSON.stringify({ word, n, argv: process.argv.slice(1), url: import.meta.url }));\n",
);
writeFileSync(word, 'export const word: string = "one";\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One start of the entry: what it printed, and the bundles in the cache after it. */
function start(...args: string[]): {
  out: { word: string; n: number; argv: string[]; url: string };
  bundles: string[];
} {
  const r = spawnSync(process.execPath, [join(dir, "scripts/launch.mjs"), "src/main.ts", ...args], {
    cwd: dir,
    env: { ...process.env, WEBAUTO_LAUNCH_CACHE: cache },
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return { out: JSON.parse(r.stdout), bundles: readdirSync(cache).filter((f) => f.endsWith(".mjs")) };
}

it("builds once, reuses the build while the sources are unchanged, and runs an edit at once", () => {
  const first = start("--flag", "x");
  // The entry sees its arguments and its own path as under tsx, and its source file's URL as import.meta.url.
  expect(first.out).toEqual({ word: "one", n: 1, argv: [entry, "--flag", "x"], url: pathToFileURL(entry).href });
  expect(first.bundles).toHaveLength(1);

  // Unchanged: the same bundle, no new build.
  expect(start().bundles).toEqual(first.bundles);

  // Touched, content unchanged: still the same bundle (the hash decides, not the mtime).
  const later = new Date(Date.now() + 5_000);
  utimesSync(word, later, later);
  expect(start().bundles).toEqual(first.bundles);

  // Edited to text of the same size with the mtime put back: the edit runs (own sources are hashed every start).
  const { mtime } = statSync(word);
  writeFileSync(word, 'export const word: string = "two";\n');
  utimesSync(word, mtime, mtime);
  const edited = start();
  expect(edited.out.word).toBe("two");
  expect(edited.bundles).toHaveLength(2);

  // A new import (a file the old build never read) is part of the next build.
  writeFileSync(join(dir, "src/extra.ts"), "export const extra = 3;\n");
  writeFileSync(
    entry.replace("main.ts", "word.ts"),
    'import { extra } from "./extra.js";\nexport const word = `w${extra}`;\n',
  );
  expect(start().out.word).toBe("w3");
});
