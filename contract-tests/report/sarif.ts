/**
 * The run's findings as SARIF 2.1.0 (contract-report.sarif), for GitHub code scanning and other SARIF viewers: one
 * rule per check with its help text, one result per finding, located at the promise it holds the server to (the
 * document's file, at the line where the promise's JSON pointer is written). Types: `@types/sarif`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Log, ReportingDescriptor, Result } from "sarif";
import { findingKeys } from "./baseline.js";
import { DocumentLines, promisePointer } from "./document-lines.js";
import type { ReportedFinding, RunReport } from "./render.js";

/** Where the checks are described at length. */
const HELP_URI = "https://github.com/webauto-api/webauto-api/blob/main/docs/contract-suite.md#checks";

/** What each generic check holds the server to, in a sentence (the checks table of docs/contract-suite.md). */
const CHECK_HELP: Readonly<Record<string, string>> = {
  not_a_server_error:
    "An HTTP answer within the deadline; no 500 whatever the document lists, no other 5xx unless the " +
    "operation lists it.",
  server_stopped_answering:
    "The server keeps answering: a request without an answer, and no answer to the probe after it.",
  response_readable: "A response that began is read whole as its headers describe it (encoding, length, UTF-8).",
  status_code_conformance: "The status is one the operation documents (an undocumented 4xx is a warning).",
  content_type_conformance: "The media type is one the response documents; a JSON body parses.",
  body_size_limit: "A body the suite can read whole and parse.",
  response_schema_conformance: "The body is valid against the schema of the documented media type received.",
  response_headers_conformance:
    "Each documented response header is present when required and valid against its schema.",
  undocumented_properties: "No members the response schema does not list (an error under strict).",
  response_envelope: 'No {"data": ...} wrapper around a body the document shows bare (an error under strict).',
  write_only_exposed: "A member marked writeOnly (a password) never comes back with a value.",
  positive_data_acceptance: "Valid input is not refused with a 4xx.",
  negative_data_rejection: "Input the document rules out (a wrong type, a missing member, a bound crossed) gets a 4xx.",
  ignored_auth:
    "A missing, empty or wrong credential gets a refusal: the documented one (401, 403) where the document names it.",
  unknown_resource: "A well-formed identifier that does not exist gets a 4xx (the documented 404 where there is one).",
  resource_availability: "A link-fed request finds its resource; a resource just created reads back as created.",
  update_persisted: "Members a successful update echoed read back as sent.",
  use_after_free: "After a successful delete, a read, update or delete of what it removed answers a 4xx.",
  listed_after_create: "A resource just created is in its collection's listing.",
  foreign_write: "Another account's update or delete of a resource is refused and changes nothing.",
  revoked_credential: "The credential of a deleted account is refused.",
  forged_credential: "A forged token (signature altered, alg none) is refused.",
  misdirected_write: "An update addressed to another account's resource does not change the caller's own.",
  lost_write: "A write that was answered with success is not lost.",
  account_isolation: "A second account never sees the first account's identifiers.",
  server_owned_member: "A member the server owns (readOnly) does not take the value a client sent.",
  unsupported_method: "A method the path does not list is answered 405 with Allow (RFC 9110; warnings only).",
  hostile_input: "A hostile string written into a member reads back exactly as written (not evaluated or re-escaped).",
};

/** SARIF's level of a finding's severity: error -> error, warning -> warning, anything else -> note. */
export function sarifLevel(severity: string): Result.level {
  return severity === "error" ? "error" : severity === "warning" ? "warning" : "note";
}

/** The document as a SARIF artifact location: relative to the working directory when inside it (a repository). */
function artifactOf(spec: string, cwd: string): { uri: string; uriBaseId?: string } {
  const full = resolve(cwd, spec);
  const rel = relative(cwd, full);
  if (rel && !rel.startsWith("..") && !isAbsolute(rel))
    return { uri: rel.split(sep).join("/"), uriBaseId: "%SRCROOT%" };
  return { uri: pathToFileURL(full).href };
}

