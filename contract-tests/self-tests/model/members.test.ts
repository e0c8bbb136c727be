/**
 * The body member walker (model/members.ts) and its readers: members at any depth (an envelope, nested objects,
 * arrays of objects, $ref and allOf/oneOf, a schema that contains itself), values read and written at a member's
 * path, the login's and the register's members inside an envelope (model/accounts.ts), and references nested in
 * arrays, lists of identifiers and query parameters (model/references.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { madeUpReference, repeatsOwnValue } from "../../engine/made-up.js";
import { writeAccountsDocument } from "../../fault-server/accounts-document.js";
import { loginOperation, registerOperation } from "../../model/accounts.js";
import { linksTo } from "../../model/links.js";
import { bodyMembers, EACH, MAX_DEPTH, memberAt, setAt, valuesAt } from "../../model/members.js";
import { specModel } from "../../model/model.js";
import { references } from "../../model/references.js";
import type { Exchange } from "../../model/types.js";
import { cleanUp, tempDir } from "../support/spawn.js";

afterAll(() => cleanUp());

const json = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
const ok = (schema: unknown) => ({ description: "ok", content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A restaurant in the style of real APIs: enveloped bodies, an order's items in an array, a /menu listing. */
function restaurant() {
  const doc = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/menu": { get: { operationId: "listMenu", responses: { "200": ok({ type: "array", items: ref("Item") }) } } },
      "/tags": {
        get: {
          operationId: "listTags",
          responses: { "200": ok({ type: "object", properties: { data: { type: "array", items: ref("Item") } } }) },
        },
      },
      "/customers": {
        post: {
          operationId: "createCustomer",
          requestBody: json(ref("Customer")),
          responses: { "201": ok(ref("Customer")) },
        },
      },
      "/orders": {
        get: {
          operationId: "listOrders",
          parameters: [{ name: "customerId", in: "query", schema: { type: "integer" } }],
          responses: { "200": ok({ type: "array", items: ref("Item") }) },
        },
        post: {
          operationId: "createOrder",
          requestBody: json({ type: "object", properties: { order: ref("NewOrder") } }),
          responses: { "201": ok(ref("Item")) },
        },
      },
      "/users/login": {
        post: {
          operationId: "login",
          requestBody: json({ type: "object", required: ["user"], properties: { user: ref("Credentials") } }),
          responses: {
            "200": ok({
              type: "object",
              properties: { user: { type: "object", properties: { token: { type: "string" } } } },
            }),
          },
        },
      },
      "/users": {
        post: {
          operationId: "register",
          requestBody: json({ type: "object", properties: { user: ref("NewUser") } }),
          responses: { "201": ok(ref("Item")) },
        },
      },
    },
    components: {
      schemas: {
        Item: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } },
        Customer: { type: "object", properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } } },
        Line: {
          type: "object",
          required: ["menu_item_id"],
          properties: { menu_item_id: { type: "integer" }, quantity: { type: "integer" } },
        },
        NewOrder: {
          allOf: [
            { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("Line") } } },
            {
              type: "object",
              properties: { tag_ids: { type: "array", items: { type: "integer" } }, note: { type: "string" } },
            },
          ],
        },
        Credentials: { type: "object", properties: { email: { type: "string" }, password: { type: "string" } } },
        NewUser: {
          type: "object",
          properties: { username: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
        },
        Comment: {
          type: "object",
          properties: { text: { type: "string" }, replies: { type: "array", items: ref("Comment") } },
        },
      },
    },
  };
  const path = join(tempDir("members-"), "restaurant.json");
  writeFileSync(path, JSON.stringify(doc));
  return specModel(path);
}

