/**
 * Wrong JSON types in the negative phase: each type a schema rules out, the first of each member and parameter
 * always, the others within the operation's allowance (EXTRA_WRONG_TYPES), a body of each wrong type where an object
 * goes; a form, written as text, one per member. Whole runs against a local server that records what it is sent.
 */
import { describe, expect, it } from "vitest";
import { errors, info, ok, recordingServer } from "../support/recording-server.js";

const { answers, seen, run } = recordingServer();

const NAMES = Array.from({ length: 10 }, (_, i) => `m${i}`);
const doc = (media: string, type = "string") => ({
  openapi: "3.1.0",
  info,
  paths: {
    "/things": {
      post: {
        operationId: "createThing",
        requestBody: {
          required: true,
          content: {
            [media]: {
              schema: {
                type: "object",
                required: ["m0"],
                properties: Object.fromEntries(NAMES.map((n) => [n, { type, maxLength: 40 }])),
              },
            },
          },
        },
        responses: { ...ok({ type: "object" }), "400": { description: "invalid" } },
      },
    },
  },
});

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

describe("the negative phase's wrong types", () => {
  it("sends a null body where an object goes, each member's first wrong type, extras within the budget", async () => {
    // A strict server: an object of strings, else 400.
    answers.set("/things", (r) => {
      if (!/^application\/json/.test(String(r.headers["content-type"]))) return { status: 400, body: {} };
      let body: unknown;
      try {
        body = JSON.parse(r.body);
      } catch {
        return { status: 400, body: {} };
      }
      const good =
        typeOf(body) === "object" &&
        typeof (body as Record<string, unknown>).m0 === "string" &&
        Object.values(body as object).every((v) => typeof v === "string" && v.length <= 40);
      return good ? { status: 200, body: {} } : { status: 400, body: {} };
    });
    const results = await run("wrong-types-json", doc("application/json"));
    expect(errors(results)).toEqual([]);
    const bodies = seen
      .filter((r) => r.method === "POST")
      .map((r) => {
        try {
          return JSON.parse(r.body) as unknown;
        } catch {
          return undefined;
        }
      });
    const whole = bodies.map(typeOf).filter((t) => t !== "object" && t !== "undefined");
    expect(whole).toEqual(expect.arrayContaining(["null", "string"]));
    // Per member, the types it was sent other than a string.
    const wrong = new Map(NAMES.map((n) => [n, new Set<string>()]));
    for (const b of bodies)
      if (typeOf(b) === "object")
        for (const [k, v] of Object.entries(b as object)) if (typeof v !== "string") wrong.get(k)?.add(typeOf(v));
    // The first wrong type of each member (a number), and null (the extra servers trip on most) for each.
    for (const n of NAMES) expect([...wrong.get(n)!].sort(), n).toEqual(["null", "number"]);
    const extras = [...wrong.values()].reduce((sum, types) => sum + types.size - 1, 0) + whole.length - 1;
    // The allowance is spent: a body of null, each member's null, then a body that is an array.
    expect(extras).toBe(12);
    expect(whole.sort()).toEqual(["array", "null", "string"]);
  });

  it("sends a form's member one wrong type: written as text, the types read alike", async () => {
    answers.set("/things", () => ({ status: 400, body: {} }));
    await run("wrong-types-form", doc("application/x-www-form-urlencoded", "integer"));
    const forms = seen.filter((r) => r.method === "POST").map((r) => new URLSearchParams(r.body));
    expect(forms.some((f) => f.get("m1") === "a string")).toBe(true);
    for (const text of ["true", "list", "object"])
      expect(
        forms.some((f) => f.getAll("m1").includes(text) || f.get("an") === text),
        text,
      ).toBe(false);
  });
});
