/**
 * One finding per cause (issues 28 and 33): a finding is known by its check, kind (rule), the answer's signature
 * (status, media type, the server's words masked) and, for a conformance finding, its place; the input is not part
 * of it: inputs that get the same answer are occurrences of one finding, listed, the shortest example kept. Only an
 * answer that tells nothing (an empty body, a default error page) lets the operation and the parameter or member
 * that carried the value split findings. One response is one finding (the other checks' verdicts noted under it).
 * Reports open with the causes; Received shows the server's words; baselines match by rule and cause, and older
 * entries still match.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startServer, type TestServer } from "../../src/test/support/server.js";
import { runContract } from "../cli/contract-run.js";
import { readSettings } from "../config/settings.js";
import { exchange, model } from "../fixtures/exchanges.js";
import { FAULT_SERVER_KEY, startFaultServer } from "../fault-server/server.js";
import {
  causeOf,
  distinct,
  inputsText,
  masked,
  oneFindingPerResponse,
  serverWords,
  signatureOf,
  tellsCause,
} from "../model/finding-identity.js";
import type { CheckContext, Exchange, Finding, ScenarioResult } from "../model/types.js";
import { ALL_CHECKS } from "../modules/index.js";
import { loadBaseline, updatedBaseline, type BaselineEntry } from "../report/baseline.js";
import { buildReport, formatMarkdown, formatText } from "../report/render.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const base: CheckContext = { intent: "acceptance", strict: false, live: true, model };
const target = { kind: "live", baseUrl: "http://x", strict: false, spec: "openapi.yaml" };
const ops = [{ operationId: "createSitemapRequest", method: "POST", path: "/v1/site/map" }];

/** A sitemap request sending `sent`, answered `status` with the JSON (or text) `body`. */
const answered = (status: number, body: unknown, sent: unknown = { url: "https://example.com" }): Exchange =>
  exchange("createSitemapRequest", {
    status,
    sent,
    ...(typeof body === "string" ? { bodyText: body, contentType: "text/plain" } : { body }),
  });
/** The findings of `check` on an exchange sent with `cause`, as the registry stamps them. */
const judged = (ex: Exchange, cause?: string, check = "not_a_server_error", ctx: Partial<CheckContext> = {}) =>
  ALL_CHECKS.run([check], ex, { ...base, ...ctx, ...(cause ? { cause } : {}) });
const result = (id: string, findings: Finding[], accepted: Finding[] = []): ScenarioResult => ({
  id,
  operation: "createSitemapRequest",
  phase: "positive",
  title: `${id} title`,
  status: findings.some((f) => f.severity === "error") ? "failed" : "passed",
  findings,
  accepted,
  exchanges: 1,
});
const report = (results: ScenarioResult[], entries: BaselineEntry[] = []) =>
  buildReport(target, ops, results, { entries, path: "contract-baseline.json" }, 1, new Date("2026-11-22"));

/** Three causes of a 500 on one operation (the issue's demo): each its own input and the server's own words. */
const THREE = [
  {
    cause: "body member url: an integer where a string is expected",
    sent: { url: 5 },
    said: 'can only concatenate str (not "int") to str',
  },
  {
    cause: "body member url: text outside ASCII",
    sent: { url: "https://例え.jp/ü" },
    said: "'ascii' codec can't encode character '\\u4f8b' in position 8: ordinal not in range(128)",
  },
  { cause: "a body that is 5", sent: 5, said: "'int' object is not subscriptable" },
];
const threeFindings = () => THREE.flatMap((c) => judged(answered(500, { message: c.said }, c.sent), c.cause));

afterAll(cleanUp);

