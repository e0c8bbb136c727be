/** The accounts server's routes: each path and method with its handler, and how its request is read. */
import { tokenEndpoint } from "./accounts-auth.js";
import { TOKEN_PATH } from "./accounts-components.js";
import {
  createBook,
  createOrder,
  deleteBook,
  deleteOrder,
  getBook,
  getItem,
  getOrder,
  listBooks,
  listItems,
  updateBook,
} from "./accounts-books.js";
import type { Call, Reply } from "./accounts-store.js";
import {
  deleteAccount,
  deleteUser,
  getUser,
  listUsers,
  loginUser,
  registerUser,
  renameAccount,
  updateEmail,
  updatePassword,
} from "./accounts-users.js";

/** One route of the server. */
export interface Route {
  method: string;
  /** Matches the path below the variant's base URL; its groups are `params`, in order. */
  pattern: RegExp;
  params: string[];
  /** The operationId (the token endpoint, outside the document, is `oauthToken`). */
  op: string;
  /** Whose error shape its refusals take: VAmPI's `{status, message}` or FastAPI's `{detail}`. */
  family: "users" | "orders";
  /** Needs a token. */
  secured: boolean;
  /** How its body is read. */
  body: "json" | "form" | "none";
  handle(call: Call): Reply;
}

const route = (
  method: string,
  path: string,
  op: string,
  handle: (call: Call) => Reply,
  more: Partial<Pick<Route, "family" | "secured" | "body">> = {},
): Route => {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, "([^/]+)")}$`);
  const body = more.body ?? (method === "POST" || method === "PUT" ? "json" : "none");
  return { method, pattern, params, op, family: "users", secured: true, ...more, body, handle };
};

/** Every route, the document's operations and the OAuth2 token endpoint. */
export const ROUTES: readonly Route[] = [
  route("POST", TOKEN_PATH, "oauthToken", tokenEndpoint, { secured: false, body: "form" }),
  route("POST", "/users/register", "registerUser", registerUser, { secured: false }),
  route("POST", "/users/login", "loginUser", loginUser, { secured: false }),
  route("GET", "/users", "listUsers", listUsers),
  route("GET", "/users/{username}", "getUser", getUser),
  route("DELETE", "/users/{username}", "deleteUser", deleteUser),
  route("PUT", "/users/{username}/password", "updatePassword", updatePassword),
  route("PUT", "/users/{username}/email", "updateEmail", updateEmail),
  route("DELETE", "/account", "deleteAccount", deleteAccount),
  route("POST", "/account/username", "renameAccount", renameAccount),
  route("GET", "/books", "listBooks", listBooks),
  route("POST", "/books", "createBook", createBook),
  route("GET", "/books/{book_title}", "getBook", getBook),
  route("PUT", "/books/{book_title}", "updateBook", updateBook),
  route("DELETE", "/books/{book_title}", "deleteBook", deleteBook),
  route("GET", "/items", "listItems", listItems, { family: "orders" }),
  route("GET", "/items/{itemId}", "getItem", getItem, { family: "orders" }),
  route("POST", "/orders", "createOrder", createOrder, { family: "orders" }),
  route("GET", "/orders/{orderId}", "getOrder", getOrder, { family: "orders" }),
  route("DELETE", "/orders/{orderId}", "deleteOrder", deleteOrder, { family: "orders" }),
];
