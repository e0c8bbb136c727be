/**
 * The OpenAPI 3.0 document of the CRUD fault server (crud.ts): posts created, listed, read, replaced, patched
 * and deleted by an integer `postId`, behind an apiKey header, with documented 400, 401 and 404 answers; a post's
 * `owner` is in no request schema, its `updatedAt` is readOnly and its `password` writeOnly. One
 * form has no `links` (the suite must infer its producers), the other links every operation to its producers,
 * with three links of one name (`GetPost`) on different responses.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** The header the CRUD server reads its key from. */
export const CRUD_KEY_HEADER = "X-API-Key";

const error = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
    },
  },
});

/** A password a post may be sent with: written, never returned. */
const PASSWORD = { type: "string", minLength: 8, maxLength: 64, writeOnly: true };

const postId = {
  name: "postId",
  in: "path",
  required: true,
  schema: { type: "integer", format: "int64", minimum: 1 },
};

const post = (description: string, links?: Record<string, unknown>) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Post" } } },
  ...(links ? { links } : {}),
});

/** The CRUD server's document as an object; `links`: with OpenAPI links between its operations. */
export function crudDocument(links: boolean): Record<string, unknown> {
  const toItem = (expr: string, name: string) =>
    links
      ? {
          [name]: { operationId: "getPost", parameters: { postId: expr } },
          UpdatePost: { operationId: "updatePost", parameters: { postId: expr } },
          PatchPost: { operationId: "patchPost", parameters: { postId: expr } },
          DeletePost: { operationId: "deletePost", parameters: { postId: expr } },
        }
      : undefined;
  const refusals = {
    "400": error("The request breaks the document (an invalid body or identifier)."),
    "401": error("No API key, or a key that is not valid."),
  };
  return {
    openapi: "3.0.3",
    info: { title: "CRUD fault server", version: "1.0.0" },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    paths: {
      "/posts": {
        get: {
          operationId: "listPosts",
          parameters: [
            {
              name: "limit",
              in: "query",
              required: false,
              schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
            },
          ],
          responses: {
            "200": {
              description: "The newest posts, at most `limit`.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["items"],
                    properties: { items: { type: "array", items: { $ref: "#/components/schemas/Post" } } },
                  },
                },
              },
              ...(links
                ? {
                    links: {
                      GetPost: { operationId: "getPost", parameters: { postId: "$response.body#/items/0/id" } },
                    },
                  }
                : {}),
            },
            ...refusals,
          },
        },
        post: {
          operationId: "createPost",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/NewPost" } } },
          },
          responses: { "201": post("The post created.", toItem("$response.body#/id", "GetPost")), ...refusals },
        },
      },
      "/posts/{postId}": {
        parameters: [postId],
        get: {
          operationId: "getPost",
          responses: { "200": post("The post."), ...refusals, "404": error("No post has this id.") },
        },
        put: {
          operationId: "updatePost",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/NewPost" } } },
          },
          responses: {
            "200": post(
              "The post as replaced.",
              links
                ? { GetPost: { operationId: "getPost", parameters: { postId: "$request.path.postId" } } }
                : undefined,
            ),
            ...refusals,
            "404": error("No post has this id."),
          },
        },
        patch: {
          operationId: "patchPost",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/PostPatch" } } },
          },
          responses: { "200": post("The post as changed."), ...refusals, "404": error("No post has this id.") },
        },
        delete: {
          operationId: "deletePost",
          responses: {
            "204": {
              description: "The post is deleted.",
              ...(links
                ? {
                    links: {
                      GetDeletedPost: { operationId: "getPost", parameters: { postId: "$request.path.postId" } },
                    },
                  }
                : {}),
            },
            ...refusals,
            "404": error("No post has this id."),
          },
        },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: CRUD_KEY_HEADER } },
      schemas: {
        NewPost: {
          type: "object",
          required: ["title"],
          properties: {
            title: { type: "string", minLength: 1, maxLength: 80 },
            body: { type: "string", maxLength: 500 },
            tags: { type: "array", maxItems: 5, items: { type: "string", minLength: 1, maxLength: 20 } },
            password: PASSWORD,
          },
        },
        PostPatch: {
          type: "object",
          properties: {
            title: { type: "string", minLength: 1, maxLength: 80 },
            body: { type: "string", maxLength: 500 },
          },
        },
        Post: {
          type: "object",
          required: ["id", "title", "owner", "updatedAt"],
          properties: {
            id: { type: "integer", format: "int64", minimum: 1 },
            title: { type: "string" },
            body: { type: "string" },
            tags: { type: "array", items: { type: "string" } },
            owner: { type: "string", description: "Who created the post: the server's, in no request." },
            updatedAt: { type: "string", format: "date-time", readOnly: true, description: "The last write." },
            password: PASSWORD,
          },
        },
      },
    },
  };
}

/** Writes the CRUD document (with or without links) as JSON into `dir`; returns its path. */
export function writeCrudDocument(dir: string, links: boolean): string {
  const path = join(dir, links ? "crud-links.openapi.json" : "crud.openapi.json");
  writeFileSync(path, JSON.stringify(crudDocument(links), null, 2));
  return path;
}