describe("the server's words and the answer's signature", () => {
  it("masks numbers, ids, uuids, dates, tokens and quoted values, but keeps quoted names", () => {
    expect(masked("User 5 not found")).toBe(masked("User 7 not found"));
    expect(masked("'username' is a required property")).not.toBe(masked("'email' is a required property"));
    expect(masked("request brq_01HX9ABCDEF (3f2a9c1e-1234-4abc-9def-0123456789ab) expired 2026-05-01T12:00:00Z")).toBe(
      "request <id> (<uuid>) expired <time>",
    );
    expect(masked("token eyJhbGciOiJIUzI1NiJ9abc123 is invalid; hash deadbeef12")).toBe(
      "token <token> is invalid; hash <hex>",
    );
    // A quoted value the request sent is a value, not a name; a quoted word that can't be a name is a value too.
    expect(masked("Invalid value 'foo' for 'name'", new Set(["foo"]))).toBe("Invalid value '<value>' for 'name'");
    expect(masked("can't encode character '\\xe9' in position 14")).toBe(
      "can't encode character '<value>' in position N",
    );
    // The cause keeps its parameter and value class; only the concrete value is masked.
    expect(masked("query parameter page: the 64-bit edge 9223372036854775808")).toBe(
      "query parameter page: the N-bit edge N",
    );
    expect(masked("query parameter per_page: the 64-bit edge 9223372036854775807")).not.toBe(
      masked("query parameter page: the 64-bit edge 9223372036854775807"),
    );
  });

  it("reads the message member of common error shapes, else the body's first bytes", () => {
    const words = (body: unknown) => serverWords(answered(400, body));
    expect(words({ message: "'username' is a required property" })).toBe("'username' is a required property");
    expect(words({ error: { code: 7, message: "User 5 not found" } })).toBe("User 5 not found");
    expect(words({ type: "about:blank", title: "Bad Request", detail: "page must be >= 1" })).toBe("page must be >= 1");
    expect(words({ error: "invalid_request", error_description: "url is missing" })).toBe("url is missing");
    expect(words({ detail: [{ loc: ["body", "url"], msg: "field required" }] })).toBe("body.url: field required");
    expect(words({ errors: [{ message: "is not a URL", field: "url" }] })).toBe("url: is not a URL");
    expect(words({ message: "Input payload validation failed", errors: { url: "'url' is a required property" } })).toBe(
      "Input payload validation failed: url: 'url' is a required property",
    );
    expect(words({ url: ["This field is required."] })).toBe('{"url":["This field is required."]}');
    expect(words('Traceback (most recent call last):\n  File "app.py"')).toBe(
      'Traceback (most recent call last): File "app.py"',
    );
    expect(words("")).toBe("(empty body)");
    expect(words(`${"x".repeat(500)}`)).toBe(`${"x".repeat(200)}…`);
    expect(serverWords(answered(200, { message: "fine" })), "a 2xx has no words to show").toBeUndefined();
  });

  it("signs an answer by status, media type essence and the masked words (for a 4xx or 5xx only)", () => {
    const json = (status: number, body: unknown) => signatureOf(answered(status, body));
    expect(json(500, { message: "User 5 not found" })).toBe("500 application/json: User N not found");
    expect(json(500, { message: "User 5 not found" })).toBe(json(500, { message: "User 7 not found" }));
    expect(json(500, { message: "User 5 not found" })).not.toBe(json(502, { message: "User 5 not found" }));
    const withCharset = answered(500, { message: "x" });
    withCharset.response.contentType = "Application/JSON; charset=UTF-8";
    expect(signatureOf(withCharset)).toBe("500 application/json: x");
    expect(signatureOf(answered(200, { id: 1 }))).toBe("200 application/json");
  });
});