describe("the body member walker", () => {
  const model = restaurant();
  const body = (op: string) => model.operation(op).requestBody!.content[0]!.schemaPointer!;

  it("lists members at any depth: an envelope, allOf branches, arrays of objects, lists of scalars", () => {
    const shown = bodyMembers(model, body("createOrder")).map((m) => m.shown);
    expect(shown).toEqual([
      "order",
      "order.items",
      "order.items[].menu_item_id",
      "order.items[].quantity",
      "order.tag_ids",
      "order.note",
    ]);
    const line = memberAt(model, body("createOrder"), ["order", "items", EACH, "menu_item_id"])!;
    expect(line.inArray).toBe(true);
    expect(line.required).toBe(false); // `order` itself is optional
    expect(model.validator.validate(line.pointer, 3)).toEqual([]);
    expect(model.validator.validate(line.pointer, "x")).not.toEqual([]);
  });

  it("stops where a schema contains itself, and at its depth", () => {
    const members = bodyMembers(model, "/components/schemas/Comment");
    expect(members.map((m) => m.shown)).toEqual(["text", "replies"]);
    expect(MAX_DEPTH).toBeGreaterThanOrEqual(3);
  });

  it("reads and writes a value at a member's path, in every item, making what is missing, copying the rest", () => {
    const sent = { order: { items: [{ menu_item_id: 41, quantity: 2 }, { menu_item_id: 42 }] } };
    const path = ["order", "items", EACH, "menu_item_id"];
    expect(valuesAt(sent, path)).toEqual([41, 42]);
    const set = setAt(sent, path, 7);
    expect(valuesAt(set, path)).toEqual([7, 7]);
    expect(valuesAt(sent, path)).toEqual([41, 42]);
    expect(setAt({}, ["user", "email"], "a@b.c")).toEqual({ user: { email: "a@b.c" } });
    expect(setAt(undefined, ["items", EACH, "id"], 1)).toEqual({ items: [{ id: 1 }] });
    expect(Object.getPrototypeOf(setAt({}, ["__proto__"], { admin: true }))).toBe(Object.prototype);
  });
});

describe("the login and the register inside an envelope", () => {
  it("finds the user name and the password inside `user`, and sets them there", () => {
    const model = restaurant();
    const login = loginOperation(model);
    expect(login).toMatchObject({ operationId: "login", user: "user.email", password: "user.password" });
    const register = registerOperation(model, "login");
    expect(register).toMatchObject({ operationId: "register", user: "user.username", userPath: ["user", "username"] });
  });

  it("finds them in the accounts server's enveloped document as in its flat one", () => {
    const dir = tempDir("members-accounts-");
    for (const envelope of [false, true]) {
      const model = specModel(writeAccountsDocument(join(dir, String(envelope)), { envelope }));
      const wrap = (name: string) => (envelope ? `user.${name}` : name);
      expect(loginOperation(model)).toMatchObject({ user: wrap("username"), password: wrap("password") });
      expect(registerOperation(model, "loginUser")).toMatchObject({
        operationId: "registerUser",
        family: "/users/{username}",
      });
    }
  });
});

describe("references at any depth", () => {
  it("feeds a member in an array of objects, a list of ids and a query parameter from the listing they name", () => {
    const model = restaurant();
    const names = references(model, true).map((r) => r.link.name);
    expect(names).toContain("inferred: listMenu body `/0/id` -> createOrder body `order.items[].menu_item_id`");
    expect(names).toContain("inferred: listTags body `/data/0/id` -> createOrder body `order.tag_ids`");
    expect(names).toContain("inferred: createCustomer body `/id` -> listOrders query `customerId`");
    const tags = references(model, true).find((r) => r.member === "order.tag_ids")!;
    expect(tags.list).toBe(true);
    expect(references(model, false)).toEqual([]);
  });
});

describe("a made-up identifier on a live target", () => {
  const model = restaurant();
  const exchange = (operation: string, status: number, json: unknown, query: Record<string, string> = {}) =>
    ({ operation, request: { json, query }, response: { status, json } }) as unknown as Exchange;
  const menu = new Map([["listMenu", [exchange("listMenu", 200, [{ id: 3 }, { id: 5 }])]]]);
  const order = (id: number) => ({ order: { items: [{ menu_item_id: 3 }, { menu_item_id: id }] } });

  it("puts a refusal in doubt where a reference carries a value no answer named, naming the member", () => {
    expect(madeUpReference(model, true, menu, exchange("createOrder", 404, order(41)))).toMatch(
      /names 41 in the body member order\.items\[\]\.menu_item_id, an identifier the suite made up/,
    );
    expect(madeUpReference(model, true, new Map(), exchange("listOrders", 422, {}, { customerId: "9" }))).toMatch(
      /query parameter customerId/,
    );
  });

  it("leaves a refusal of identifiers the run read (any item of the listing), and any success, to the checks", () => {
    expect(madeUpReference(model, true, menu, exchange("createOrder", 404, order(5)))).toBeUndefined();
    expect(madeUpReference(model, true, menu, exchange("createOrder", 201, order(41)))).toBeUndefined();
    expect(madeUpReference(model, false, menu, exchange("createOrder", 404, order(41)))).toBeUndefined();
  });
});

