/**
 * How the lifecycle phase reads a producer link's body expression: the object that holds the created resource's
 * identifier, and the identifier's member by its real name. A member named with `/` or `~` is written escaped in
 * the expression (RFC 6901: `~1`, `~0`); read as written, it was looked up under its escaped name in the created
 * object (and never found) and escaped a second time in the listing's pointer.
 */
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { bodyMember } from "../engine/lifecycle.js";

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