describe("one finding per distinct failure", () => {
  it("three 500s of one operation with three causes are three findings, each with its own example", () => {
    const found = distinct(threeFindings());
    expect(found).toHaveLength(3);
    expect(found.map((f) => f.cause)).toEqual(THREE.map((c) => c.cause));
    expect(found.map((f) => f.count)).toEqual([1, 1, 1]);
    // Each keeps its own request and the server's own words.
    expect(found.map((f) => f.curl)).toEqual(
      THREE.map((c) => expect.stringContaining(`-d '${JSON.stringify(c.sent)}'`)),
    );
    expect(found.map((f) => f.received)).toEqual(THREE.map((c) => `status 500 (${c.said})`));
    const text = formatText(report([result("a", found)]));
    expect(text).toContain("https://例え.jp/ü");
    expect(text).toContain("Cause:         body member url: text outside ASCII");
    expect(text.match(/✗ \[error\] not_a_server_error: Server error/g)).toHaveLength(3);
  });

  it("stamps the engine's cause on every finding of the exchange, else the rejection's mutation", () => {
    const ex = answered(200, { id: 1 }, { url: 5 });
    const rejection = { intent: "rejection", mutation: "body member url: not a string" } as const;
    expect(judged(ex, undefined, "negative_data_rejection", rejection).map((f) => f.cause)).toEqual([
      "body member url: not a string",
    ]);
    expect(judged(ex, "body member url: an integer", "negative_data_rejection", rejection)[0]!.cause).toBe(
      "body member url: an integer",
    );
    expect(judged(answered(500, {}))[0]!.cause).toBeUndefined();
  });

  it("two answers with the same cause and masked-equal words are one finding counted twice", () => {
    const cause = "path parameter id: an unknown id";
    const found = distinct([
      ...judged(answered(500, { message: "User 5 not found" }), cause),
      ...judged(answered(500, { message: "User 7 not found" }), cause),
      ...judged(answered(500, { message: "'email' is a required property" }), cause),
    ]);
    expect(found.map((f) => [f.received, f.count])).toEqual([
      ["status 500 (User 5 not found)", 2],
      ["status 500 ('email' is a required property)", 1],
    ]);
  });

  it("the same cause on the same operation is one finding across scenarios, listing each scenario", () => {
    const [one, two, three] = THREE.map((c) => distinct(judged(answered(500, { message: c.said }, c.sent), c.cause)));
    const run = report([result("a", [...one!, ...two!]), result("b", [...one!, ...three!])]);
    expect(run.findings).toHaveLength(3);
    expect(run.findings.map((f) => [f.cause, f.count, f.tests])).toEqual([
      [THREE[0]!.cause, 2, ["a title", "b title"]],
      [THREE[1]!.cause, 1, ["a title"]],
      [THREE[2]!.cause, 1, ["b title"]],
    ]);
    expect(run.summary).toMatchObject({ errors: 3, occurrences: 4 });
  });

  it("keeps schema findings at two places apart, and folds array indices into one place", () => {
    const at = (instancePath: string): Finding => ({
      check: "response_schema_conformance",
      severity: "error",
      operation: "createSitemapRequest",
      title: "Response violates schema: must be string",
      received: "5",
      documented: "type string",
      instancePath,
      curl: "curl",
      signature: "200 application/json",
    });
    expect(
      distinct([at("/links/0/url"), at("/links/3/url"), at("/url")]).map((f) => [f.instancePath, f.count]),
    ).toEqual([
      ["/links/0/url", 2],
      ["/url", 1],
    ]);
  });

  it("a 400 for valid input shows the server's explanation before the request body; the JSON keeps both", () => {
    const [f] = judged(
      answered(400, { message: "'username' is a required property" }, {}),
      undefined,
      "positive_data_acceptance",
    );
    expect(f!.received).toBe(`status 400 ('username' is a required property) for "{}"`);
    expect(f!.answer).toBe(JSON.stringify({ message: "'username' is a required property" }));
    expect(f!.replay!.bodyText).toBe("{}");
    // Control characters from the server are shown escaped in the text report, never written raw.
    const [hostile] = judged(answered(500, { message: "boom\u001b[2J\u0007" }));
    expect(hostile!.received).toBe("status 500 (boom\u001b[2J\u0007)");
    const text = formatText(report([result("a", [hostile!])]));
    expect(text).toContain("Received:      status 500 (boom\\x1B[2J\\x07)");
    expect(text).not.toContain("\u001b");
  });

  it("bounds the answer a finding carries to its first 8 KiB", () => {
    const [f] = judged(answered(500, "e".repeat(20_000)));
    expect(f!.answer).toBe(`${"e".repeat(8192)}… (11808 more chars)`);
    expect(f!.received).toBe(`status 500 (${"e".repeat(200)}…)`);
  });
});

