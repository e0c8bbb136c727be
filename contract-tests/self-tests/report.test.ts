/** The report and the baseline, unit by unit: verdicts, merging, places, expiry, updates and malformed files. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ScenarioResult } from "../model/types.js";
import {
  accepts,
  BaselineError,
  loadBaseline,
  placeOf,
  updatedBaseline,
  type BaselineEntry,
} from "../report/baseline.js";
import { formatJUnit } from "../report/junit.js";
import { buildReport, formatMarkdown, formatText } from "../report/render.js";
import type { Finding } from "../model/types.js";
import { cleanUp, tempDir } from "./support/spawn.js";

afterAll(cleanUp);

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: "sitemap_link_count",
  severity: "error",
  operation: "createSitemapRequest",
  title: "link_count disagrees with links",
  received: "4",
  documented: "3",
  instancePath: "/link_count",
  curl: "curl -X POST 'http://x/v1/site/map'",
  ...over,
});
const result = (id: string, findings: Finding[], over: Partial<ScenarioResult> = {}): ScenarioResult => ({
  id,
  operation: "createSitemapRequest",
  phase: "examples",
  title: `${id} title`,
  status: findings.some((f) => f.severity === "error") ? "failed" : "passed",
  findings,
  accepted: [],
  exchanges: 1,
  ...over,
});
const entry = (over: Partial<BaselineEntry> = {}): BaselineEntry => ({
  check: "sitemap_link_count",
  operation: "createSitemapRequest",
  place: "/link_count",
  reason: "known",
  expires: "2999-01-01",
  ...over,
});
const target = { kind: "live", baseUrl: "http://x", strict: false, spec: "openapi.yaml" };
const ops = [{ operationId: "createSitemapRequest", method: "POST", path: "/v1/site/map" }];

describe("the promise of a finding", () => {
  it("is shown in every report format: text, JSON, JUnit and the markdown summary", () => {
    const promise = 'interface 2.2: "link_count: Number of links found"';
    const results = [result("a", [finding({ promise })])];
    const report = buildReport(target, ops, results, { entries: [] }, 1);
    expect(report.findings[0]!.promise).toBe(promise);
    expect(JSON.parse(JSON.stringify(report)).findings[0].promise).toBe(promise);
    expect(formatText(report)).toContain(`Promise:       ${promise}`);
    expect(formatJUnit(results)).toContain(`Promise:       ${promise}`);
    // Markdown escapes the cell like every other cell: read back unescaped, it is the promise.
    const markdown = formatMarkdown(report)
      .replace(/&quot;/g, '"')
      .replace(/\\(.)/g, "$1");
    expect(markdown).toMatch(/\| promise \|/);
    expect(markdown).toContain(`| ${promise} |`);
  });
});

describe("the verdict", () => {
  it("passes with warnings only and fails on an error finding", () => {
    expect(
      buildReport(target, ops, [result("a", [finding({ severity: "warning" })])], { entries: [] }, 1).verdict,
    ).toBe("pass");
    expect(buildReport(target, ops, [result("a", [finding()])], { entries: [] }, 1).verdict).toBe("fail");
  });

  it("passes when the only baseline entry no longer occurs, reporting it as fixed", () => {
    const report = buildReport(target, ops, [result("a", [])], { entries: [entry()] }, 1);
    expect(report.verdict).toBe("pass");
    expect(report.baseline.fixed).toEqual([entry()]);
    expect(formatText(report)).toMatch(
      /✓ fixed: baseline entry createSitemapRequest sitemap_link_count at \/link_count/,
    );
  });

  it("fails on an expired entry whose finding still occurs, and on a failed scenario without findings", () => {
    const expired = buildReport(
      target,
      ops,
      [result("a", [finding()])],
      { entries: [entry({ expires: "2020-01-01" })] },
      1,
      new Date("2026-01-01"),
    );
    expect(expired.baseline.expired).toHaveLength(1);
    expect(expired.verdict).toBe("fail");
    expect(
      buildReport(target, ops, [result("a", [], { status: "failed", error: "boom" })], { entries: [] }, 1).verdict,
    ).toBe("fail");
  });
});

describe("merging and rendering", () => {
  it("merges one rule broken in several scenarios and positions into one entry with its count and tests", () => {
    const report = buildReport(
      target,
      ops,
      [
        result("a", [finding({ instancePath: "/results/0/x", count: 2 })]),
        result("b", [finding({ instancePath: "/results/3/x" })]),
      ],
      { entries: [] },
      3,
    );
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({ count: 3, tests: ["a title", "b title"] });
    expect(report.summary).toMatchObject({ errors: 1, occurrences: 3, requests: 3 });
  });

  it("lists every operation of the document in the text report, with its method and path, findings or not", () => {
    expect(formatText(buildReport(target, ops, [], { entries: [] }, 0))).toContain(
      "== createSitemapRequest (POST /v1/site/map) ==\n  no findings",
    );
  });

  it("writes the markdown summary with errors, accepted findings and skips", () => {
    const accepted = result("a", [], { accepted: [finding()] });
    const skipped = result("s", [], { status: "skipped", skipReason: "skipped: needs a live target" });
    const md = formatMarkdown(
      buildReport(
        target,
        ops,
        [accepted, skipped, result("b", [finding({ check: "ignored_auth", title: "The API answered" })])],
        { entries: [entry()] },
        2,
      ),
    );
    expect(md).toMatch(/^## Contract suite: ❌ fail/);
    expect(md).toContain("| createSitemapRequest | `ignored_auth` | The API answered |");
    expect(md).toContain("### Accepted by the baseline");
    expect(md).toContain("skipped: needs a live target");
  });

  it("gives JUnit failures the findings and skips their reason", () => {
    const xml = formatJUnit([result("a", [finding()]), result("s", [], { status: "skipped", skipReason: "needs X" })]);
    expect(xml).toMatch(/<failure message="1 contract finding\(s\): sitemap_link_count"/);
    expect(xml).toMatch(/<property name="skip-reason" value="needs X"\/>/);
  });
});

describe("the baseline file", () => {
  it("places a finding by its instance path with indices folded, else by its title", () => {
    expect(placeOf({ instancePath: "/data/results/4/actions/0/query", title: "t" })).toBe(
      "/data/results/*/actions/*/query",
    );
    expect(placeOf({ instancePath: "/fields/1/fields/0/fields/2/type", title: "t" })).toBe("/fields/*/type");
    expect(placeOf({ title: "Undocumented status" })).toBe("Undocumented status");
    expect(accepts(entry(), finding({ instancePath: "/link_count" }))).toBe(true);
    expect(accepts(entry(), finding({ operation: "updateDataSchema" }))).toBe(false);
  });

  it(
    "keeps the reasons and expiries of existing entries, adds new errors " +
      "with a 90-day expiry, and drops what no longer occurs",
    () => {
      const now = new Date("2026-11-22T00:00:00Z");
      const next = updatedBaseline(
        { entries: [entry({ reason: "our reason" }), entry({ check: "gone" })] },
        [
          finding(),
          finding({ check: "ignored_auth", instancePath: undefined, title: "The API answered" }),
          finding({ check: "x", severity: "warning" }),
        ],
        now,
      );
      expect(next.entries).toHaveLength(2);
      expect(next.entries.find((e) => e.check === "sitemap_link_count")!.reason).toBe("our reason");
      // A new entry is of the new format: the rule (the title's slug) and the cause, no title as its place.
      expect(next.entries.find((e) => e.check === "ignored_auth")).toEqual({
        check: "ignored_auth",
        operation: "createSitemapRequest",
        rule: "the-api-answered",
        cause: "received N",
        reason: "accepted on 2026-11-22: The API answered (say why, and link the fix)",
        expires: "2027-02-20",
      });
    },
  );

  it("refuses a malformed file, naming the entry and the rule", () => {
    const dir = tempDir("contract-baseline-unit-");
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(loadBaseline(join(dir, "absent.json"))).toEqual({ entries: [] });
    expect(() => loadBaseline(write("a.json", "{"))).toThrow(BaselineError);
    expect(() => loadBaseline(write("b.json", "[]"))).toThrow(/must be an object with an "entries" array/);
    expect(() => loadBaseline(write("c.json", JSON.stringify({ entries: [{ ...entry(), expires: "soon" }] })))).toThrow(
      /entries\[0\]\.expires must be a date YYYY-MM-DD/,
    );
    expect(() => loadBaseline(write("d.json", JSON.stringify({ entries: [{ ...entry(), reason: 3 }] })))).toThrow(
      /entries\[0\]\.reason must be a string/,
    );
  });
});

