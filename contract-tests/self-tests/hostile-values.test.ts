/**
 * The hostile phase's strings on their own: each class only where the schema lets it through as the server reads
 * the wire (enum, const, pattern, format and length rules respected), grown from the valid value where a length
 * needs it, never past maxLength; separators and dot segments only in a safe operation's path, and only those the
 * request boundary sends; at most HOSTILE_REQUESTS_PER_OPERATION, each with a class in every string, so every
 * string meets every class. And the check's leniency where the response schema itself rules the string out.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  HOSTILE_CLASSES,
  HOSTILE_REQUESTS_PER_OPERATION,
  hasHostileTargets,
  hostileRequests,
  type HostilePart,
  type HostileRequest,
} from "../engine/hostile-values.js";
import { expandPath, toRequest } from "../engine/requests.js";
import { baseValues } from "../engine/values.js";
import { readSettings } from "../config/settings.js";
import { ALL_CHECKS } from "../modules/index.js";
import { SpecModel } from "../model/model.js";
import { isSkip } from "../model/skip.js";
import type { Exchange } from "../model/types.js";
import { requestUrl } from "../transport/boundary.js";
import { cleanUp, tempDir } from "./support/spawn.js";

afterAll(cleanUp);

const text = (extra: Record<string, unknown> = {}) => ({ type: "string", ...extra });
const ok = { "200": { description: "OK" }, "400": { description: "Refused" } };
const members = {
  free: text({ example: "name1" }),
  short: text({ maxLength: 3, example: "abc" }),
  long: text({ minLength: 4, maxLength: 12, example: "name1" }),
  picked: text({ enum: ["a", "b"] }),
  fixed: text({ const: "x" }),
  letters: text({ pattern: "^[a-z0-9]+$", example: "abc" }),
  noQuote: text({ pattern: "^[^']*$", example: "abc" }),
  id: text({ format: "uuid", example: "3f2a5c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b" }),
  count: { type: "integer", example: 1 },
};
const body = (properties: Record<string, unknown>) => ({
  required: true,
  content: { "application/json": { schema: { type: "object", properties } } },
});
const pathParameter = { name: "name", in: "path", required: true, schema: text({ minLength: 3, example: "name1" }) };
const document = {
  openapi: "3.1.0",
  info: { title: "hostile", version: "1" },
  paths: {
    "/things": {
      post: { operationId: "createThing", requestBody: body(members), responses: ok },
      get: {
        operationId: "findThings",
        parameters: [
          { name: "q", in: "query", schema: text({ example: "q1" }) },
          { name: "X-Trace", in: "header", schema: text({ example: "t1" }) },
        ],
        responses: ok,
      },
    },
    "/codes/{code}": {
      get: {
        operationId: "getCode",
        parameters: [{ name: "code", in: "path", required: true, schema: text({ pattern: "^[a-z]+$" }) }],
        responses: ok,
      },
    },
    "/pairs": {
      post: {
        operationId: "createPair",
        requestBody: body({ title: text({ example: "t" }), body: text({ example: "b" }) }),
        responses: ok,
      },
    },
    "/things/{name}": {
      parameters: [pathParameter],
      get: { operationId: "getThing", responses: ok },
      put: {
        operationId: "putThing",
        parameters: [{ name: "mode", in: "query", schema: text({ example: "m" }) }],
        requestBody: body({ note: text({ example: "n" }), name: text({ example: "name1" }) }),
        responses: {
          "200": {
            description: "The thing",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Shown" } } },
          },
        },
      },
    },
  },
  components: { schemas: { Shown: { type: "object", properties: { note: text({ maxLength: 2 }) } } } },
};
const specPath = join(tempDir("hostile-values-"), "hostile.json");
writeFileSync(specPath, JSON.stringify(document));
const model = new SpecModel(specPath).forRequests;
const settings = readSettings({ CONTRACT_SPEC: specPath });

/** The hostile requests of `operationId` with `seed` (identifiers a link feeds: `linkFed`). */
function combinedOf(operationId: string, seed = settings.seed, linkFed: string[] = []): HostileRequest[] {
  const op = model.operation(operationId);
  const values = baseValues(model, settings, op, { name: "name1" });
  if (isSkip(values)) throw new Error(values.kind);
  return hostileRequests(model, op, values, { changeIds: op.safe, linkFed: (p) => linkFed.includes(p.name), seed });
}
/** Their parts: each string with its class alone (what a failed request is narrowed to). */
const requestsOf = (operationId: string, seed = settings.seed, linkFed: string[] = []): HostilePart[] =>
  combinedOf(operationId, seed, linkFed).flatMap((r) => r.parts);
