/**
 * The OpenAPI 3.0.3 document of the accounts server (accounts.ts): users who register and sign in, books only
 * their owner reads, a read-only menu and orders. Its flavours differ in how a token is obtained and sent (a
 * login answering a bearer JWT or an X-Auth-Token key, or an OAuth2 password or client-credentials flow), and
 * come with OpenAPI links between the operations or with none (the suite must then infer them).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ACCOUNTS_AUTH, type AccountsAuth, accountsSchemas, LIMITS, securityScheme } from "./accounts-components.js";

/** Which flavour of the document. */
export interface AccountsDocumentOptions {
  /** With OpenAPI links where one answer names another operation's parameter (default: none). */
  links?: boolean;
  /** Default `bearer-login`. */
  auth?: AccountsAuth;
  /** False: the document has no register operation (a client cannot make accounts of its own). Default true. */
  register?: boolean;
  /**
   * Every request body wraps its members in an envelope, as many real APIs do (`{"user": {...}}`, `{"book": {...}}`,
   * `{"order": {...}}`), and an order lists its items (`{"order": {"items": [{"item_id": 1, "quantity": 2}]}}`); served
   * by the `enveloped` variant (default: flat bodies).
   */
  envelope?: boolean;
}

/** The envelope each request body schema is wrapped in (options.envelope). */
const ENVELOPES: Record<string, string> = {
  NewUser: "user",
  Credentials: "user",
  PasswordChange: "user",
  EmailChange: "user",
  Book: "book",
  BookUpdate: "book",
  NewOrder: "order",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (description: string, schema: string, links?: Record<string, unknown>) => ({
  description,
  content: { "application/json": { schema: ref(schema) } },
  ...(links ? { links } : {}),
});
const fail = (description: string) => json(description, "Error");
const problem = (description: string) => json(description, "Detail");
const requestBody = (schema: string, description?: string, envelope = false) => ({
  required: true,
  ...(description ? { description } : {}),
  content: {
    "application/json": {
      schema: envelope
        ? { type: "object", required: [ENVELOPES[schema]!], properties: { [ENVELOPES[schema]!]: ref(schema) } }
        : ref(schema),
    },
  },
});
const noContent = (description: string) => ({ description });
const pathParameter = (name: string, schema: Record<string, unknown>) => ({ name, in: "path", required: true, schema });

/** The accounts server's document as an object, in the flavour `options` asks for. */
export function accountsDocument(options: AccountsDocumentOptions = {}): Record<string, unknown> {
  const auth = options.auth ?? "bearer-login";
  const links = options.links === true;
  const envelope = options.envelope === true;
  const body = (schema: string, description?: string) => requestBody(schema, description, envelope);
  const withLinks = (pairs: Record<string, [string, Record<string, string>]>) =>
    links
      ? Object.fromEntries(
          Object.entries(pairs).map(([name, [op, parameters]]) => [name, { operationId: op, parameters }]),
        )
      : undefined;
  const loginMember =
    auth === "bearer-login" ? "auth_token" : auth === "apikey-login" || auth === "token-login" ? "token" : undefined;
  const schemes = securityScheme(auth);
  const unauthorized = fail("No token, or a token that is not valid (forged, expired, or of a deleted account).");
  const unauthorizedOrder = problem("No token, or a token that is not valid.");
  const invalid = fail("The body breaks its schema.");
  const noUser = fail("No user has this username.");
  const op = (operationId: string, tag: string, summary: string, rest: Record<string, unknown>) => ({
    operationId,
    tags: [tag],
    summary,
    ...rest,
  });
  const username = pathParameter("username", {
    type: "string",
    minLength: LIMITS.username[0],
    maxLength: LIMITS.username[1],
  });
  const bookTitle = pathParameter("book_title", { type: "string", minLength: 1, maxLength: LIMITS.bookTitle });
  const orderId = pathParameter("orderId", { type: "integer", minimum: 1 });
  const itemId = pathParameter("itemId", { type: "integer", minimum: 1 });
  const bookLinks = (expr: string) =>
    withLinks({
      GetBook: ["getBook", { book_title: expr }],
      UpdateBook: ["updateBook", { book_title: expr }],
      DeleteBook: ["deleteBook", { book_title: expr }],
    });
  const doc = {
    openapi: "3.0.3",
    info: {
      title: "Accounts fault server",
      version: "1.0.0",
      description:
        "Users, their books and orders from a small menu. Every operation but registerUser" +
        (loginMember ? " and loginUser" : "") +
        " needs a token.",
      license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      contact: { name: "webauto-api", url: "https://github.com/webauto-api/webauto-api" },
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "users", description: "Accounts and signing in." },
      { name: "books", description: "Books: each user's own." },
      { name: "menu", description: "The restaurant's menu." },
      { name: "orders", description: "Orders of menu items." },
    ],
    security: [{ [Object.keys(schemes)[0]!]: [] }],
    paths: {
      "/users/register": {
        post: op("registerUser", "users", "Register a new user", {
          description: "Anyone may register; the new user is never an admin. Unknown members of the body are ignored.",
          security: [],
          requestBody: body("NewUser"),
          responses: {
            "201": json(
              "The user registered.",
              "User",
              withLinks({
                GetUser: ["getUser", { username: "$response.body#/username" }],
                UpdatePassword: ["updatePassword", { username: "$response.body#/username" }],
                UpdateEmail: ["updateEmail", { username: "$response.body#/username" }],
              }),
            ),
            "400": invalid,
            "409": fail("The username is taken."),
          },
        }),
      },
      ...(loginMember
        ? {
            "/users/login": {
              post: op("loginUser", "users", "Sign in and get a token", {
                description: "Answers a JWT for a username and password.",
                security: [],
                requestBody: body("Credentials"),
                responses: {
                  "200": json(`A token (the ${loginMember} member) to send with every other request.`, "LoginAnswer"),
                  "400": invalid,
                  "401": fail("The username or password is not correct."),
                },
              }),
            },
          }
        : {}),
      "/users": {
        get: op("listUsers", "users", "List every user", {
          description: "Every signed-in user may list every user's record.",
          responses: { "200": json("Every user's record.", "UserList"), "401": unauthorized },
        }),
      },
      "/users/{username}": {
        parameters: [username],
        get: op("getUser", "users", "Read a user's record", {
          description: "Every signed-in user may read every user's record.",
          responses: { "200": json("The user's record.", "User"), "401": unauthorized, "404": noUser },
        }),
        delete: op("deleteUser", "users", "Delete a user (admins only)", {
          description: "Only an admin may delete a user; the user's books and orders go with it.",
          responses: {
            "204": noContent("The user is deleted."),
            "401": fail("The caller is not an admin (or has no valid token)."),
            "404": noUser,
          },
        }),
      },
      "/users/{username}/password": {
        parameters: [username],
        put: op("updatePassword", "users", "Change a user's password", {
          description: "Only the user themselves may change their password.",
          requestBody: body("PasswordChange"),
          responses: {
            "204": noContent("The password is changed."),
            "400": invalid,
            "401": unauthorized,
            "403": fail("The caller is not this user: only the user themselves may change their password."),
            "404": noUser,
          },
        }),
      },
      "/users/{username}/email": {
        parameters: [username],
        put: op("updateEmail", "users", "Change a user's e-mail address", {
          description: "Only the user themselves may change their e-mail address.",
          requestBody: body("EmailChange"),
          responses: {
            "204": noContent("The e-mail address is changed."),
            "400": invalid,
            "401": unauthorized,
            "403": fail("The caller is not this user: only the user themselves may change their e-mail address."),
            "404": noUser,
          },
        }),
      },
      "/account": {
        delete: op("deleteAccount", "users", "Delete the caller's own account", {
          description: "Deletes the caller's account, books and orders; its tokens are refused from then on.",
          responses: { "204": noContent("The account is deleted."), "401": unauthorized },
        }),
      },
      "/account/username": {
        post: op("renameAccount", "users", "Rename the caller's own account", {
          description:
            "The caller's account takes the new username (its books and orders follow); the old name is free again " +
            "and logs in no more.",
          requestBody: body("UsernameChange"),
          responses: {
            "204": noContent("The account is renamed."),
            "400": invalid,
            "401": unauthorized,
            "409": fail("The username is taken."),
          },
        }),
      },
      "/books": {
        get: op("listBooks", "books", "List every user's book titles", {
          description: "Every user's titles and owners; never a book's secret.",
          responses: { "200": json("The titles and their owners.", "BookList"), "401": unauthorized },
        }),
        post: op("createBook", "books", "Add a book", {
          description: "The caller becomes the book's owner; the title must be free across every account.",
          requestBody: body("Book", "The book; its owner is the caller."),
          responses: {
            "201": json("The book added.", "Book", bookLinks("$response.body#/book_title")),
            "400": invalid,
            "401": unauthorized,
            "409": fail("A book (of any user) already has this title."),
          },
        }),
      },
      "/books/{book_title}": {
        parameters: [bookTitle],
        get: op("getBook", "books", "Read one of the caller's books", {
          description: "Only the book's owner reads it.",
          responses: {
            "200": json("The book, with its secret.", "Book"),
            "401": unauthorized,
            "404": fail("The caller owns no book of this title (none exists, or it is another user's)."),
          },
        }),
        put: op("updateBook", "books", "Change one of the caller's books", {
          description: "Only the book's owner changes it.",
          requestBody: body("BookUpdate"),
          responses: {
            "200": json("The book as changed.", "Book"),
            "400": invalid,
            "401": unauthorized,
            "403": fail("The book belongs to another user."),
            "404": fail("No book has this title."),
          },
        }),
        delete: op("deleteBook", "books", "Delete one of the caller's books", {
          description: "Only the book's owner deletes it.",
          responses: {
            "204": noContent("The book is deleted."),
            "401": unauthorized,
            "403": fail("The book belongs to another user."),
            "404": fail("No book has this title."),
          },
        }),
      },
      "/items": {
        get: op("listItems", "menu", "List the menu", {
          description: "The menu is fixed: it cannot be changed through the API.",
          responses: {
            "200": json(
              "Every item of the menu.",
              "ItemList",
              withLinks({ GetItem: ["getItem", { itemId: "$response.body#/items/0/id" }] }),
            ),
            "401": unauthorizedOrder,
          },
        }),
      },
      "/items/{itemId}": {
        parameters: [itemId],
        get: op("getItem", "menu", "Read an item of the menu", {
          description: "Any signed-in user may read any item.",
          responses: {
            "200": json("The item.", "Item"),
            "401": unauthorizedOrder,
            "404": problem("No item has this id."),
          },
        }),
      },
      "/orders": {
        post: op("createOrder", "orders", "Order an item", {
          description: "The caller becomes the order's owner; item_id names an item of the menu (listItems).",
          requestBody: envelope
            ? body("NewOrder", "The order; each item_id names an item of the menu (listItems).")
            : body("Order", "The order; item_id names an item of the menu (listItems)."),
          responses: {
            "201": json(
              "The order placed.",
              "Order",
              withLinks({
                GetOrder: ["getOrder", { orderId: "$response.body#/id" }],
                DeleteOrder: ["deleteOrder", { orderId: "$response.body#/id" }],
              }),
            ),
            "400": problem("The body is not a JSON object."),
            "401": unauthorizedOrder,
            "404": problem("No item of the menu has this item_id."),
            "422": problem("A member breaks its schema (an item_id that is not an integer, a quantity out of range)."),
          },
        }),
      },
      "/orders/{orderId}": {
        parameters: [orderId],
        get: op("getOrder", "orders", "Read one of the caller's orders", {
          description: "Only the account that placed an order reads it.",
          responses: {
            "200": json("The order.", "Order"),
            "401": unauthorizedOrder,
            "404": problem("The caller placed no order of this id (none exists, or another account placed it)."),
          },
        }),
        delete: op("deleteOrder", "orders", "Delete one of the caller's orders", {
          description: "Only the account that placed an order deletes it.",
          responses: {
            "204": noContent("The order is deleted."),
            "401": unauthorizedOrder,
            "404": problem("The caller placed no order of this id (none exists, or another account placed it)."),
          },
        }),
      },
    },
    components: { securitySchemes: schemes, schemas: accountsSchemas(loginMember, envelope) },
  };
  if (options.register === false) delete (doc.paths as Record<string, unknown>)["/users/register"];
  return doc;
}

/** Writes the document in the flavour `options` asks for as JSON into `dir`; returns its path. */
export function writeAccountsDocument(dir: string, options: AccountsDocumentOptions = {}): string {
  mkdirSync(dir, { recursive: true });
  const path = join(
    dir,
    `accounts-${options.auth ?? "bearer-login"}${options.links ? "-links" : ""}` +
      `${options.register === false ? "-no-register" : ""}.openapi.json`,
  );
  writeFileSync(path, JSON.stringify(accountsDocument(options), null, 2));
  return path;
}

/** Every flavour of the document written into `dir`: by flavour, the path of its form without links and with. */
export function writeAccountsDocuments(dir: string): Record<AccountsAuth, { plain: string; links: string }> {
  return Object.fromEntries(
    ACCOUNTS_AUTH.map((auth) => [
      auth,
      { plain: writeAccountsDocument(dir, { auth }), links: writeAccountsDocument(dir, { auth, links: true }) },
    ]),
  ) as Record<AccountsAuth, { plain: string; links: string }>;
}
