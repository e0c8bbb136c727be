/** Every registered check passes on good exchanges and reports exactly what is wrong on broken ones. */
import { describe, expect, it } from "vitest";
import { NO_PROMISE } from "../checks/severity.js";
import { ALL_CHECKS } from "../modules/index.js";
import { CASES } from "../fixtures/cases/index.js";
import { listingOk, model, schemaOk, sitemapOk } from "../fixtures/exchanges.js";
import type { CheckContext } from "../model/types.js";
import * as support from "./support/spawn.js";

// Fixtures are judged as a live target's answers (relational checks run); the mock rule has its own test.
const base: CheckContext = { intent: "acceptance", strict: false, live: true, model };
const { run: runChecks } = ALL_CHECKS;

describe("the check registry", () => {
  it("has good and broken fixtures for every registered check, and no fixtures for unknown checks", () => {
    expect(Object.keys(CASES).sort()).toEqual(ALL_CHECKS.ids().sort());
    for (const [id, { good, broken }] of Object.entries(CASES)) {
      expect(good.length, id).toBeGreaterThan(0);
      expect(broken.length, id).toBeGreaterThan(0);
    }
  });

  it("stamps each finding with the id it is registered under, and refuses an unknown id", () => {
    const found = runChecks(
      ["sitemap_link_count"],
      sitemapOk((b) => (b.link_count = 9)),
      base,
    );
    expect(found.map((f) => f.check)).toEqual(["sitemap_link_count"]);
    expect(() => runChecks(["no_such_check"], sitemapOk(), base)).toThrow(/unknown check no_such_check/);
  });

  it("runs a relational check on the static mock only for a documented example pair", () => {
    const broken = schemaOk((b) => (b.id = "dsc_other"));
    expect(runChecks(["schema_update_echo"], broken, { ...base, live: false })).toEqual([]);
    expect(
      runChecks(["schema_update_echo"], { ...broken, pairedExample: "productSchema" }, { ...base, live: false }),
    ).toHaveLength(1);
    expect(
      runChecks(
        ["sitemap_link_count"],
        sitemapOk((b) => (b.link_count = 9)),
        { ...base, live: false },
      ),
      "a check of the response alone runs on the mock",
    ).toHaveLength(1);
  });

  it("reports an error whose check names no promise as a warning, saying so; an error with one keeps it", () => {
    // A record returned for an unknown id in a filter no link feeds: an error the check can name no promise of.
    const [unpromised] = runChecks(["unknown_resource"], listingOk(), {
      ...base,
      intent: "unknown-resource",
      unknownIn: "query",
      foreignIds: ["brq_V2PUfFA8AQPAQ5VEsewpxdGUSZkgKP"],
    });
    expect(unpromised).toMatchObject({ severity: "warning" });
    expect(unpromised!.documented).toContain(NO_PROMISE);
    expect(unpromised!.promise).toBeUndefined();
    const [promised] = runChecks(
      ["sitemap_link_count"],
      sitemapOk((b) => (b.link_count = 9)),
      base,
    );
    expect(promised).toMatchObject({ severity: "error", promise: expect.stringMatching(/^interface 2\.2: "/) });
  });

  it(
    "runs relational and semantic checks only on requests the " +
      "document allows: never on invalid input or a refused key",
    () => {
      const outside = listingOk(() => {}, { query: { status: "failed" } });
      expect(
        runChecks(["listing_status_filter"], outside, base),
        "the filter is checked on a valid request",
      ).not.toEqual([]);
      for (const intent of ["rejection", "no-key", "empty-key", "wrong-key"] as const)
        expect(
          runChecks(["listing_status_filter", "listing_defaults", "listing_page_size"], outside, { ...base, intent }),
          intent,
        ).toEqual([]);
      expect(
        runChecks(
          ["listing_status_filter"],
          listingOk(() => {}, { query: { status: "" } }),
          base,
        ),
        "an empty filter reads as no filter",
      ).toEqual([]);
    },
  );

  it("reads an update without fields as claiming nothing about the stored fields (kept or cleared: not shown)", () => {
    const kept = schemaOk((_b, sent) => delete sent.fields);
    expect(kept.request.json).not.toHaveProperty("fields");
    expect(runChecks(["field_tree_pairing", "schema_update_echo"], kept, base)).toEqual([]);
    expect(
      runChecks(
        ["field_tree_pairing"],
        schemaOk((_b, sent) => sent.fields.push({ name: "extra", type: "string", fields: [] })),
        base,
      ),
      "a sent field missing from the answer is still caught",
    ).not.toEqual([]);
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
      expect(
        hit,
        `no finding titled ${c.expect!.title} among ${JSON.stringify(found.map((v) => v.title))}`,
      ).toBeDefined();
      expect(hit!.check).toBe(id);
      expect(hit!.severity).toBe(c.expect!.severity);
      expect(hit!.operation).toBe(c.exchange.operation);
      expect(hit!.curl).toMatch(/^curl -X (GET|POST|PUT) '/);
      if (c.expect!.instancePath !== undefined) expect(hit!.instancePath).toBe(c.expect!.instancePath);
      if (c.expect!.schemaPath) expect(hit!.schemaPath).toMatch(c.expect!.schemaPath);
      // Every error names its promise: a place that exists in the document, or a statement of the interface.
      if (hit!.severity === "error") {
        expect(hit!.promise, `${id}: an error without a promise`).toMatch(/^#\/|^interface \d/);
        if (hit!.promise!.startsWith("#/"))
          expect(
            (c.ctx?.model ?? model).at(hit!.promise!.slice(1).split(" ")[0]!),
            `${hit!.promise} is in the document`,
          ).toBeDefined();
      }
    });
  });
}

describe("a failing anyOf or oneOf", () => {
  const { tempDir, cleanUp } = support;
  const pets = {
    openapi: "3.0.3",
    info: { title: "pets", version: "1" },
    paths: {
      "/pet": {
        get: {
          operationId: "getPet",
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Holder" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Cat: {
          type: "object",
          required: ["kind", "meow", "name"],
          properties: { kind: { type: "string", enum: ["cat"] }, meow: { type: "boolean" }, name: { type: "string" } },
        },
        Dog: {
          type: "object",
          required: ["kind", "bark"],
          properties: { kind: { type: "string", enum: ["dog"] }, bark: { type: "boolean" } },
        },
        Pet: {
          oneOf: [
            { $ref: "#/components/schemas/Cat" },
            { $ref: "#/components/schemas/Dog" },
            { type: "string" },
            { type: "integer" },
          ],
        },
        PlainCat: { type: "object", required: ["meow", "name"] },
        PlainDog: { type: "object", required: ["bark", "collar"] },
        Tagged: {
          oneOf: [{ $ref: "#/components/schemas/PlainCat" }, { $ref: "#/components/schemas/PlainDog" }],
          discriminator: { propertyName: "kind", mapping: { dog: "#/components/schemas/PlainDog" } },
        },
        Holder: {
          type: "object",
          properties: {
            pet: { $ref: "#/components/schemas/Pet" },
            tagged: { $ref: "#/components/schemas/Tagged" },
            size: {
              anyOf: [
                { type: "string", maxLength: 2 },
                { type: "integer", maximum: 3 },
              ],
            },
          },
        },
      },
    },
  };
  const judge = async (body: unknown) => {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { SpecModel } = await import("../model/model.js");
    const file = join(tempDir("contract-anyof-"), "pets.json");
    writeFileSync(file, JSON.stringify(pets));
    const text = JSON.stringify(body);
    const ex = {
      operation: "getPet",
      request: { method: "GET", url: "http://127.0.0.1/pet", path: "/pet", query: {}, headers: {} },
      response: {
        status: 200,
        headers: {},
        contentType: "application/json",
        bodyText: text,
        json: body,
        bodyBytes: text.length,
        elapsedMs: 1,
      },
    };
    const found = runChecks(["response_schema_conformance"], ex, { ...base, model: new SpecModel(file) });
    cleanUp();
    return found;
  };

  it("passes a body that matches one branch, lenient members included", async () => {
    expect(
      await judge({
        pet: { kind: "dog", bark: true, wag: 3 },
        tagged: { kind: "cat", meow: true, name: "c" },
        size: 3,
      }),
    ).toEqual([]);
  });

  it("is one finding naming the branch closest to the value, not one per losing branch", async () => {
    const found = await judge({ pet: { kind: "cat", meow: 1 } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: "error",
      instancePath: "/pet",
      schemaPath: "#/components/schemas/Pet/oneOf",
    });
    expect(found[0]!.documented).toBe(
      "oneOf: no branch matches; the closest, #/components/schemas/Pet/oneOf/0 " +
        "(#/components/schemas/Cat), fails: /pet must have required property 'name'; /pet/meow must be " +
        "boolean",
    );
    const [size] = await judge({ size: 7 });
    expect(size!.documented, "the branch whose type matches, not the first").toMatch(
      /closest, #\/components\/schemas\/Holder\/properties\/size\/anyOf\/1, fails: \/size must be <= 3$/,
    );
  });

  it("names the branch the discriminator chooses, even when another has fewer errors", async () => {
    const found = await judge({ tagged: { kind: "dog", meow: true } });
    expect(found).toHaveLength(1);
    expect(found[0]!.documented).toMatch(
      /closest, .*\(#\/components\/schemas\/PlainDog\), fails: \/tagged must have required property 'bark'; \/tagged must have required property 'collar'$/,
    );
  });
});