const classOf = (r: HostilePart) => HOSTILE_CLASSES.find((c) => r.what.includes(`: ${c.what}, `))!;
const memberOf = (r: HostilePart) => /^body member (\w+):/.exec(r.what)?.[1];
/** Every request of createThing over several seeds (the budget cuts each seed's own share of the pairs). */
const allSeeds = Array.from({ length: 12 }, (_, seed) => requestsOf("createThing", seed)).flat();

describe("hostile strings", () => {
  it("go only into strings the schema lets through, each still valid as the server reads it", () => {
    const touched = new Set(allSeeds.map(memberOf));
    for (const ruled of ["picked", "fixed", "letters", "id", "count"]) expect(touched.has(ruled), ruled).toBe(false);
    for (const open of ["free", "short", "long", "noQuote"]) expect(touched.has(open), open).toBe(true);
    const schema = "/paths/~1things/post/requestBody/content/application~1json/schema";
    for (const r of allSeeds) expect(model.validator.validate(schema, r.values.body!.value), r.what).toEqual([]);
    // A pattern that forbids a quote gets the classes without one, never those with it.
    const noQuote = allSeeds.filter((r) => memberOf(r) === "noQuote").map((r) => r.member!.sent);
    expect(noQuote.length).toBeGreaterThan(0);
    for (const v of noQuote) expect(v).not.toContain("'");
  });

  it("never go past maxLength, and grow from the valid value where minLength needs it (`name1'` for a quote)", () => {
    for (const r of allSeeds.filter((x) => memberOf(x) === "short"))
      expect([...r.member!.sent].length).toBeLessThanOrEqual(3);
    expect(allSeeds.some((r) => memberOf(r) === "short" && classOf(r).what === "template markers")).toBe(false);
    const long = allSeeds.filter((r) => memberOf(r) === "long").map((r) => r.member!.sent);
    const valid = (
      requestsOf("createThing").find((r) => memberOf(r) !== "long")!.values.body!.value as Record<string, unknown>
    ).long;
    expect(long).toContain(`${valid}'`);
    for (const v of long) expect([...v].length).toBeGreaterThanOrEqual(4);
    for (const v of long) expect([...v].length).toBeLessThanOrEqual(12);
  });

  it("send at most the budget, each with a class in every string, so every string meets every class", () => {
    const one = combinedOf("createThing");
    expect(one).toHaveLength(HOSTILE_REQUESTS_PER_OPERATION);
    const schema = "/paths/~1things/post/requestBody/content/application~1json/schema";
    for (const r of one) expect(model.validator.validate(schema, r.values.body!.value), r.what).toEqual([]);
    // Every open member meets every class it takes; the free one all eight.
    const met = new Map<string, Set<string>>();
    for (const p of one.flatMap((r) => r.parts))
      met.set(memberOf(p)!, new Set([...(met.get(memberOf(p)!) ?? []), classOf(p).what]));
    expect(met.get("free")?.size).toBe(HOSTILE_REQUESTS_PER_OPERATION);
    for (const m of ["short", "long", "noQuote"]) expect(met.get(m)?.size, m).toBeGreaterThan(1);
    // In one request the members carry different classes (where they take the same ones).
    const pair = combinedOf("createPair");
    expect(pair).toHaveLength(HOSTILE_REQUESTS_PER_OPERATION);
    for (const r of pair) {
      expect(r.parts.map(memberOf)).toEqual(["title", "body"]);
      expect(new Set(r.parts.map((p) => classOf(p).what)).size).toBe(2);
      const sent = r.values.body!.value as Record<string, unknown>;
      expect(r.members).toEqual(
        r.parts.map((p) => ({
          name: memberOf(p),
          sent: sent[memberOf(p)!],
          pointer: `/paths/~1pairs/post/requestBody/content/application~1json/schema/properties/${memberOf(p)}`,
          what: classOf(p).what,
        })),
      );
    }
    for (const m of ["title", "body"])
      expect(
        new Set(pair.flatMap((r) => r.parts.filter((p) => memberOf(p) === m).map((p) => classOf(p).what))).size,
      ).toBe(HOSTILE_REQUESTS_PER_OPERATION);
    expect(combinedOf("createPair").map((r) => r.what)).toEqual(pair.map((r) => r.what));
    expect(combinedOf("createPair", settings.seed + 1).map((r) => r.what)).not.toEqual(pair.map((r) => r.what));
  });

  it("put separators and dot segments only into a safe operation's path, and only what the boundary sends", () => {
    const reads = Array.from({ length: 12 }, (_, seed) => requestsOf("getThing", seed)).flat();
    const sent = new Set(reads.map((r) => classOf(r).what));
    expect(sent).toContain("a path separator");
    expect(sent).toContain("an encoded dot segment");
    for (const r of reads) {
      const path = toRequest(model.operation("getThing"), r.values).path;
      expect(() => requestUrl("http://127.0.0.1:9", path, "", "x")).not.toThrow();
    }
    expect(reads.map((r) => r.values.path.name)).not.toContain("../x");
    // An update names the resource the run means: its path is never changed, its query and body are.
    const writes = Array.from({ length: 6 }, (_, seed) => requestsOf("putThing", seed)).flat();
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) expect(expandPath(model.operation("putThing"), r.values.path)).toBe("/things/name1");
    expect(writes.some((r) => r.what.startsWith("query parameter mode"))).toBe(true);
    for (const r of [...writes, ...allSeeds]) expect(classOf(r).pathOnly).toBeUndefined();
    // A parameter a link feeds is an identifier: an unsafe operation leaves it as the link gave it.
    expect(requestsOf("putThing", settings.seed, ["mode"]).every((r) => !r.what.includes("mode"))).toBe(true);
  });

  it("keep control characters and text outside ASCII out of headers, and plan only operations with a string", () => {
    const finds = Array.from({ length: 12 }, (_, seed) => requestsOf("findThings", seed)).flat();
    const header = finds.filter((r) => r.what.startsWith("header parameter"));
    expect(header.length).toBeGreaterThan(0);
    for (const r of header) expect(classOf(r).notInHeaders).toBeUndefined();
    expect(finds.some((r) => r.what.startsWith("query parameter q: a NUL character"))).toBe(true);
    const scope = { changeIds: false, linkFed: () => false };
    expect(hasHostileTargets(model, model.operation("createPair"), scope)).toBe(true);
    expect(hasHostileTargets(model, model.operation("getThing"), scope)).toBe(false);
    // A pattern no class gets through: planned only where values are not generated to tell (the mock skips it).
    const safe = { ...scope, changeIds: true };
    expect(hasHostileTargets(model, model.operation("getCode"), safe)).toBe(false);
    expect(hasHostileTargets(model, model.operation("getCode"), safe, false)).toBe(true);
    expect(requestsOf("getCode", settings.seed)).toEqual([]);
  });

  it("compare no body member that copies a path parameter (which one a server keeps is its own choice)", () => {
    const writes = Array.from({ length: 6 }, (_, seed) => requestsOf("putThing", seed)).flat();
    const copies = writes.filter((r) => r.what.startsWith("body member name:"));
    expect(copies.length).toBeGreaterThan(0);
    for (const r of copies) expect(r.member).toBeUndefined();
    expect(writes.find((r) => r.what.startsWith("body member note:"))?.member?.name).toBe("note");
  });
});