describe("the answer decides the cause (issue 33)", () => {
  const HOSTILE = ["a single quote", "template markers", "a NUL character", "text outside ASCII", "SQL syntax"];
  /** The same 500 in the server's words for each hostile class, sent in body member url (longer and longer). */
  const sameAnswer = () =>
    HOSTILE.flatMap((what, i) =>
      judged(
        answered(500, { message: `sqlite3.OperationalError: near "${i}": syntax error` }, { url: "x".repeat(30 - i) }),
        `body member url: ${what}`,
      ),
    );

  it("inputs that get the same answer are one finding, listing them, the shortest request its example", () => {
    const [one, ...rest] = distinct(sameAnswer());
    expect(rest).toEqual([]);
    expect(one!.count).toBe(5);
    expect(one!.inputs).toEqual(HOSTILE.map((h) => `body member url: ${h}`));
    expect(inputsText(one!)).toBe("body member url: a single quote, template markers, a NUL character and 2 more");
    // The shortest reproducer: the last input sent the shortest body.
    expect(one!.curl).toContain(`"${"x".repeat(26)}"`);
    expect(one!.cause).toBe("body member url: SQL syntax");
    const text = formatText(report([result("a", [one!])]));
    expect(text).toContain("Inputs:        5: body member url: a single quote, template markers, a NUL character");
  });

  it("the same answer on two operations is one finding listing both; an empty one is a finding per operation", () => {
    const on = (operation: string, body: unknown, cause: string): Finding[] =>
      judged(answered(500, body), cause).map((f) => ({ ...f, operation }));
    const words = { message: "ValueError: A string literal cannot contain NUL (0x00) characters." };
    const run = report([
      result("a", [...on("createSitemapRequest", words, "body member url: a NUL character")]),
      result("b", [...on("updateDataSchema", words, "body member name: a NUL character")]),
      result("c", [...on("createSitemapRequest", "", "body member url: a NUL character")]),
      result("d", [...on("updateDataSchema", "", "body member name: a NUL character")]),
    ]);
    expect(run.findings.map((f) => [f.operation, f.operations, f.count])).toEqual([
      ["createSitemapRequest", ["createSitemapRequest", "updateDataSchema"], 2],
      ["createSitemapRequest", ["createSitemapRequest"], 1],
      ["updateDataSchema", ["updateDataSchema"], 1],
    ]);
  });

  it("an answer that tells nothing lets the parameter or member carrying the value split findings", () => {
    const empty = (cause: string) => judged(answered(500, ""), cause);
    const html = "<html><title>500 Internal Server Error</title><center>nginx</center></html>";
    const page = (cause: string) =>
      judged(exchange("createSitemapRequest", { status: 500, bodyText: html, contentType: "text/html" }), cause);
    for (const send of [empty, page]) {
      const found = distinct([
        ...send("body member url: a single quote"),
        ...send("body member url: a NUL character"),
        ...send("body member max_cache_age: null"),
      ]);
      expect(found.map((f) => [f.inputs, f.count])).toEqual([
        [["body member url: a single quote", "body member url: a NUL character"], 2],
        [["body member max_cache_age: null"], 1],
      ]);
    }
    expect(tellsCause("500 text/html: 500 Internal Server Error nginx")).toBe(false);
    expect(tellsCause("500 application/json: Internal Server Error")).toBe(false);
    expect(tellsCause("500 (no Content-Type)")).toBe(false);
    expect(tellsCause("500 application/json: no such table: message")).toBe(true);
    expect(tellsCause("500 text/plain: invalid literal for int() with base N: '<value>'")).toBe(true);
  });

  it("masks the literals of the server's words: the demo's invalid literal for int() is one finding", () => {
    const found = distinct(
      ["Y", "b", "G", "'"].flatMap((v, i) =>
        judged(
          // Python's repr: 'Y', and "'" for a quote.
          answered(500, `ValueError: invalid literal for int() with base 10: ${v === "'" ? `"'"` : `'${v}'`}`, {
            id: v,
          }),
          `path parameter id: class ${i}`,
        ),
      ),
    );
    expect(found.map((f) => f.count)).toEqual([4]);
  });

  it("one response is one finding: the server error, its status, media type and schema noted under it", () => {
    const ex = exchange("createSitemapRequest", { status: 500, bodyText: "oops", contentType: "text/html" });
    const found = oneFindingPerResponse(
      ALL_CHECKS.run(
        ["status_code_conformance", "content_type_conformance", "response_schema_conformance", "not_a_server_error"],
        ex,
        base,
      ),
    );
    expect(found.map((f) => f.check)).toEqual(["not_a_server_error"]);
    expect(found[0]!.also).toEqual([expect.stringMatching(/^status_code_conformance: Undocumented HTTP status code/)]);
    // A verdict that knows what the request meant (an unknown identifier not refused) is the finding.
    const of = (check: string, title: string): Finding => ({ ...found[0]!, check, title, also: [] });
    const read = oneFindingPerResponse([
      of("not_a_server_error", "Server error"),
      of("unknown_resource", "An identifier that does not exist was not refused"),
    ]);
    expect(read.map((f) => f.check)).toEqual(["unknown_resource"]);
    expect(read[0]!.also).toEqual(["not_a_server_error: Server error (status 500 (oops))"]);
    // Two verdicts of their own on one answer are two causes: invalid input accepted, and a write-only member it
    // shows (its schema break is the leak's, noted under it).
    const two = oneFindingPerResponse([
      of("negative_data_rejection", "Invalid input accepted"),
      of("write_only_exposed", 'Write-only member "cvc" in the response'),
      of("response_schema_conformance", "Response violates schema"),
    ]);
    expect(two.map((f) => f.check)).toEqual(["negative_data_rejection", "write_only_exposed"]);
    expect(two[1]!.also).toEqual([expect.stringMatching(/^response_schema_conformance: /)]);
    expect(two[0]!.also).toEqual([]);
  });

  it("a baseline entry keeps accepting: written for either operation, or in issue 28's form (input -> answer)", () => {
    const words = { message: "boom" };
    const findings = [
      ...judged(answered(500, words), "body member url: a NUL character"),
      ...judged(answered(500, words), "body member url: a single quote").map((f) => ({
        ...f,
        operation: "updateDataSchema",
      })),
    ];
    const entry = (operation: string, cause: string): BaselineEntry => ({
      check: "not_a_server_error",
      operation,
      rule: "server-error",
      cause,
      reason: "known",
      expires: "2999-01-01",
    });
    for (const e of [
      entry("updateDataSchema", "500 application/json: boom"),
      entry("createSitemapRequest", "body member url: a single quote -> 500 application/json: boom"),
    ]) {
      const run = report([result("a", [], findings)], [e]);
      expect(run.accepted).toHaveLength(1);
      expect(run.baseline.fixed).toEqual([]);
    }
    // ignored_auth's rule id is new: an entry of issue 28 named it by the title's slug.
    const ignored = ALL_CHECKS.run(["ignored_auth"], answered(200, { id: 1 }), {
      ...base,
      intent: "no-key",
      cause: "no credential",
    });
    const slugEntry: BaselineEntry = {
      check: "ignored_auth",
      operation: "createSitemapRequest",
      rule: "the-api-answered-a-request-without-an-api-key",
      cause: "no credential -> 200 application/json",
      reason: "known",
      expires: "2999-01-01",
    };
    expect(ignored.map((f) => f.rule)).toEqual(["credential-ignored"]);
    expect(report([result("a", [], ignored)], [slugEntry]).baseline.fixed).toEqual([]);
    expect(updatedBaseline({ entries: [] }, findings).entries).toEqual([
      expect.objectContaining({ operation: "createSitemapRequest", cause: "500 application/json: boom" }),
    ]);
  });
});