describe("the security checks of each operation", () => {
  const two = [
    { operationId: "createBook", method: "POST", path: "/books" },
    { operationId: "updateBook", method: "PUT", path: "/books/{title}" },
  ];
  const ran = (phase: string, answered: Record<string, number[]>, operation = "createBook") =>
    result(`${operation}/${phase}`, [], { phase, operation, answered });
  const skipped = (phase: string, operation: string, skip: ScenarioResult["skip"], skipReason: string) =>
    result(`${operation}/${phase}`, [], { phase, operation, status: "skipped", exchanges: 0, skip, skipReason });

  it("says which ran (a resource phase on every operation it answered for) and why each other did not", () => {
    const results = [
      ran("auth", { createBook: [401] }),
      ran("auth", { updateBook: [401] }, "updateBook"),
      // The authorization phase's scenario is named after the create and answers for the update as well.
      ran("authorization", { createBook: [201], updateBook: [403] }),
      ran("hostile", { createBook: [201] }),
      skipped("hostile", "updateBook", { kind: "not-applicable", text: "no string to send" }, "skipped: no string"),
      skipped("isolation", "createBook", { kind: "needs", need: "live-target" }, "skipped: needs a live target"),
    ];
    const report = buildReport(target, two, results, { entries: [] }, 4);
    const [create, update] = report.security!;
    expect(create).toMatchObject({ operationId: "createBook", ran: ["auth", "hostile", "authorization"] });
    expect(update!.ran).toEqual(["auth", "authorization"]);
    const why = Object.fromEntries(update!.notRun.map((n) => [n.phase, n.reason]));
    expect(why.hostile).toBe("no string to send");
    // Every isolation scenario needed a live target: so did the one this operation never had.
    expect(why.isolation).toMatch(/^needs a live target/);
    expect(why["owned-members"]).toMatch(/^the run had no scenario of this phase/);
    expect(why.edges).toMatch(/^the run had no scenario of this phase/);
    // A reason every operation shares is said once, at the top; an operation's line names the phase only.
    const text = formatText(report);
    expect(text.match(/needs a live target \(the mock/g)).toHaveLength(1);
    expect(text).toContain("For the whole run:\n  security check isolation not run: needs a live target");
    expect(text).toContain(
      "  security checks: ran auth, authorization; not run: hostile (no string to send); isolation, edges, " +
        "owned-members (see above)",
    );
    for (const line of text.split("\n").filter((l) => l.includes("security checks:")))
      expect(line.length).toBeLessThan(200);
    expect(formatMarkdown(report)).toMatch(/\| updateBook \| auth, authorization \| isolation \(see above\)/);
  });

  it("gives a phase that planned nothing for an operation the phase's own reason, and none that ran nothing", () => {
    const results = [ran("owned-members", { createBook: [201] })];
    const update = buildReport(target, two, results, { entries: [] }, 1).security![1]!;
    expect(update.ran).toEqual([]);
    expect(update.notRun.find((n) => n.phase === "owned-members")?.reason).toMatch(/no create or update/);
    expect(formatText(buildReport(target, two, results, { entries: [] }, 1))).toContain(
      "security checks: ran none; not run:",
    );
    // On the mock, a phase that needs a live target had no scenario for that reason, and says so.
    const mock = buildReport({ ...target, kind: "mock" }, two, [], { entries: [] }, 0).security![0]!;
    expect(mock.notRun.find((n) => n.phase === "authorization")?.reason).toMatch(/^needs a live target/);
    expect(mock.notRun.find((n) => n.phase === "auth")?.reason).toMatch(/not selected by --phases\)$/);
  });
});