describe("identifiers not named id, at any depth of a listing", () => {
  it("feed an operation that only reads (a user name inside each article's author), never one that writes", () => {
    const profile = { type: "object", properties: { username: { type: "string" } } };
    const article = { type: "object", properties: { slug: { type: "string" }, author: profile } };
    const doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/articles": {
          get: {
            operationId: "listArticles",
            responses: { "200": ok({ type: "object", properties: { articles: { type: "array", items: article } } }) },
          },
        },
        "/profiles/{username}": {
          parameters: [{ name: "username", in: "path", required: true, schema: { type: "string" } }],
          get: { operationId: "getProfile", responses: { "200": ok(profile) } },
          delete: { operationId: "unfollow", responses: { "200": ok(profile) } },
        },
      },
    };
    const path = join(tempDir("members-"), "blog.json");
    writeFileSync(path, JSON.stringify(doc));
    const model = specModel(path);
    const names = linksTo(model, true, "getProfile").map((l) => l.link.name);
    expect(names.join("\n")).toMatch(/listArticles.*articles\/\*\/author\/username.*getProfile/);
    expect(linksTo(model, true, "unfollow")).toEqual([]);
  });

  it("come from at most three listings per parameter, the nearest to the reader's path first", () => {
    const item = { type: "object", properties: { index: { type: "string" } } };
    const listing = { type: "object", properties: { results: { type: "array", items: item } } };
    const doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/api/monsters": { get: { operationId: "listMonsters", responses: { "200": ok(listing) } } },
        "/api/classes": { get: { operationId: "listClasses", responses: { "200": ok(listing) } } },
        "/api/races": { get: { operationId: "listRaces", responses: { "200": ok(listing) } } },
        "/api/spells/all": { get: { operationId: "listAllSpells", responses: { "200": ok(listing) } } },
        "/api/spells/{index}/levels": { get: { operationId: "spellLevels", responses: { "200": ok(listing) } } },
        "/api/spells/{index}": {
          parameters: [{ name: "index", in: "path", required: true, schema: { type: "string", enum: ["fireball"] } }],
          get: { operationId: "getSpell", responses: { "200": ok(item) } },
        },
      },
    };
    const path = join(tempDir("members-"), "nearest.json");
    writeFileSync(path, JSON.stringify(doc));
    const names = linksTo(specModel(path), true, "getSpell").map((l) => l.link.name);
    expect(names.map((n) => n.split(" ")[1])).toEqual(["listAllSpells", "listMonsters", "listClasses"]);
  });
});

describe("a refusal of a value the run itself created", () => {
  const model = restaurant();
  const create = (status: number, name: string) =>
    ({
      operation: "createCustomer",
      request: { json: { name }, query: {} },
      response: { status, json: {} },
    }) as unknown as Exchange;

  it("is the run's own doing where a member a server may keep unique repeats an earlier create's", () => {
    const earlier = [create(201, "Ann")];
    expect(repeatsOwnValue(model.forRequests, earlier, create(409, "Ann"))).toMatch(/member name repeats "Ann"/);
    expect(repeatsOwnValue(model.forRequests, earlier, create(409, "Bob"))).toBeUndefined();
    expect(repeatsOwnValue(model.forRequests, earlier, create(500, "Ann"))).toBeUndefined();
    expect(repeatsOwnValue(model.forRequests, [], create(409, "Ann"))).toBeUndefined();
  });
});