/** The document's text, or undefined when it cannot be read (a merged report whose document moved). */
function documentLines(path: string): DocumentLines | undefined {
  try {
    return new DocumentLines(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** A finding's message: its title, what came and what the document says, and its input. */
function messageOf(f: ReportedFinding): string {
  const lines = [
    `${f.operation}: ${f.title}`,
    `Received: ${f.received}`,
    `Documented: ${f.documented}`,
    ...(f.promise ? [`Promise: ${f.promise}`] : []),
    ...(f.cause ? [`Input: ${f.cause}`] : []),
    ...((f.count ?? 1) > 1 ? [`Occurrences: ${f.count}`] : []),
    `Reproduce: ${f.curl}`,
  ];
  return lines.join("\n");
}

/** The report's findings (and those the baseline accepts, as suppressed results) as a SARIF log. */
export function formatSarif(report: RunReport, cwd = process.cwd()): Log {
  const artifact = artifactOf(report.target.spec, cwd);
  const lines = documentLines(resolve(cwd, report.target.spec));
  const all: Array<{ f: ReportedFinding; accepted?: { reason: string; expires: string } }> = [
    ...report.findings.map((f) => ({ f })),
    ...report.accepted.map((f) => ({ f, accepted: { reason: f.reason, expires: f.expires } })),
  ];
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const ruleOf = (f: ReportedFinding): number => {
    let index = ruleIndex.get(f.check);
    if (index === undefined) {
      const help = CHECK_HELP[f.check] ?? (f.promise && !f.promise.startsWith("#") ? f.promise : f.title);
      index = rules.length;
      ruleIndex.set(f.check, index);
      rules.push({
        id: f.check,
        name: f.check.replace(/(^|_)([a-z])/g, (_m, _u: string, c: string) => c.toUpperCase()),
        shortDescription: { text: help },
        fullDescription: { text: help },
        help: { text: `${help} See ${HELP_URI}.`, markdown: `${help} See [the checks](${HELP_URI}).` },
        helpUri: HELP_URI,
        defaultConfiguration: { level: f.severity === "error" ? "error" : "warning" },
      });
    }
    return index;
  };
  const results: Result[] = all.map(({ f, accepted }) => {
    const pointer = promisePointer(f.promise);
    const place = pointer !== undefined ? lines?.placeOf(pointer) : undefined;
    const index = ruleOf(f);
    return {
      ruleId: f.check,
      ruleIndex: index,
      level: sarifLevel(f.severity),
      message: { text: messageOf(f) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: artifact,
            region: place ? { startLine: place.line, startColumn: place.column } : { startLine: 1 },
          },
          logicalLocations: [
            {
              name: f.operation,
              kind: "function",
              ...(pointer !== undefined ? { fullyQualifiedName: `#${pointer}` } : {}),
            },
          ],
        },
      ],
      // The baseline's key: the same failure keeps its fingerprint from run to run.
      partialFingerprints: {
        "contractFinding/v1": createHash("sha256")
          .update(findingKeys(f)[0] ?? "")
          .digest("hex")
          .slice(0, 32),
      },
      ...((f.count ?? 1) > 1 ? { occurrenceCount: f.count } : {}),
      ...(accepted
        ? {
            suppressions: [
              {
                kind: "external" as const,
                status: "accepted" as const,
                justification: `${accepted.reason} (baseline, until ${accepted.expires})`,
              },
            ],
          }
        : {}),
      properties: {
        operation: f.operation,
        ...(f.promise ? { promise: f.promise } : {}),
        ...(f.cause ? { cause: f.cause } : {}),
        ...(f.rule ? { rule: f.rule } : {}),
        ...(f.signature ? { signature: f.signature } : {}),
        curl: f.curl,
      },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "webauto-contract",
            fullName: "webauto-api contract suite",
            version: "1.0.0",
            informationUri: "https://github.com/webauto-api/webauto-api#contract-suite",
            rules,
          },
        },
        ...(artifact.uriBaseId
          ? { originalUriBaseIds: { "%SRCROOT%": { uri: pathToFileURL(`${cwd}${sep}`).href } } }
          : {}),
        artifacts: [{ location: artifact, roles: ["analysisTarget"] }],
        invocations: [{ executionSuccessful: report.internalErrors.length === 0 }],
        results,
      },
    ],
  };
}
