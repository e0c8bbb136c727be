/**
 * Request bodies as engine/requests.ts writes them on the wire: a valid form body the wire cannot carry as it is
 * (an empty array, a string as multipart) held in doubt, a form's `required` and Encoding Object honoured
 * (encodeBody), and a required body whose valid value is empty on the wire (an empty form, JSON null) held in doubt.
 * Whole runs against a real local HTTP server that records what it is sent (support/recording-server.ts).
 */
import { describe, expect, it } from "vitest";
import { encodeBody } from "../../engine/requests.js";
import { errors, info, ok, recordingServer } from "../support/recording-server.js";

const { answers, seen, run } = recordingServer();

describe("a valid form body the wire cannot carry as it is", () => {
  it(
    "holds the refusal of a required member holding an empty array (written " +
      "as no field) in doubt, and prefers a body the wire carries",
    async () => {
      const doc = (maxItems?: number) => ({
        openapi: "3.0.3",
        info,
        paths: {
          "/tags": {
            post: {
              operationId: "setTags",
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: {
                      type: "object",
                      required: ["tags"],
                      properties: {
                        tags: {
                          type: "array",
                          items: { type: "string", enum: ["a"] },
                          ...(maxItems === undefined ? {} : { maxItems }),
                        },
                      },
                    },
                    examples: { none: { value: { tags: [] } } },
                  },
                },
              },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid form" } },
            },
          },
        },
      });
      // Like a real server: a form without the required field, or with a tag other than "a", is refused.
      answers.set("/tags", (r) => {
        const tags = new URLSearchParams(r.body).getAll("tags");
        return tags.length > 0 && tags.every((t) => t === "a")
          ? { status: 200, body: {} }
          : { status: 422, body: { message: "tags is required" } };
      });
      const results = await run("form-empty-array", doc());
      expect(errors(results)).toEqual([]);
      const warned = results
        .flatMap((r) => r.findings)
        .filter((f) => f.check === "positive_data_acceptance" && f.severity === "warning");
      expect(warned.map((f) => f.documented).join("\n")).toMatch(
        /the member tags holds \[\], which a application\/x-www-form-urlencoded form writes as no field/,
      );
      expect(
        seen.filter((r) => new URLSearchParams(r.body).has("tags")).length,
        "the base request is a body the wire carries (not the example's empty array)",
      ).toBeGreaterThan(3);
      // Every valid value is an empty array, which the wire cannot carry: the server refuses every form, rightly;
      // each refusal of a valid one is in doubt, none an error.
      answers.set("/tags", () => ({ status: 422, body: { message: "tags must be present and empty" } }));
      expect(errors(await run("form-only-empty-array", doc(0)))).toEqual([]);
    },
  );

  it(
    "holds the refusal of a string body of a " + "multipart/form-data media type (a form with no parts) in " + "doubt",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/files": {
            post: {
              operationId: "putFile",
              requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "string" } } } },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid form" } },
            },
          },
        },
      };
      answers.set("/files", (r) =>
        r.body.includes("Content-Disposition")
          ? { status: 200, body: {} }
          : { status: 422, body: { message: "no parts" } },
      );
      const results = await run("multipart-string", doc);
      expect(errors(results)).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /a string body, which a multipart\/form-data form writes as no fields/.test(f.documented),
          ),
      ).toBe(true);
    },
  );
});