describe("the reports open with the causes", () => {
  it("text, markdown and JSON list the causes worst first, one line each, before the details", () => {
    const findings = [
      ...distinct(
        ["a single quote", "a NUL character"].flatMap((w) =>
          judged(answered(500, { message: "boom" }), `body member url: ${w}`),
        ),
      ),
      {
        check: "undocumented_properties",
        severity: "warning",
        operation: "createSitemapRequest",
        title: 'Undocumented property "x" in the response',
        received: "1",
        documented: "none",
        curl: "curl",
      } satisfies Finding,
    ];
    const run = report([result("a", findings)]);
    expect(Object.keys(run).slice(0, 3)).toEqual(["target", "verdict", "causes"]);
    expect(run.causes!.map((c) => [c.severity, c.check, c.occurrences, c.inputs])).toEqual([
      ["error", "not_a_server_error", 2, 2],
      ["warning", "undocumented_properties", 1, 0],
    ]);
    const text = formatText(run);
    const lines = text.split("\n");
    expect(lines[2]).toBe("Causes: 2 (1 error(s), 1 warning(s)), worst first:");
    expect(lines[3]).toBe(
      "  ✗ createSitemapRequest: Server error [not_a_server_error]: 500 application/json: boom; 2 inputs " +
        "(body member url: a single quote, a NUL character), 2 occurrences",
    );
    expect(text.indexOf("Causes:")).toBeLessThan(text.indexOf("== createSitemapRequest"));
    expect(lines.at(-1)).toMatch(
      /: 2 cause\(s\) \(1 error\(s\), 1 warning\(s\)\), 0 accepted by the baseline; 3 occurrences;/,
    );
    const md = formatMarkdown(run);
    expect(md.indexOf("### Causes: 2")).toBeGreaterThan(0);
    expect(md.indexOf("### Causes: 2")).toBeLessThan(md.indexOf("| errors (not in the baseline) |"));
  });
});

