/**
 * The accounts server's books (VAmPI's: a title the client chooses, a secret only its owner reads) and its
 * restaurant part (a read-only menu, orders by sequential integer id), each with its planted faults.
 */
import {
  type Book,
  type Call,
  createdAt,
  detail,
  fail,
  isObject,
  isReply,
  isText,
  ITEMS,
  type Order,
  type Reply,
} from "./accounts-store.js";
import { LIMITS } from "./accounts-components.js";

/** Why a book body breaks its schema (a create's, or with `update` an update's), or undefined. */
function invalidBook(body: unknown, update: boolean): string | undefined {
  if (!isObject(body)) return "the body must be a JSON object";
  if (!update && !isText(body.book_title, 1, LIMITS.bookTitle))
    return `book_title must be a string of 1 to ${LIMITS.bookTitle} characters`;
  if (!isText(body.secret, 0, LIMITS.secret)) return `secret must be a string of at most ${LIMITS.secret} characters`;
  if (body.author !== undefined && !isText(body.author, 0, LIMITS.author))
    return `author must be a string of at most ${LIMITS.author} characters`;
  return undefined;
}

/** `owner-from-body`: a readOnly owner sent by the client is taken as it is. */
function ownerOf(call: Call): string {
  const sent = isObject(call.body) ? call.body.owner : undefined;
  return call.faults.has("owner-from-body") && typeof sent === "string" ? sent : call.caller.username;
}

/** POST /books: the title is the book's identifier, unique across every account. */
export function createBook(call: Call): Reply {
  const why = invalidBook(call.body, false);
  if (why) return fail(400, `Invalid body: ${why}.`);
  const body = call.body as Record<string, string>;
  const held = call.store.books.get(body.book_title!);
  // The planted bugs check the title against the caller's own books only; the store's key is the title alone.
  const ownCheckOnly = call.faults.has("duplicate-title-overwrites") || call.faults.has("duplicate-title-500");
  if (held && (!ownCheckOnly || held.owner === call.caller.username)) return fail(409, "The book title is taken.");
  if (held && call.faults.has("duplicate-title-500"))
    return { status: 500, body: { message: "UNIQUE constraint failed: books.book_title" } };
  const book: Book = {
    book_title: body.book_title!,
    secret: body.secret!,
    owner: ownerOf(call),
    created_at: createdAt(),
  };
  if (body.author !== undefined) book.author = body.author;
  call.store.books.set(book.book_title, book);
  return { status: 201, body: book };
}

/** GET /books: every user's titles and owners, no secrets. */
export function listBooks(call: Call): Reply {
  const leak = call.faults.has("book-list-leaks-secrets");
  const books = [...call.store.books.values()].map((b) =>
    leak ? { ...b } : { book_title: b.book_title, owner: b.owner },
  );
  return { status: 200, body: { books } };
}

/** A book the caller may reach by its title: its own, or another's where the fault `reach` is planted. */
function reachable(call: Call, reach: string): Book | Reply {
  const book = call.store.books.get(call.params.book_title!);
  if (!book) return fail(404, "No book of yours has this title.");
  if (book.owner !== call.caller.username && !call.faults.has(reach))
    return reach === "foreign-book-read"
      ? fail(404, "No book of yours has this title.")
      : fail(403, "The book belongs to another user.");
  return book;
}

/** GET /books/{book_title}: its owner only (another user's title is a 404, as an unknown one). */
export function getBook(call: Call): Reply {
  const book = reachable(call, "foreign-book-read");
  return isReply(book) ? book : { status: 200, body: book };
}

/** PUT /books/{book_title}: its owner only. */
export function updateBook(call: Call): Reply {
  const why = invalidBook(call.body, true);
  if (why) return fail(400, `Invalid body: ${why}.`);
  const book = reachable(call, "foreign-book-update");
  if (isReply(book)) return book;
  const body = call.body as Record<string, string>;
  book.secret = body.secret!;
  if (body.author !== undefined) book.author = body.author;
  return { status: 200, body: book };
}

