/**
 * The members a server owns, found from the document alone (model/owned.ts): readOnly ones and those no request
 * schema of the family declares, never a member a client writes (a username it chooses) nor a writeOnly one; the
 * families the owned-members phase plans from a document; and the values it sends (each differs from those seen).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSettings } from "../../config/settings.js";
import { differentValue } from "../../engine/owned-values.js";
import { ownedMembersPhase } from "../../engine/phases/owned-members.js";
import { writeAccountsDocument } from "../../fault-server/accounts-document.js";
import { crudDocument, writeCrudDocument } from "../../fault-server/crud-document.js";
import { ownedModel } from "../../fixtures/owned-exchanges.js";
import { type SpecModel, specModel } from "../../model/model.js";
import { ownedMembers } from "../../model/owned.js";
import { cleanUp, tempDir } from "../support/spawn.js";

afterAll(() => cleanUp());

const ops = (model: SpecModel, ...ids: string[]) => ids.map((id) => model.operation(id));
const REQUEST = (path: string, method: string) =>
  `/paths/${path.replace(/\//g, "~1")}/${method}/requestBody/content/application~1json/schema`;

/** The titles of the owned-members scenarios planned for a live run of the document at `spec`. */
function planned(spec: string) {
  const settings = readSettings({
    CONTRACT_SPEC: spec,
    CONTRACT_BASE_URL: "http://127.0.0.1:9",
    CONTRACT_API_KEY: "k",
  });
  const model = specModel(spec).forRequests;
  const forRun = (ownedMembersPhase as { forRun: (i: unknown) => Array<{ title: string; skip?: unknown }> }).forRun;
  return forRun({ model, settings, operations: model.operations, modules: () => [] });
}

describe("the members a server owns", () => {
  it("are the answers' readOnly members and those no request schema declares; never the client's or writeOnly", () => {
    const found = ownedMembers(ownedModel, {
      writes: ops(ownedModel, "createUser", "replaceUser", "updateEmail"),
      answers: ops(ownedModel, "createUser", "getUser", "replaceUser"),
      object: "",
    });
    const all = [
      REQUEST("/users", "post"),
      REQUEST("/users/{username}", "put"),
      REQUEST("/users/{username}/email", "put"),
    ];
    expect(found).toEqual([
      {
        name: "id",
        schema: "/components/schemas/User/allOf/0/properties/id",
        readOnly: "#/components/schemas/User/allOf/0/properties/id/readOnly",
        undeclaredIn: all,
      },
      {
        name: "admin",
        schema: "/components/schemas/User/allOf/0/properties/admin",
        readOnly: "#/components/schemas/User/allOf/0/properties/admin/readOnly",
        undeclaredIn: all,
      },
      // The create's schema lists it, readOnly: no request writes it.
      {
        name: "status",
        schema: "/components/schemas/User/allOf/1/properties/status",
        readOnly: "#/components/schemas/NewUser/properties/status/readOnly",
        undeclaredIn: all.slice(1),
      },
      { name: "created_at", schema: "/components/schemas/User/allOf/1/properties/created_at", undeclaredIn: all },
      { name: "profile", schema: "/components/schemas/User/allOf/1/properties/profile", undeclaredIn: all },
    ]);
    // username and email (the create's), role (the update's) and the writeOnly password are not among them.
  });

  it("reads the resource's object where the answers hold it (an envelope), and needs a request schema", () => {
    const dir = tempDir("owned-");
    const doc = crudDocument(false) as Record<string, any>;
    const post = doc.components.schemas.Post;
    doc.components.schemas.Post = { type: "object", properties: { data: post, error: { type: "string" } } };
    const spec = join(dir, "enveloped.json");
    writeFileSync(spec, JSON.stringify(doc));
    const model = specModel(spec);
    const family = { writes: ops(model, "createPost", "updatePost"), answers: ops(model, "createPost", "getPost") };
    expect(ownedMembers(model, { ...family, object: "/data" }).map((m) => m.name)).toEqual([
      "id",
      "owner",
      "updatedAt",
    ]);
    expect(ownedMembers(model, { ...family, object: "" }).map((m) => m.name)).toEqual(["data", "error"]);
    expect(ownedMembers(model, { writes: ops(model, "deletePost"), answers: family.answers, object: "/data" })).toEqual(
      [],
    );
  });

  it("are planned per family a create produces, with the updates below its path, or skipped saying why", () => {
    const dir = tempDir("owned-");
    for (const links of [false, true])
      expect(planned(writeCrudDocument(dir, links)).map((s) => s.title)).toEqual([
        "owned-members: of /posts/{postId}: the members the server owns (id, owner, updatedAt), sent otherwise on " +
          "createPost, updatePost, patchPost, do not take effect",
      ]);
    const accounts = planned(writeAccountsDocument(dir, { links: true }));
    expect(accounts.map((s) => s.title.split(", sent")[0])).toEqual([
      "owned-members: of /users/{username}: the members the server owns (admin)",
      "owned-members: of /books/{book_title}: the members the server owns (owner)",
      "owned-members: of /orders/{orderId}: the members the server owns (id, status, owner)",
    ]);
    expect(accounts[0]!.title).toContain("sent otherwise on registerUser, updatePassword, updateEmail,");
    // Without links the register below /users (its answer's username) is inferred as the users' producer too.
    expect(planned(writeAccountsDocument(dir)).map((s) => s.title.split(":")[1])).toEqual([
      " of /users/{username}",
      " of /books/{book_title}",
      " of /orders/{orderId}",
    ]);
    const open = crudDocument(false) as Record<string, any>;
    open.components.schemas.NewPost.properties = { ...open.components.schemas.Post.properties };
    delete open.components.schemas.NewPost.properties.updatedAt.readOnly;
    const spec = join(dir, "all-declared.json");
    writeFileSync(spec, JSON.stringify(open));
    expect(planned(spec).map((s) => s.skip)).toEqual([
      {
        kind: "not-applicable",
        text: "every member the answers of /posts/{postId} carry is declared by a request schema and none is readOnly",
      },
    ]);
  });
});

describe("a value the suite sends for a member the server owns", () => {
  const value = (member: string, seen: unknown[]) =>
    differentValue(ownedModel, `/components/schemas/User/allOf/${member}`, seen, 1)?.value;

  it("differs from every value seen and is valid for the member's schema", () => {
    expect(value("0/properties/admin", [false])).toBe(true);
    expect(value("0/properties/admin", [true])).toBe(false);
    expect(value("0/properties/admin", [true, false])).toBeUndefined();
    expect(value("1/properties/status", ["active"])).toBe("locked");
    expect(value("0/properties/id", [7, 3])).toBe(1_000_010);
    expect(value("1/properties/created_at", ["2026-01-01T00:00:00Z"])).toBe("2001-02-03T04:05:06Z");
    expect(value("1/properties/created_at", ["2001-02-03T04:05:06Z"])).toMatch(/^\d{4}-/);
    expect(value("1/properties/profile", [{}]), "objects are not probed").toBeUndefined();
  });
});