describe("the reports cap what they print per operation and check", () => {
  const twelve = () =>
    distinct(
      Array.from({ length: 12 }, (_, i) =>
        judged(answered(500, { message: `failure kind ${"abcdefghijkl"[i]}` }), `body member m${i}: text`),
      ).flat(),
    );

  it("prints the first 5 distinct failures of a check, then how many more; the JSON report has all of them", () => {
    const run = report([result("a", twelve())]);
    expect(run.findings).toHaveLength(12);
    const text = formatText(run);
    expect(text.match(/✗ \[error\] not_a_server_error/g)).toHaveLength(5);
    expect(text).toContain(
      "  … and 7 more distinct failures of not_a_server_error (7 error(s); all in contract-report.json)",
    );
    const md = formatMarkdown(run);
    expect(md.match(/^\| createSitemapRequest \| `not_a_server_error` \|/gm)).toHaveLength(5);
    expect(md).toContain(
      "- createSitemapRequest: and 7 more distinct failures of `not_a_server_error` (7 error(s); all in " +
        "contract-report.json)",
    );
  });
});

describe("the baseline matches by rule and cause", () => {
  const old = (over: Partial<BaselineEntry> = {}): BaselineEntry => ({
    check: "not_a_server_error",
    operation: "createSitemapRequest",
    place: "Server error",
    reason: "a known crash, fix under way",
    expires: "2999-01-01",
    ...over,
  });
  const gone = old({ check: "sitemap_link_count", place: "/link_count", reason: "fixed since" });

  it("still matches old-format entries as before, says once how to migrate, and reports a gone one as fixed", () => {
    const findings = distinct(threeFindings());
    const run = report([result("a", [], findings)], [old(), gone]);
    expect(run.verdict).toBe("pass");
    expect(run.accepted.map((f) => f.reason)).toEqual(Array(3).fill("a known crash, fix under way"));
    expect(run.baseline.fixed).toEqual([gone]);
    expect(run.baseline.oldFormat).toBe(2);
    const text = formatText(run);
    expect(text).toContain("✓ fixed: baseline entry createSitemapRequest sitemap_link_count at /link_count");
    expect(text.match(/in the old format/g)).toHaveLength(1);
    expect(text).toContain(
      "Baseline: The baseline contract-baseline.json has 2 entries in the old format (check, operation and place " +
        "only; still matched as before). To migrate, run with --update-baseline",
    );
    expect(formatMarkdown(run)).toContain("in the old format");
  });

  it("--update-baseline rewrites old entries as one new entry per distinct failure, keeping reason and expiry", () => {
    const findings = distinct(threeFindings());
    const next = updatedBaseline({ entries: [old(), gone] }, findings, new Date("2026-11-22"));
    expect(next.entries).toHaveLength(3);
    for (const e of next.entries)
      expect(e).toEqual({
        check: "not_a_server_error",
        operation: "createSitemapRequest",
        rule: "server-error",
        cause: expect.stringMatching(/^500 application\/json: /),
        reason: "a known crash, fix under way",
        expires: "2999-01-01",
      });
    expect(next.entries.map((e) => e.cause).sort()).toEqual(
      [
        "500 application/json: 'int' object is not subscriptable",
        '500 application/json: can only concatenate str (not "int") to str',
        "500 application/json: 'ascii' codec can't encode character '<value>' in position N: ordinal not in range(N)",
      ].sort(),
    );
    // The file it writes reads back, accepts what it was written from, and no longer says "old format".
    const path = join(tempDir("finding-identity-"), "baseline.json");
    writeFileSync(path, JSON.stringify(next));
    const again = report([result("a", [], findings)], loadBaseline(path).entries);
    expect(again).toMatchObject({ verdict: "pass", baseline: { fixed: [] } });
    expect(again.baseline.oldFormat).toBeUndefined();
    expect(formatText(again)).not.toContain("old format");
    // A new cause of the same rule is not accepted by them: it is a new failure.
    const other = judged(answered(500, { message: "division by zero" }), "query parameter page: zero");
    const accepted = new Set(next.entries.map((e) => e.cause));
    expect(accepted.has(causeOf(other[0]!))).toBe(false);
  });

  it("refuses a new-format entry without its cause, naming the entry", () => {
    const path = join(tempDir("finding-identity-"), "bad.json");
    writeFileSync(path, JSON.stringify({ entries: [{ ...old(), rule: "server-error" }] }));
    expect(() => loadBaseline(path)).toThrow(/entries\[0\]\.cause must be a string/);
  });
});

