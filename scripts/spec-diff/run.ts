/**
 * One comparison from start to end: load both documents, classify the changes, and judge the version
 * by the gate's rule (a breaking change needs a major bump of `info.version`).
 */
import semver from "semver";
import type { OpenApiDocument } from "../../openapi/lib/spec.js";
import { classifyChanges, type Change } from "./classify.js";
import { loadDocuments, SPEC_IN_REPO } from "./documents.js";

/** Whether `info.version` moved as the changes require, and a sentence saying so. */
export interface VersionVerdict {
  ok: boolean;
  changed: boolean;
  message: string;
}

/** Judges the move from `base` to `head` (base null: no base document) given the breaking count. */
export function judgeVersion(base: string | null, head: string, breaking: number): VersionVerdict {
  if (base === null) {
    return {
      ok: true,
      changed: true,
      message: `No base document: everything is new (info.version ${head}); no bump rule applies.`,
    };
  }
  const changed = base !== head;
  const move = changed ? `info.version changed: ${base} → ${head}.` : `info.version unchanged (${base}).`;
  if (breaking === 0)
    return { ok: true, changed, message: `${move} No breaking change, so no major bump is required.` };
  if (!semver.valid(base) || !semver.valid(head)) {
    return {
      ok: false,
      changed,
      message:
        `${move} Breaking changes require a major bump, and ${base} → ` + `${head} is not a pair of semantic versions.`,
    };
  }
  return semver.major(head) > semver.major(base)
    ? { ok: true, changed, message: `${move} Breaking changes come with a major bump: ${base} → ${head}.` }
    : { ok: false, changed, message: `${move} Breaking changes require a major bump: ${base} → ${head} is not one.` };
}

/** The result of comparing the working-tree document with the one at a git ref. */
export interface SpecDiff {
  repo: string;
  specPath: string;
  baseRef: string;
  baseVersion: string | null;
  headVersion: string;
  changes: Change[];
  verdict: VersionVerdict;
}

const versionOf = (doc: OpenApiDocument): string => String(doc.info?.version ?? "(none)");

/** Compares `openapi/openapi.yaml` at `baseRef` with the working tree of the repository at `dir`. */
export function diffSpec(dir: string, baseRef: string): SpecDiff {
  const { repo, base, head } = loadDocuments(dir, baseRef);
  const changes = classifyChanges(base, head, {
    base: `${baseRef}:${SPEC_IN_REPO}`,
    head: `${SPEC_IN_REPO} (working tree)`,
  });
  const baseVersion = base ? versionOf(base) : null;
  const headVersion = versionOf(head);
  const breaking = changes.filter((c) => c.cls === "breaking").length;
  return {
    repo,
    specPath: SPEC_IN_REPO,
    baseRef,
    baseVersion,
    headVersion,
    changes,
    verdict: judgeVersion(baseVersion, headVersion, breaking),
  };
}