describe("hostile_input where the document rules the string out of the answer", () => {
  it("is a warning naming why: the response schema's maxLength does not let the string through", () => {
    const answer = (sent: string, read: string) => {
      const ex: Exchange = {
        operation: "putThing",
        request: {
          method: "PUT",
          url: "http://127.0.0.1:9/things/name1",
          path: "/things/name1",
          query: {},
          headers: {},
        },
        response: {
          status: 200,
          headers: {},
          contentType: "application/json",
          bodyText: JSON.stringify({ note: read }),
          json: { note: read },
          bodyBytes: 12,
          elapsedMs: 1,
        },
      };
      const hostile = { member: "note", sent, pointer: "/components/schemas/Shown/properties/note", object: "" };
      return ALL_CHECKS.run(["hostile_input"], ex, {
        intent: "conforming",
        strict: false,
        live: true,
        model: model.forResponses,
        hostile,
      });
    };
    const [unheld] = answer("nn'", "nn\\'");
    expect(unheld).toMatchObject({ severity: "warning", title: expect.stringMatching(/re-escaped/) });
    expect(unheld!.documented).toMatch(/does not let the string through \(maxLength\)/);
    // Within the response schema's bounds the rule holds: an error.
    expect(answer("n'", "n\\'")[0]).toMatchObject({
      severity: "error",
      promise: "#/components/schemas/Shown/properties/note",
    });
  });
});
