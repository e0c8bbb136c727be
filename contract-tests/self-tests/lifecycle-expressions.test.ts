/**
 * How the lifecycle phase reads a producer link's body expression: the object that holds the created resource's
 * identifier, and the identifier's member by its real name. A member named with `/` or `~` is written escaped in
 * the expression (RFC 6901: `~1`, `~0`); read as written, it was looked up under its escaped name in the created
 * object (and never found) and escaped a second time in the listing's pointer.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { producersOf } from "../engine/resources.js";
import { allLinks, bodyMember } from "../model/links.js";
import { SpecModel } from "../model/model.js";
import { cleanUp, tempDir } from "./support/spawn.js";

afterAll(() => cleanUp());

describe("bodyMember", () => {
  it("splits a body expression into the object's pointer and the member's name", () => {
    expect(bodyMember("$response.body#/id")).toEqual({ object: "", member: "id" });
    expect(bodyMember("$response.body#/data/post/id")).toEqual({ object: "/data/post", member: "id" });
  });

  it("unescapes the member's name (RFC 6901) and keeps the object's pointer escaped for resolvePointer", () => {
    const at = bodyMember("$response.body#/a~1b/post~0id~1x");
    expect(at).toEqual({ object: "/a~1b", member: "post~id/x" });
    const created = { "a/b": { "post~id/x": 7 } };
    const object = resolvePointer(created, at!.object) as Record<string, unknown>;
    expect(object[at!.member]).toBe(7);
  });

  it("reads nothing from an expression that is not a body pointer", () => {
    expect(bodyMember("$response.header.Location")).toBeUndefined();
    expect(bodyMember(42)).toBeUndefined();
    expect(bodyMember("$response.body#")).toBeUndefined();
  });
});

describe("producers of a server-assigned (readOnly) identifier", () => {
  // The create's answer carries `id`, which the schema marks readOnly: the reading for requests drops it (the suite
  // never sends it), and inference read that reading, so it found no producer and the lifecycle never ran.
  const ok = (schema: unknown) => ({ description: "OK", content: { "application/json": { schema } } });
  const post = { $ref: "#/components/schemas/Post" };
  const file = join(tempDir("contract-readonly-"), "posts.json");
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "posts", version: "1" },
      paths: {
        "/posts": {
          post: {
            operationId: "createPost",
            requestBody: { content: { "application/json": { schema: post } } },
            responses: { "201": ok(post) },
          },
        },
        "/posts/{postId}": {
          get: {
            operationId: "getPost",
            parameters: [{ name: "postId", in: "path", required: true, schema: { type: "integer" } }],
            responses: { "200": ok(post) },
          },
        },
      },
      components: {
        schemas: {
          Post: {
            type: "object",
            required: ["id", "title"],
            properties: { id: { type: "integer", readOnly: true }, title: { type: "string" } },
          },
        },
      },
    }),
  );

  it("are inferred from the create's answer, whichever reading of the document asks", () => {
    const model = new SpecModel(file);
    expect(model.forRequests).not.toBe(model); // the readings differ: the request one has no `id`
    for (const reading of [model, model.forRequests]) {
      const inferred = allLinks(reading, true).filter((l) => l.inferred);
      expect(inferred.map((l) => [l.source, l.link.operationId, l.link.parameters])).toEqual([
        ["createPost", "getPost", { "path.postId": "$response.body#/id" }],
      ]);
      expect(producersOf(reading, true, "/posts/{postId}")).toHaveLength(1);
    }
  });
});
