/**
 * Reads the two versions of the OpenAPI document that a diff compares: the one committed at a git
 * ref (`git show REF:openapi/openapi.yaml`) and the one in the working tree.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseDocumentText } from "../../openapi/lib/self-contained.js";
import { readSpec, SPEC_PATH, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { UsageError } from "./cli.js";

/** The document's path inside the repository (posix separators, as git names it). */
export const SPEC_IN_REPO = relative(dirname(dirname(SPEC_PATH)), SPEC_PATH)
  .split("\\")
  .join("/");

/** Both sides of a comparison; `base` is null when the ref has no document ("everything added"). */
export interface DocumentPair {
  repo: string;
  baseRef: string;
  base: OpenApiDocument | null;
  head: OpenApiDocument;
}

function git(repo: string, args: string[]): string {
  return execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The top directory of the git work tree holding `dir`; UsageError naming --repo otherwise. */
function repoRoot(dir: string): string {
  try {
    return git(dir, ["rev-parse", "--show-toplevel"]).trim();
  } catch {
    throw new UsageError(`--repo ${dir} is not inside a git work tree`);
  }
}

function parseDocument(text: string, origin: string): OpenApiDocument {
  const doc: unknown = parseDocumentText(text, origin);
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new Error(`${origin} is not an OpenAPI document`);
  return doc as OpenApiDocument;
}

/** Loads the document at `baseRef` and in the working tree of the repository holding `dir`. */
export function loadDocuments(dir: string, baseRef: string): DocumentPair {
  const repo = repoRoot(dir);
  try {
    git(repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${baseRef}^{tree}`]);
  } catch {
    throw new UsageError(`--base ${baseRef} is not a commit or tree in ${repo}`);
  }
  const headPath = join(repo, SPEC_IN_REPO);
  if (!existsSync(headPath)) throw new UsageError(`no document at ${headPath} (check --repo)`);
  const head = parseDocument(readFileSync(headPath, "utf8"), headPath);
  const object = `${baseRef}:${SPEC_IN_REPO}`;
  let present = true;
  try {
    git(repo, ["cat-file", "-e", object]);
  } catch {
    present = false;
  }
  const base = present ? parseDocument(git(repo, ["show", object]), object) : null;
  return { repo, baseRef, base, head };
}

/**
 * The document read as the project's other tools read it (openapi/lib/spec.ts's readSpec): a Swagger 2.0
 * or OpenAPI 3.0 document upgraded to OpenAPI 3.1 (`nullable` becomes a `null` type, boolean exclusive
 * bounds become numbers...), references checked; an error names `origin`.
 */
export function normalizeDocument(doc: OpenApiDocument, origin: string): OpenApiDocument {
  return readSpec(structuredClone(doc), origin);
}
