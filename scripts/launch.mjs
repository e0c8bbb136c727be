#!/usr/bin/env node
/**
 * `node scripts/launch.mjs <entry.ts> [args...]`: runs a TypeScript command-line entry of the repository (the npm
 * scripts `contract`, `contract:merge`, `contract:proxy-compare`, `mock`) as fast as the shipped bundle starts, and
 * never from a stale build.
 *
 * The entry is bundled once with esbuild (every library it imports bundled in, as tsup.config.ts ships
 * `webauto-contract`; @stoplight/prism-cli stays outside, started as its own process) to
 * node_modules/.cache/webauto-launch/. Beside the bundle a stamp lists every file the bundle was built from, each
 * with its size, mtime and SHA-256 of the very text esbuild was given. A start reuses the bundle when every file of
 * the stamp has its recorded size and content: a file whose size and mtime are unchanged is taken as unchanged
 * (what make and tsc --incremental trust), any other is hashed and compared, so a touch or a checkout that changes
 * nothing keeps the bundle and an edit rebuilds it. The repository's own sources are hashed on every start
 * whatever their mtime (some 200 files, a few milliseconds), so even an edit that keeps a file's size and mtime
 * (a coarse-clock file system, a restored timestamp) is seen. A new file can only change the bundle through an
 * import, which edits a file of the stamp. tsconfig.json, package.json and package-lock.json (an install rewrites
 * it), the launcher itself, esbuild's version and Node's major version are part of the stamp too.
 *
 * Each file's hash is of the text the build read (an esbuild plugin loads every file and hashes it as it hands it
 * over), so an edit made while a build runs is never recorded as built: the next start sees its hash differ.
 * Builds are written under a fresh name and the stamp replaced atomically, so two starts at once never load each
 * other's half-written file.
 *
 * The bundled code sees its own source file's URL as `import.meta.url` (the plugin writes it in), so paths
 * relative to a source file (the document, the baseline, Prism's package) resolve as under tsx; and
 * `process.argv[1]` is the entry's path, as tsx gives it. Stack traces name the TypeScript sources (a linked
 * source map, read by Node's source map support when an error's stack is first read).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const CACHE = process.env.WEBAUTO_LAUNCH_CACHE ?? join(ROOT, "node_modules", ".cache", "webauto-launch");
const require = createRequire(import.meta.url);

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** What else a bundle depends on beside its input files: the launcher, esbuild and Node's major version. */
function buildKey() {
  const esbuild = require("esbuild/package.json").version;
  return sha256(`${readFileSync(SELF, "utf8")}\0${esbuild}\0${process.versions.node.split(".")[0]}`);
}

/** A file of the repository's own (not an installed library): hashed on every start. */
const ownSource = (file) => !file.split(/[\\/]/).includes("node_modules");

/**
 * The bundle of a stamp when every input is as recorded, else undefined. A file's size and mtime unchanged take it as
 * unchanged, but the repository's own files are hashed whatever their mtime.
 */
function freshBundle(stampFile, key) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, "utf8"));
  } catch {
    return undefined;
  }
  if (stamp.key !== key || !Array.isArray(stamp.inputs)) return undefined;
  for (const [file, size, mtimeMs, hash] of stamp.inputs) {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (stat.size !== size) return undefined;
    if (stat.mtimeMs === mtimeMs && !ownSource(file)) continue;
    if (sha256(readFileSync(file)) !== hash) return undefined;
  }
  const bundle = join(dirname(stampFile), stamp.bundle);
  try {
    statSync(bundle);
  } catch {
    return undefined;
  }
  return bundle;
}

const LOADERS = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".json": "json" };

/** Builds `entry` into CACHE; returns the bundle's path. Writes the stamp only when the build is whole. */
async function build(entry, name, stampFile, key) {
  const { build: esbuild } = await import("esbuild");
  /** path -> [size, mtimeMs, hash] of the text the build was given (the stat taken before the read). */
  const read = new Map();
  const plugin = {
    name: "stamp-inputs",
    setup(b) {
      b.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
        const stat = statSync(args.path);
        const contents = readFileSync(args.path);
        read.set(args.path, [stat.size, stat.mtimeMs, sha256(contents)]);
        const loader = LOADERS[extname(args.path)] ?? "js";
        if (!ownSource(args.path) || loader === "json") return { contents, loader };
        // The source's own URL for import.meta.url: paths relative to a source file resolve as they do under tsx.
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: contents.toString("utf8").replace(/\bimport\.meta\.url\b/g, url), loader };
      });
    },
  };
  mkdirSync(CACHE, { recursive: true });
  const id = `${name}-${process.pid}-${Date.now().toString(36)}`;
  const outfile = join(CACHE, `${id}.mjs`);
  await esbuild({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    external: ["@stoplight/prism-cli"],
    tsconfig: join(ROOT, "tsconfig.json"),
    logLevel: "error",
    plugins: [plugin],
    // Bundled CommonJS libraries call require(): give the ESM file one (as tsup.config.ts does for the package).
    banner: {
      js:
        'import { createRequire as __launchRequire } from "node:module"; ' +
        "const require = __launchRequire(import.meta.url);",
    },
  });
  // What the build read besides the files it loaded: the settings it was given and how the libraries were
  // resolved (an install rewrites the lock file).
  for (const file of ["tsconfig.json", "package.json", "package-lock.json"].map((f) => join(ROOT, f)))
    if (!read.has(file))
      try {
        const stat = statSync(file);
        read.set(file, [stat.size, stat.mtimeMs, sha256(readFileSync(file))]);
      } catch {
        // not there: nothing to stamp
      }
  const inputs = [...read].map(([file, [size, mtimeMs, hash]]) => [file, size, mtimeMs, hash]);
  const tmp = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ key, entry, bundle: `${id}.mjs`, inputs }));
  renameSync(tmp, stampFile);
  removeOldBuilds(name, id);
  return outfile;
}

/** Removes the earlier builds of `name` over an hour old (a start that read an older stamp may still load one). */
function removeOldBuilds(name, keep) {
  const hourAgo = Date.now() - 3_600_000;
  for (const file of readdirSync(CACHE)) {
    if (!file.startsWith(`${name}-`) || file.startsWith(keep)) continue;
    try {
      if (statSync(join(CACHE, file)).mtimeMs < hourAgo) rmSync(join(CACHE, file), { force: true });
    } catch {
      // another start removed it
    }
  }
}

/** The bundle to run for `entry`: the fresh one, or a new build. */
export async function bundleOf(entryArg) {
  const entry = isAbsolute(entryArg) ? entryArg : resolve(ROOT, entryArg);
  const name = relative(ROOT, entry)
    .replace(/\.[cm]?tsx?$/, "")
    .replace(/[^A-Za-z0-9]+/g, "_");
  const stampFile = join(CACHE, `${name}.stamp.json`);
  const key = buildKey();
  const fresh = freshBundle(stampFile, key);
  if (fresh) return { entry, bundle: fresh, built: false };
  return { entry, bundle: await build(entry, name, stampFile, key), built: true };
}

async function main() {
  const [entryArg, ...args] = process.argv.slice(2);
  if (!entryArg) {
    process.stderr.write("usage: node scripts/launch.mjs <entry.ts> [args...]\n");
    process.exit(2);
  }
  const { entry, bundle } = await bundleOf(entryArg);
  process.setSourceMapsEnabled(true);
  process.argv = [process.argv[0], entry, ...args];
  await import(pathToFileURL(bundle).href);
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) await main();
