/**
 * The request plan: derived once per operation, holding the body the document describes (media, schema,
 * Content-Type, how it is written, its Encoding Object, whether it is required) and the parameters by location.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SpecModel } from "../model/model.js";
import { planOf } from "../engine/plan.js";
import { toRequest } from "../engine/requests.js";
import { cleanUp, tempDir } from "./support/spawn.js";

const dir = tempDir("contract-plan-");
afterAll(cleanUp);

const doc = {
  openapi: "3.1.0",
  info: { title: "plan", version: "1" },
  paths: {
    "/forms/{id}": {
      post: {
        operationId: "postForm",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "integer" }, style: "label" },
          { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } }, explode: false },
        ],
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", properties: { meta: { type: "object" }, n: { type: "integer" } } },
              encoding: { meta: { contentType: "application/json" } },
            },
          },
        },
        responses: { "204": { description: "done" } },
      },
    },
    "/things": {
      post: {
        operationId: "postJson",
        requestBody: {
          content: {
            "text/plain": { schema: { type: "string" } },
            "application/*+json": { schema: { type: "object" } },
          },
        },
        responses: { "204": { description: "done" } },
      },
    },
  },
};

describe("planOf", () => {
  const file = join(dir, "plan.json");
  writeFileSync(file, JSON.stringify(doc));
  const model = new SpecModel(file);

  it("is derived once per operation: two calls give the same plan", () => {
    const op = model.operation("postForm");
    expect(planOf(op)).toBe(planOf(op));
    expect(planOf(model.operation("postJson"))).not.toBe(planOf(op));
  });

  it("holds a form body's media, schema, encoding and required flag, and the parameters by location", () => {
    const op = model.operation("postForm");
    const plan = planOf(op);
    expect(plan.body?.media).toBe(op.requestBody!.content[0]);
    expect(plan.body).toMatchObject({
      pointer: "/paths/~1forms~1{id}/post/requestBody/content/application~1x-www-form-urlencoded/schema",
      contentType: "application/x-www-form-urlencoded",
      writing: "form",
      encoding: { meta: { contentType: "application/json" } },
      required: true,
    });
    expect(plan.parameters.path.get("id")?.style).toBe("label");
    expect(plan.parameters.query.get("tags")?.explode).toBe(false);
    expect(plan.parameters.query.get("id")).toBeUndefined();
    const spec = toRequest(op, {
      path: { id: 5 },
      query: { tags: ["a", "b"] },
      header: {},
      cookie: {},
      body: { value: { meta: { k: 1 }, n: 2 } },
    });
    expect(spec).toMatchObject({ path: "/forms/.5", query: { tags: "a,b" }, contentType: plan.body?.contentType });
    expect(new URLSearchParams(spec.rawBody).get("meta")).toBe('{"k":1}');
  });

  it("holds a JSON body (preferred over text) with a concrete Content-Type for a range, optional by default", () => {
    const op = model.operation("postJson");
    expect(planOf(op).body).toMatchObject({
      media: { mediaType: "application/*+json" },
      contentType: "application/vnd.contract-suite+json",
      writing: "json",
      encoding: {},
      required: false,
    });
    expect(toRequest(op, { path: {}, query: {}, header: {}, cookie: {}, body: { value: { a: 1 } } })).toMatchObject({
      json: { a: 1 },
      contentType: "application/vnd.contract-suite+json",
    });
  });
});
