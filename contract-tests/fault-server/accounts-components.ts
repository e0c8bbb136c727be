/**
 * The components of the accounts server's document (accounts-document.ts): its security scheme per flavour, and
 * its schemas, VAmPI's way: a register body
 * whose members each carry an example but which has none of its own, a password that is writeOnly and has no
 * maxLength, an e-mail with neither format nor maxLength, and readOnly members the server owns (a user's `admin`,
 * a book's `owner`, an order's `id`, `status` and `owner`).
 */

/** How a flavour of the document says a token is obtained and sent. */
export const ACCOUNTS_AUTH = [
  "bearer-login",
  "apikey-login",
  "token-login",
  "oauth2-password",
  "oauth2-client-credentials",
] as const;
/** One of {@link ACCOUNTS_AUTH}. */
export type AccountsAuth = (typeof ACCOUNTS_AUTH)[number];
/** The header the apikey-login flavour sends its token in. */
export const API_KEY_HEADER = "X-Auth-Token";
/** The OAuth2 flavours' token endpoint, relative to the server (the base URL). */
export const TOKEN_PATH = "/oauth/token";

/** The limits the document sets (the server enforces the same ones). */
export const LIMITS = {
  username: [3, 40],
  password: 6,
  bookTitle: 80,
  secret: 500,
  author: 100,
  quantity: 10,
} as const;

const text = (example: string, more: Record<string, unknown> = {}) => ({ type: "string", ...more, example });
const object = (required: string[], properties: Record<string, unknown>, description?: string) => ({
  type: "object",
  ...(description ? { description } : {}),
  required,
  properties,
});
const listOf = (member: string, schema: string, description: string) =>
  object([member], { [member]: { type: "array", items: { $ref: `#/components/schemas/${schema}` } } }, description);

const username = text("name1", { minLength: LIMITS.username[0], maxLength: LIMITS.username[1] });
const password = text("pass1234", {
  writeOnly: true,
  minLength: LIMITS.password,
  description: "Write-only: sent by the client, never returned.",
});
const email = text("mail1@mail.com");
const owner = text("name1", { readOnly: true, description: "The username of the account that created it." });
const bookTitle = text("bookTitle77", {
  minLength: 1,
  maxLength: LIMITS.bookTitle,
  description: "The book's identifier, chosen by its creator: unique across every account.",
});

/** The schemas of the document; `loginMember`: the member the login answer holds the token in. */
export function accountsSchemas(
  loginMember: "auth_token" | "token" | undefined,
  envelope = false,
): Record<string, unknown> {
  const itemId = {
    type: "integer",
    minimum: 1,
    example: 1,
    description: "The id of an item of the menu (listItems); an id that names no item is a 404.",
  };
  const quantity = { type: "integer", minimum: 1, maximum: LIMITS.quantity, example: 2 };
  const orderLine = object(["item_id", "quantity"], { item_id: itemId, quantity });
  const lines = { type: "array", minItems: 1, maxItems: 5, items: { $ref: "#/components/schemas/OrderLine" } };
  const orderId = { type: "integer", readOnly: true, minimum: 1, example: 1 };
  const status = { type: "string", enum: ["placed", "cancelled"], readOnly: true, example: "placed" };
  // Enveloped, an order lists its items (`items[].item_id`); flat, it names one item.
  const orders = envelope
    ? {
        OrderLine: orderLine,
        NewOrder: object(["items"], { items: lines }, "An order to place."),
        Order: object(
          ["id", "items", "status", "owner"],
          { id: orderId, items: lines, status, owner },
          "An order. Only the account that placed it reads or deletes it.",
        ),
      }
    : {
        Order: object(
          ["id", "item_id", "quantity", "status", "owner"],
          { id: orderId, item_id: itemId, quantity, status, owner },
          "An order. Only the account that placed it reads or deletes it.",
        ),
      };
  return {
    NewUser: object(["username", "password", "email"], { username, password, email }, "A user to register."),
    ...(loginMember
      ? {
          Credentials: object(["username", "password"], { username: text("name1"), password }),
          LoginAnswer: object([loginMember], {
            [loginMember]: text("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.c2lnbmF0dXJl", {
              description: "A JWT to send with every other request.",
            }),
          }),
        }
      : {}),
    User: object(
      ["username", "email", "admin"],
      {
        username,
        email,
        admin: { type: "boolean", readOnly: true, example: false, description: "Set by the server only." },
        password,
      },
      "A user's record. Every signed-in user may read every user's record; it holds no secret.",
    ),
    UserList: listOf("users", "User", "Every user."),
    PasswordChange: object(["password"], { password }),
    EmailChange: object(["email"], { email }),
    UsernameChange: object(["username"], { username }),
    Book: object(
      ["book_title", "secret", "owner"],
      {
        book_title: bookTitle,
        secret: text("secret for bookTitle77", {
          maxLength: LIMITS.secret,
          description: "Only the book's owner reads it.",
        }),
        author: text("Ann Author", { maxLength: LIMITS.author }),
        owner,
      },
      "A book. Only its owner reads, changes or deletes it.",
    ),
    BookUpdate: object(["secret"], {
      secret: text("a new secret", { maxLength: LIMITS.secret }),
      author: text("Ann Author", { maxLength: LIMITS.author }),
    }),
    BookSummary: object(["book_title", "owner"], { book_title: bookTitle, owner }),
    BookList: listOf("books", "BookSummary", "Every user's book titles and owners; never a secret."),
    Item: object(["id", "name", "price"], {
      id: { type: "integer", readOnly: true, minimum: 1, example: 1 },
      name: text("Margherita"),
      price: { type: "number", minimum: 0, example: 8.5 },
    }),
    ItemList: listOf("items", "Item", "The menu (fixed: it cannot be changed through the API)."),
    ...orders,
    Error: object(["status", "message"], { status: text("fail"), message: text("The username is taken.") }),
    Detail: object(["detail"], { detail: text("Item not found") }),
  };
}

/** The security scheme of a flavour, by its name in the document. */
export function securityScheme(auth: AccountsAuth): Record<string, unknown> {
  const flow = (name: string, description: string) => ({
    oauth2: { type: "oauth2", description, flows: { [name]: { tokenUrl: TOKEN_PATH, scopes: {} } } },
  });
  switch (auth) {
    case "bearer-login":
      return {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "The auth_token loginUser answers, as `Authorization: Bearer <auth_token>`.",
        },
      };
    case "apikey-login":
      return {
        tokenAuth: {
          type: "apiKey",
          in: "header",
          name: API_KEY_HEADER,
          description: `The token loginUser answers, in the ${API_KEY_HEADER} header.`,
        },
      };
    case "token-login":
      // The blogging APIs' way (RealWorld's Conduit): an apiKey Authorization header whose prose shows the prefix.
      return {
        tokenAuth: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description:
            "The token loginUser answers, as `Authorization: Token <token>` (for example `Token xxxxx.yyyyy.zzzzz`).",
        },
      };
    case "oauth2-password":
      return flow("password", "A bearer token from the token endpoint, for a user's username and password.");
    case "oauth2-client-credentials":
      return flow("clientCredentials", "A bearer token from the token endpoint, for a client's id and secret.");
  }
}
