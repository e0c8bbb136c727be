import { describe, expect, it } from "vitest";
import { CHECKS, type CheckId } from "../checks/index.js";
import { CASES } from "../fixtures/cases.js";
import type { CheckContext } from "../types.js";

const base: CheckContext = { intent: "acceptance", strict: false };

describe("the check registry", () => {
  it("has good and broken fixtures for every registered check, and no fixtures for unknown checks", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(CHECKS).sort());
    for (const [id, { good, broken }] of Object.entries(CASES)) {
      expect(good.length, id).toBeGreaterThan(0);
      expect(broken.length, id).toBeGreaterThan(0);
    }
  });
});

for (const id of Object.keys(CASES) as CheckId[]) {
  describe(id, () => {
    const check = CHECKS[id];
    it.each(CASES[id].good.map((c) => [c.name, c] as const))("passes on %s", (_name, c) => {
      expect(check(c.exchange, { ...base, ...c.ctx })).toEqual([]);
    });
    it.each(CASES[id].broken.map((c) => [c.name, c] as const))("reports a violation on %s", (_name, c) => {
      const found = check(c.exchange, { ...base, ...c.ctx });
      const hit = found.find((v) => c.expect!.title.test(v.title));
      expect(hit, `no violation titled ${c.expect!.title} among ${JSON.stringify(found.map((v) => v.title))}`).toBeDefined();
      expect(hit!.check).toBe(id);
      expect(hit!.severity).toBe(c.expect!.severity);
      expect(hit!.operation).toBe(c.exchange.operation);
      expect(hit!.curl).toMatch(/^curl -X (GET|POST|PUT) '/);
      if (c.expect!.instancePath !== undefined) expect(hit!.instancePath).toBe(c.expect!.instancePath);
      if (c.expect!.schemaPath) expect(hit!.schemaPath).toMatch(c.expect!.schemaPath);
      expect(found.every((v) => v.check === id)).toBe(true);
    });
  });
}