describe("form bodies: required and the Encoding Object honoured", () => {
  const form = (required: boolean) => ({
    openapi: "3.0.3",
    info,
    paths: {
      "/form": {
        post: {
          operationId: "submitForm",
          requestBody: {
            required,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["meta"],
                  properties: {
                    meta: { type: "object", required: ["id"], properties: { id: { type: "integer", minimum: 1 } } },
                    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
                  },
                },
                encoding: { meta: { contentType: "application/json" }, tags: { style: "form", explode: false } },
                example: { meta: { id: 7 }, tags: ["a", "b"] },
              },
            },
          },
          responses: { ...ok({ type: "object" }), "422": { description: "the form does not validate" } },
        },
      },
    },
  });

  it("writes a member with a JSON contentType as JSON text and an unexploded array joined", () => {
    const { rawBody } = encodeBody(
      "application/x-www-form-urlencoded",
      { meta: { id: 7 }, tags: ["a", "b"] },
      { meta: { contentType: "application/json" }, tags: { style: "form", explode: false } },
    );
    expect(new URLSearchParams(rawBody).get("meta")).toBe('{"id":7}');
    expect(new URLSearchParams(rawBody).getAll("tags")).toEqual(["a,b"]);
    expect(
      new URLSearchParams(encodeBody("application/x-www-form-urlencoded", { meta: { id: 7 } }).rawBody).get("id"),
      "without an Encoding Object an object is exploded into its members",
    ).toBe("7");
  });

  it(
    "has valid forms accepted by a server that decodes them as the Encoding Object " +
      "says, and an empty optional form is not demanded to be refused",
    async () => {
      // The server decodes as the document says: meta as JSON, tags comma-joined; no body at all is fine (optional);
      // else 422.
      answers.set("/form", (r) => {
        if (r.body === "") return { status: 200, body: {} };
        const f = new URLSearchParams(r.body);
        let meta: any;
        try {
          meta = JSON.parse(f.get("meta") ?? "");
        } catch {
          return { status: 422, body: { message: "meta is not JSON" } };
        }
        const tags = f.get("tags")?.split(",") ?? [];
        const good =
          Number.isInteger(meta?.id) &&
          meta.id >= 1 &&
          tags.every((t) => t === "a" || t === "b") &&
          f.getAll("tags").length <= 1;
        return good ? { status: 200, body: {} } : { status: 422, body: { message: "invalid form" } };
      });
      const optional = await run("form-optional", form(false));
      expect(errors(optional)).toEqual([]);
      const negatives = optional.find((r) => r.phase === "negative")!;
      expect(negatives.status).toBe("passed");
      expect(seen.filter((r) => r.method === "POST" && r.body !== "").length).toBeGreaterThan(3);
      // The same form, required: an empty body is now a negative case, and the server's 200 for it is caught.
      const required = await run("form-required", form(true));
      expect(
        errors(required).some((e) =>
          /negative_data_rejection: Invalid input accepted \((no body where one is required|an empty object|missing required member meta)\)/.test(
            e,
          ),
        ),
      ).toBe(true);
    },
  );
});

describe("a required body whose valid value is empty on the wire", () => {
  it(
    "holds a refusal of an empty required form in doubt (it cannot be told " +
      "from no body): a warning, never 'valid input rejected'",
    async () => {
      // Conjur's shape: a required form body whose members are all optional, so {} is valid and serializes to "".
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/token": {
            post: {
              operationId: "token",
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: { type: "object", properties: { jwt: { type: "string" } } },
                  },
                },
              },
              responses: { ...ok({ type: "object" }), "400": { description: "no body" } },
            },
          },
        },
      };
      // Like Prism: a zero-length body is a missing body, whatever the form would decode to.
      answers.set("/token", (r) =>
        r.body === "" ? { status: 400, body: { message: "body required" } } : { status: 200, body: {} },
      );
      const results = await run("empty-required-form", doc);
      expect(
        seen.some((r) => r.method === "POST" && r.body === ""),
        "the empty form was sent",
      ).toBe(true);
      expect(errors(results).filter((e) => e.startsWith("positive_data_acceptance"))).toEqual([]);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /serializes to nothing/.test(f.documented ?? ""),
          ),
      ).toBe(true);
    },
  );

  it(
    "holds a refusal of a JSON null body, valid under an empty schema, in " +
      "doubt too (slicebox's shape: Prism reads null as no body)",
    async () => {
      const doc = {
        openapi: "3.0.3",
        info,
        paths: {
          "/images": {
            post: {
              operationId: "upload",
              requestBody: {
                required: true,
                content: { "application/json": { schema: {}, examples: { nothing: { value: null } } } },
              },
              responses: { ...ok({ type: "object" }), "422": { description: "invalid" } },
            },
          },
        },
      };
      answers.set("/images", (r) =>
        r.body === "null" || r.body === ""
          ? { status: 422, body: { message: "body required" } }
          : { status: 200, body: {} },
      );
      const results = await run("null-required-json", doc);
      expect(errors(results).filter((e) => e.startsWith("positive_data_acceptance"))).toEqual([]);
      expect(
        seen.some((r) => r.method === "POST" && r.body === "null"),
        "the documented null example was sent",
      ).toBe(true);
      expect(
        results
          .flatMap((r) => r.findings)
          .some(
            (f) =>
              f.check === "positive_data_acceptance" &&
              f.severity === "warning" &&
              /JSON null/.test(f.documented ?? ""),
          ),
      ).toBe(true);
    },
  );
});
