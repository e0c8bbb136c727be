/**
 * The catalogue of the accounts server (accounts.ts): each planted fault, what it does and the checks of the
 * suite that must catch it, and the lenient variants that must pass. A variant's name is its faults joined by
 * `+`; `conforming` plants none.
 */

/** The suite's check ids the accounts server's faults are proven against (a misspelt id does not compile). */
export type AccountsCheck =
  | "foreign_write"
  | "misdirected_write"
  | "account_isolation"
  | "not_a_server_error"
  | "server_owned_member"
  | "write_only_exposed"
  | "hostile_input"
  | "server_stopped_answering"
  | "forged_credential"
  | "revoked_credential"
  | "response_schema_conformance"
  | "positive_data_acceptance"
  | "status_code_conformance"
  | "content_type_conformance"
  | "ignored_auth"
  | "unknown_resource"
  | "undocumented_properties";

/** What a planted fault does and which checks must report it as an error. */
export interface AccountsFaultExpectation {
  catches: readonly AccountsCheck[];
  /** The bug, as a reviewer would describe it. */
  what: string;
  /** Reached only by a client that acts with a second account beside the first (OWASP API1 and the like). */
  secondAccount?: true;
  /** The variant stops answering every request (a while: the server's freezeMs; or forever). */
  stops?: "for-a-while" | "forever";
  /** Caught only under CONTRACT_STRICT=1 (the document does not forbid it: a warning otherwise). */
  strict?: readonly AccountsCheck[];
}

/** Fault name -> what it does and the checks that must catch it; any other failing check is a false alarm. */
export const ACCOUNTS_FAULTS = {
  "foreign-password-change": {
    catches: ["foreign_write"],
    what: "user A changes user B's password (204, and B's old password no longer logs in)",
    secondAccount: true,
  },
  "email-update-ignores-path": {
    // The update addressed to B is answered 204 (accepted), and lands on the caller's record (misdirected).
    catches: ["misdirected_write", "foreign_write"],
    what: "an e-mail update addressed to B changes the caller's record instead (the path is ignored; 204)",
    secondAccount: true,
  },
  "foreign-book-update": {
    catches: ["foreign_write"],
    what: "another account updates a book it does not own",
    secondAccount: true,
  },
  "foreign-book-delete": {
    catches: ["foreign_write"],
    what: "another account deletes a book it does not own",
    secondAccount: true,
  },
  "foreign-book-read": {
    catches: ["account_isolation"],
    what: "another account reads a book's secret by its title",
    secondAccount: true,
  },
  "duplicate-title-overwrites": {
    catches: ["foreign_write"],
    what:
      "the title check looks only at the caller's own books: a create with a title another account holds " +
      "overwrites theirs (201); a duplicate of one's own title is still a 409",
    secondAccount: true,
  },
  "duplicate-title-500": {
    catches: ["not_a_server_error"],
    what: "the same create with another account's title hits the store's unique index: 500",
    secondAccount: true,
  },
  "register-admin": {
    catches: ["server_owned_member"],
    what: 'a register body with "admin": true (no request schema declares it) makes an admin (mass assignment)',
  },
  "owner-from-body": {
    catches: ["server_owned_member"],
    what: "a create of a book or an order takes `owner` (readOnly) from the request body",
  },
  "password-in-response": {
    catches: ["write_only_exposed"],
    what: "user records (register, read, list) carry the password, which the document marks writeOnly",
  },
  "sql-quote-500": {
    catches: ["not_a_server_error"],
    what: "a username or book title holding a single quote answers 500 (pasted into SQL), wherever it is taken",
  },
  "quote-breaks-json": {
    catches: ["content_type_conformance"],
    what: 'a username holding " is stored; the user reads answer 200 with a body glued by hand that is not JSON',
  },
  "template-evaluated": {
    catches: ["hostile_input"],
    what: "a string member holding {{7*7}} or ${7*7} is stored (and returned) as 49",
  },
  "nul-500": {
    catches: ["not_a_server_error"],
    what: "a NUL character in any string member (or path parameter) answers 500",
  },
  "redos-email": {
    catches: ["server_stopped_answering"],
    what:
      "an e-mail of more than 256 characters that does not end like a domain makes the validation regex " +
      "backtrack: the variant answers nothing, the culprit included, until the freeze ends",
    stops: "for-a-while",
  },
  "redos-email-forever": {
    catches: ["server_stopped_answering"],
    what: "the same e-mail, and the variant never answers again",
    stops: "forever",
  },
  "jwt-signature-ignored": {
    catches: ["forged_credential"],
    what: "a bearer JWT with a broken signature is accepted",
  },
  "jwt-alg-none": {
    catches: ["forged_credential"],
    what: "a JWT with alg none and no signature is accepted",
  },
  "deleted-account-token": {
    catches: ["revoked_credential"],
    what: "after DELETE /account the deleted account's token is still accepted (200s)",
  },
  "deleted-account-token-500": {
    catches: ["revoked_credential", "not_a_server_error"],
    what: "after DELETE /account the deleted account's token answers 500 (the lookup of its user fails)",
  },
  "order-behind-item-422": {
    // One response, one finding: the refusal of a valid order, its body's broken schema noted under it.
    catches: ["positive_data_acceptance"],
    what:
      "a createOrder with a real item_id and quantity 10 answers a 422 whose body breaks the documented " +
      "schema; an unknown item_id gets the documented 404, so only a client that takes item_id from the " +
      "listing reaches it (with `enveloped`: an order whose lines, `order.items[]`, total 10 or more, each line's " +
      "item_id a real one)",
  },
  // Beyond the brief's list: the same classes of bug, as a reviewer of such an API would expect them.
  "book-list-leaks-secrets": {
    // The listing's schema does not forbid other members: an undocumented member is a warning, an error under strict.
    catches: [],
    strict: ["undocumented_properties"],
    what:
      "the book listing (documented: every user's titles and owners, no secrets) carries every book's " +
      "secret (excessive data exposure: the handler returns whole records)",
    secondAccount: true,
  },
  "foreign-order-read": {
    catches: ["account_isolation"],
    what: "another account reads an order by its sequential id (the classic BOLA on integer ids)",
    secondAccount: true,
  },
  "foreign-order-delete": {
    catches: ["foreign_write"],
    what: "another account deletes an order it did not place",
    secondAccount: true,
  },
  "email-update-merges-body": {
    catches: ["server_owned_member"],
    what: 'an e-mail update merges its whole body into the record, so "admin": true beside the email makes an admin',
  },
  "list-books-without-token": {
    catches: ["ignored_auth"],
    what: "the book listing answers 200 to a request with no token (its route lost its guard)",
  },
  "missing-token-403": {
    catches: ["ignored_auth"],
    what: "the user listing answers 403 to a request with no token, where the document promises 401",
  },
  "unknown-user-403": {
    catches: ["unknown_resource"],
    what: "a user read answers 403 for a username that does not exist, where the document promises 404",
  },
} as const satisfies Record<string, AccountsFaultExpectation>;