describe("a run against a server with two causes of one 500", () => {
  let server: TestServer;
  beforeAll(async () => {
    // Valid requests fail two ways, alternating, each message with its own noise (a request number, a duration).
    server = await startServer((req, res, n) => {
      if (req.method !== "POST") return sendJson(res, 404, { message: "no such path" });
      return n % 2
        ? sendJson(res, 500, { message: `the store timed out after ${1000 + n} ms` })
        : sendJson(res, 500, { error: { message: `user ${n} not found` } });
    });
  });
  afterAll(() => server?.close());

  it("reports each cause once, with its count, its own example and the server's words", async () => {
    const spec = join(tempDir("finding-identity-doc-"), "users.yaml");
    writeFileSync(
      spec,
      stringify({
        openapi: "3.1.0",
        info: { title: "Users", version: "1.0.0" },
        paths: {
          "/users": {
            post: {
              operationId: "createUser",
              requestBody: {
                required: true,
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      required: ["username"],
                      // No bounds: every request is a generated valid one (one cause); only the answers differ.
                      properties: { username: { type: "string" } },
                    },
                  },
                },
              },
              responses: { "201": { description: "Created" }, "400": { description: "Invalid" } },
            },
          },
        },
      }),
    );
    const baselinePath = join(tempDir("finding-identity-baseline-"), "baseline.json");
    writeFileSync(
      baselinePath,
      JSON.stringify({
        entries: [
          {
            check: "not_a_server_error",
            operation: "createUser",
            place: "Server error",
            reason: "r",
            expires: "2999-01-01",
          },
        ],
      }),
    );
    const settings = readSettings({
      CONTRACT_SPEC: spec,
      CONTRACT_BASE_URL: server.url,
      CONTRACT_API_KEY: "finding-identity-key",
      CONTRACT_EXAMPLES: "4",
      CONTRACT_PHASES: "positive",
      CONTRACT_BASELINE: baselinePath,
      CONTRACT_REPORTS_DIR: tempDir("finding-identity-reports-"),
    });
    const { results } = await runContract(settings);
    // The old-format entry accepts both (as before); what it accepts is two distinct failures, not one.
    const accepted = results.flatMap((r) => r.accepted).filter((f) => f.check === "not_a_server_error");
    expect(accepted.map((f) => f.received).sort()).toEqual([
      expect.stringMatching(/^status 500 \(the store timed out after \d+ ms\)$/),
      expect.stringMatching(/^status 500 \(user \d+ not found\)$/),
    ]);
    expect(accepted.reduce((n, f) => n + (f.count ?? 1), 0)).toBe(
      server.requests.filter((r) => r.method === "POST").length,
    );
    expect(accepted.every((f) => (f.count ?? 1) >= 1 && f.curl.includes("/users"))).toBe(true);
    const run = buildReport(target, [], results, { ...loadBaseline(baselinePath), path: baselinePath }, 1);
    expect(run.accepted).toHaveLength(2);
    expect(run.baseline.oldFormat).toBe(1);
  });
});

