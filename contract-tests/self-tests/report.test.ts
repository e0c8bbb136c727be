import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKS } from "../checks/index.js";
import { appendRecords, buildJsonReport, dedupe, formatReport, readRecords, resetRecords } from "../report.js";
import { listingOk, schemaOk, sitemapOk } from "../fixtures/exchanges.js";

const SECRET = "sk_live_do_not_print_0123456789";

describe("records of a run", () => {
  it("scrubs the key from records written to the reports dir", () => {
    const dir = mkdtempSync(join(tmpdir(), "records-"));
    resetRecords(dir);
    const v = CHECKS.sitemap_link_count(sitemapOk((b) => (b.link_count = 9)), { intent: "acceptance", strict: false })[0]!;
    appendRecords(dir, "t", [{ kind: "violation", test: `leaks ${SECRET}`, violation: { ...v, received: SECRET } }], SECRET);
    expect(JSON.stringify(readRecords(dir))).not.toContain(SECRET);
  });
});

describe("the text and JSON reports", () => {
  it("groups violations by operation with the check, curl, received, documented and paths", () => {
    const ctx = { intent: "acceptance" as const, strict: false };
    const v1 = CHECKS.response_schema_conformance(listingOk((b) => (b.data.results[0].id = "req_1")), ctx);
    const v2 = CHECKS.sitemap_link_count(sitemapOk((b) => (b.link_count = 9)), ctx);
    const report = buildJsonReport({ kind: "live", baseUrl: "http://x", strict: false }, [...v1, ...v2].map((violation) => ({ kind: "violation", test: "a test", violation })));
    const text = formatReport(report);
    expect(report.summary.failedChecks).toEqual(["response_schema_conformance", "sitemap_link_count"]);
    expect(text.indexOf("== createSitemapRequest")).toBeLessThan(text.indexOf("sitemap_link_count: link_count disagrees"));
    expect(text.indexOf("== listBrowserRequests")).toBeLessThan(text.indexOf("response_schema_conformance: Response violates schema"));
    for (const part of ["Request:       curl -X GET", "Received:      \"req_1\"", "Documented:    pattern", "Schema path:   #/components/schemas/BrowserRequestId/pattern", "Instance path: /data/results/0/id", "Test:          a test"])
      expect(text).toContain(part);
  });

  it("collapses the same finding at several array positions into one entry with a count", () => {
    const ex = listingOk((b) => b.data.results.forEach((r: any) => (r.extra = 1)));
    const found = CHECKS.undocumented_properties(ex, { intent: "acceptance", strict: false });
    expect(found).toHaveLength(3);
    expect(dedupe(found)).toEqual([expect.objectContaining({ count: 3 })]);
  });

  it("collapses one broken rule recurring at every depth of the field tree into one entry", () => {
    const ex = schemaOk((b, s) => {
      const copy = (got: any[], sent: any[]) => got.forEach((f, i) => ((f.type = sent[i].type), copy(f.fields, sent[i].fields)));
      copy(b.fields, s.fields);
    });
    const found = CHECKS.field_type_discrepancy(ex, { intent: "acceptance", strict: false });
    expect(found).toHaveLength(11);
    expect(dedupe(found).map((e) => e.count)).toEqual([11]);
  });
});
