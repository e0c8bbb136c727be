/**
 * A mock run plans for the mock (engine/mock-plan.ts): the negative phase sends one invalid request per kind of rule
 * and place, the edges phase one per class of edge value and place, where a live target gets every one; the report
 * says which phases ran lighter and why. Against the recording server, run once as the mock and once as a live target.
 */
import { describe, expect, it } from "vitest";
import { edgeKind, lighterOnMock, oncePerKind } from "../../engine/mock-plan.js";
import { formatMarkdown, formatText } from "../../report/render.js";
import { buildReport } from "../../report/render.js";
import { info, ok, recordingServer } from "../support/recording-server.js";

const { run } = recordingServer();

const bounded = { type: "integer", maximum: 10 };
const unbounded = { type: "string" };
const doc = {
  openapi: "3.0.3",
  info,
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [
          ...["a", "b", "c"].map((name) => ({ name, in: "query", schema: bounded })),
          ...["d", "e"].map((name) => ({ name, in: "query", schema: unbounded })),
        ],
        responses: ok(),
      },
    },
  },
};

const sentBy = (results: Awaited<ReturnType<typeof run>>, phase: string) =>
  results.find((r) => r.id === `listThings/${phase}`)?.sent ?? 0;

describe("a run against the mock", () => {
  it("sends each kind of invalid value and each class of edge once per place; live gets every one", async () => {
    const mock = await run("mock-plan", doc, true);
    const live = await run("mock-plan", doc, false);
    // Three integer parameters, each sent three invalid values (a string and a fraction break type, 11 maximum): two
    // kinds in one place on the mock, nine requests live.
    expect(sentBy(mock, "negative")).toBe(2);
    expect(sentBy(live, "negative")).toBe(9);
    // Two unbounded strings grown long (one class, one place) on the mock; both live.
    expect(sentBy(mock, "edges")).toBeLessThan(sentBy(live, "edges"));
    // The same findings either way: the mock's fewer requests lose no kind of failure.
    const kinds = (rs: typeof mock) =>
      [...new Set(rs.filter((r) => r.phase === "negative").flatMap((r) => r.findings.map((f) => f.check)))].sort();
    expect(kinds(mock)).toEqual(kinds(live));
  });
});

describe("the mock plan's rules", () => {
  it("keeps the first case of each kind, demand and ambiguity, in order", () => {
    const c = (kind: string, demand = "error", ambiguous = false) => ({ kind, demand, ambiguous });
    const cases = [c("query: type"), c("query: type"), c("query: type", "warning"), c("body: type"), c("query: type")];
    expect(oncePerKind(cases)).toEqual([cases[0], cases[2], cases[3]]);
  });

  it("names an edge by its place and its class of value, numbers and quoted text left out", () => {
    expect(edgeKind("query parameter per_page: the int32 maximum, 2147483647")).toBe("query: the int# maximum, #");
    expect(edgeKind("query parameter page: the int32 maximum, 2147483647")).toBe("query: the int# maximum, #");
    expect(edgeKind("body member name: a string of 10000 characters")).toBe("body: a string of # characters");
    expect(edgeKind('header parameter x: text outside ASCII, "h\\"é"')).toBe("header: text outside ASCII, #");
    expect(edgeKind("path parameter id: the 64-bit edge 9223372036854775807")).not.toBe(
      edgeKind("query parameter id: the 64-bit edge 9223372036854775807"),
    );
  });

  it("says in the reports which phases ran lighter on the mock and why; nothing on a live target", () => {
    expect(lighterOnMock({ kind: "live", examples: 4 })).toEqual([]);
    const lines = lighterOnMock({ kind: "mock", examples: 2 });
    expect(lines.map((l) => l.split(":")[0])).toEqual(["positive", "negative", "edges"]);
    const report = buildReport(
      { kind: "mock", baseUrl: "http://127.0.0.1:1", strict: false, spec: "doc.json", lighter: lines },
      [],
      [],
      { entries: [] },
      0,
    );
    expect(formatText(report)).toContain(`Lighter on the mock: ${lines[1]}`);
    expect(formatMarkdown(report)).toContain("Lighter on the mock: negative: one invalid request per kind");
  });
});