describe("the fault server's two answers to a 500 on one operation", () => {
  it("are two findings, each listing the inputs that got it, the shortest as its example", async () => {
    const server = await startFaultServer();
    try {
      // A null cache age gets its own message ("Nullable object must have a value."); invalid input gets "boom"
      // (a wrong type, a missing body, ...): one finding per answer, each input an occurrence.
      const { results } = await runContract(
        readSettings({
          CONTRACT_BASE_URL: server.baseUrl("null-cache-age-500", "server-error-on-bad-input"),
          CONTRACT_API_KEY: FAULT_SERVER_KEY,
          CONTRACT_PARAMS: JSON.stringify({ "updateDataSchema.id": "dsc_contractSuiteSelfTest1" }),
          CONTRACT_PHASES: "edges,negative",
          CONTRACT_OPERATIONS: "createSitemapRequest",
          CONTRACT_REPORTS_DIR: tempDir("finding-identity-run-"),
        }),
      );
      const crashes = buildReport(target, ops, results, { entries: [] }, 1).findings.filter(
        (f) => f.check === "not_a_server_error" && f.operation === "createSitemapRequest",
      );
      expect(crashes.map((f) => f.signature).sort()).toEqual([
        "500 application/json: Nullable object must have a value.",
        "500 application/json: boom",
      ]);
      const boom = crashes.find((f) => f.signature?.endsWith("boom"))!;
      expect(boom.inputs).toEqual(
        expect.arrayContaining(["url: integer where the schema allows string", "no body where one is required"]),
      );
      expect(boom.count).toBeGreaterThanOrEqual(boom.inputs!.length);
      // The example is the shortest request that got the answer.
      const curls = results.flatMap((r) => r.findings).filter((f) => f.signature === boom.signature);
      expect(boom.curl.length).toBe(Math.min(...curls.map((f) => f.curl.length)));
      const nullable = crashes.find((f) => f.signature?.includes("Nullable"))!;
      expect(nullable.inputs).toContain("body member max_cache_age: null (the schema is nullable)");
      expect(nullable.received).toContain("Nullable object must have a value.");
    } finally {
      await server.stop();
    }
  });
});
