/** Every registered check passes on good exchanges and reports exactly what is wrong on broken ones. */
import { describe, expect, it } from "vitest";
import { CHECKS, runChecks } from "../checks/index.js";
import { CASES } from "../fixtures/cases.js";
import { model, schemaOk, sitemapOk } from "../fixtures/exchanges.js";
import type { CheckContext } from "../types.js";

// Fixtures are judged as a live target's answers (relational checks run); the mock rule has its own test.
const base: CheckContext = { intent: "acceptance", strict: false, live: true, model };

describe("the check registry", () => {
  it("has good and broken fixtures for every registered check, and no fixtures for unknown checks", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(CHECKS).sort());
    for (const [id, { good, broken }] of Object.entries(CASES)) {
      expect(good.length, id).toBeGreaterThan(0);
      expect(broken.length, id).toBeGreaterThan(0);
    }
  });

  it("stamps each finding with the id it is registered under, and refuses an unknown id", () => {
    const found = runChecks(["sitemap_link_count"], sitemapOk((b) => (b.link_count = 9)), base);
    expect(found.map((f) => f.check)).toEqual(["sitemap_link_count"]);
    expect(() => runChecks(["no_such_check"], sitemapOk(), base)).toThrow(/unknown check no_such_check/);
  });

  it("runs a relational check on the static mock only for a documented example pair", () => {
    const broken = schemaOk((b) => (b.id = "dsc_other"));
    expect(runChecks(["schema_update_echo"], broken, { ...base, live: false })).toEqual([]);
    expect(runChecks(["schema_update_echo"], { ...broken, pairedExample: "productSchema" }, { ...base, live: false })).toHaveLength(1);
    expect(runChecks(["sitemap_link_count"], sitemapOk((b) => (b.link_count = 9)), { ...base, live: false }), "a check of the response alone runs on the mock").toHaveLength(1);
  });
});

for (const id of Object.keys(CASES)) {
  describe(id, () => {
    it.each(CASES[id]!.good.map((c) => [c.name, c] as const))("passes on %s", (_name, c) => {
      expect(runChecks([id], c.exchange, { ...base, ...c.ctx })).toEqual([]);
    });
    it.each(CASES[id]!.broken.map((c) => [c.name, c] as const))("reports a finding on %s", (_name, c) => {
      const found = runChecks([id], c.exchange, { ...base, ...c.ctx });
      const hit = found.find((v) => c.expect!.title.test(v.title));
      expect(hit, `no finding titled ${c.expect!.title} among ${JSON.stringify(found.map((v) => v.title))}`).toBeDefined();
      expect(hit!.check).toBe(id);
      expect(hit!.severity).toBe(c.expect!.severity);
      expect(hit!.operation).toBe(c.exchange.operation);
      expect(hit!.curl).toMatch(/^curl -X (GET|POST|PUT) '/);
      if (c.expect!.instancePath !== undefined) expect(hit!.instancePath).toBe(c.expect!.instancePath);
      if (c.expect!.schemaPath) expect(hit!.schemaPath).toMatch(c.expect!.schemaPath);
    });
  });
}