/** A planted fault of the accounts server. */
export type AccountsFault = keyof typeof ACCOUNTS_FAULTS;

/**
 * The phases that reach each fault (CONTRACT_PHASES of its self-test run, and of `npm run measure:findings`): a whole
 * run reaches them all; these keep the test within its time.
 */
export const ACCOUNTS_PHASES: Record<AccountsFault, string> = {
  "foreign-password-change": "authorization",
  "email-update-ignores-path": "authorization",
  "foreign-book-update": "authorization",
  "foreign-book-delete": "authorization",
  "foreign-book-read": "authorization",
  "duplicate-title-overwrites": "authorization",
  "duplicate-title-500": "authorization",
  "register-admin": "owned-members",
  "owner-from-body": "owned-members",
  "email-update-merges-body": "owned-members",
  "password-in-response": "examples",
  "sql-quote-500": "hostile",
  "quote-breaks-json": "hostile",
  "template-evaluated": "hostile",
  "nul-500": "hostile",
  "redos-email": "edges",
  "redos-email-forever": "edges",
  "jwt-signature-ignored": "auth",
  "jwt-alg-none": "auth",
  "deleted-account-token": "positive",
  "deleted-account-token-500": "positive",
  "order-behind-item-422": "positive",
  "book-list-leaks-secrets": "examples",
  "foreign-order-read": "authorization",
  "foreign-order-delete": "authorization",
  "list-books-without-token": "auth",
  "missing-token-403": "auth",
  "unknown-user-403": "unknown-ids",
};

/** Lenient, conforming variants: each takes a freedom the document leaves, and must pass with no error. */
export const ACCOUNTS_LENIENT = {
  "unique-email":
    "a register with an e-mail another user holds is refused with the documented 409, as a username is: a client " +
    "that sends the document's example e-mail twice is refused the second time (its own doing, no finding)",
  enveloped:
    'every request body wraps its members in an envelope ({"user": {...}}, {"book": {...}}, {"order": ' +
    '{"items": [...]}}) as the document written with `envelope` says, and a body without it is refused with the ' +
    "documented 400",
  "lenient-token-expiry":
    "tokens expire after a short time or a few uses (the server's tokenTtlMs and tokenUses) and are then " +
    "refused with the documented 401: the document promises no lifetime, so a client logs in again once",
  "lenient-403-without-token":
    "the two updates of a user answer 403 to a request with no token: they document 403 beside 401, so either is " +
    "the documented refusal",
  "lenient-login-revoked":
    "mid-run, someone else changes the first account's password and ends its sessions: its token is refused and " +
    "logging in again fails. The document promises no account's lifetime: the run says so in one warning " +
    "(credentials_lost) and is incomplete, with no error per refused request",
  "lenient-second-tokens":
    "a token is a function of the account and the second it is issued in (no random id): two logins within a " +
    "second get the same token, which a client must still send as it is, never as the reports' mask",
} as const;

/** A lenient variant of the accounts server. */
export type AccountsLenient = keyof typeof ACCOUNTS_LENIENT;

/** A name a variant of the accounts server is made of (a planted fault or a lenient freedom). */
export type AccountsVariant = AccountsFault | AccountsLenient;