/** DELETE /books/{book_title}: its owner only. */
export function deleteBook(call: Call): Reply {
  const book = reachable(call, "foreign-book-delete");
  if (isReply(book)) return book;
  call.store.books.delete(book.book_title);
  return { status: 204 };
}

/** An integer path id, or undefined (an id that is not one names nothing: 404). */
const idOf = (text: string | undefined) => (text && /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined);

/** GET /items. */
export const listItems = (): Reply => ({ status: 200, body: { items: ITEMS } });

/** GET /items/{itemId}. */
export function getItem(call: Call): Reply {
  const item = ITEMS.find((i) => i.id === idOf(call.params.itemId));
  return item ? { status: 200, body: item } : detail(404, "Item not found");
}

/** POST /orders of the `enveloped` variant: an order of 1 to 5 lines, each an item of the menu and its quantity. */
function createOrderOfLines(call: Call, body: Record<string, unknown>): Reply {
  const lines = body.items;
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > 5)
    return detail(422, "items must list 1 to 5 items of the menu.");
  for (const line of lines) {
    if (!isObject(line) || !Number.isInteger(line.item_id)) return detail(422, "item_id must be an integer.");
    const q = line.quantity;
    if (!Number.isInteger(q) || (q as number) < 1 || (q as number) > LIMITS.quantity)
      return detail(422, `quantity must be an integer from 1 to ${LIMITS.quantity}.`);
  }
  const read = lines as Array<{ item_id: number; quantity: number }>;
  if (!read.every((l) => ITEMS.some((i) => i.id === l.item_id))) return detail(404, "Item not found");
  // The planted bug, enveloped: the stock check of an order whose lines total 10 or more answers its own body.
  const total = read.reduce((n, l) => n + l.quantity, 0);
  if (total >= LIMITS.quantity && call.faults.has("order-behind-item-422")) return { status: 422, body: { error: 5 } };
  const order: Order = {
    id: call.store.nextOrder++,
    items: read.map((l) => ({ item_id: l.item_id, quantity: l.quantity })),
    status: "placed",
    owner: ownerOf(call),
    created_at: createdAt(),
  };
  call.store.orders.set(order.id, order);
  return { status: 201, body: order };
}

/** POST /orders: 400 for a body that is not an object, 422 for a member that breaks its schema. */
export function createOrder(call: Call): Reply {
  const body = call.body;
  if (!isObject(body)) return detail(400, "The body must be a JSON object.");
  if (call.faults.has("enveloped")) return createOrderOfLines(call, body);
  if (!Number.isInteger(body.item_id)) return detail(422, "item_id must be an integer.");
  const quantity = body.quantity;
  if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > LIMITS.quantity)
    return detail(422, `quantity must be an integer from 1 to ${LIMITS.quantity}.`);
  if (!ITEMS.some((i) => i.id === body.item_id)) return detail(404, "Item not found");
  // The planted bug: the stock check's own error body, in no documented shape.
  if (quantity === LIMITS.quantity && call.faults.has("order-behind-item-422"))
    return { status: 422, body: { error: 5 } };
  const order: Order = {
    id: call.store.nextOrder++,
    item_id: body.item_id as number,
    quantity: quantity as number,
    status: "placed",
    owner: ownerOf(call),
    created_at: createdAt(),
  };
  call.store.orders.set(order.id, order);
  return { status: 201, body: order };
}

/** The caller's order by its path id (another's where the fault `reach` is planted), or the 404. */
function ownOrder(call: Call, reach: string): Order | Reply {
  const order = call.store.orders.get(idOf(call.params.orderId) ?? 0);
  return order && (order.owner === call.caller.username || call.faults.has(reach))
    ? order
    : detail(404, "Order not found");
}

/** GET /orders/{orderId}: its owner only. */
export function getOrder(call: Call): Reply {
  const order = ownOrder(call, "foreign-order-read");
  return isReply(order) ? order : { status: 200, body: order };
}

/** DELETE /orders/{orderId}: its owner only. */
export function deleteOrder(call: Call): Reply {
  const order = ownOrder(call, "foreign-order-delete");
  if (isReply(order)) return order;
  call.store.orders.delete(order.id);
  return { status: 204 };
}
