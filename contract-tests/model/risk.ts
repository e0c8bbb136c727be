/**
 * What a request may do to every other request of a run, read from the document: an operation that rebuilds or
 * wipes the server's shared data (a GET that drops and re-creates the database, a seed or reset endpoint). The
 * executor sends such an operation's scenarios before everything else, one request at a time, with nothing else in
 * flight (engine/executor.ts): beside a create, a reset makes it fail for a reason that is no fault of the create.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import type { SpecModel } from "./model.js";

/** What rebuilds or wipes data: reset, seed, populate, wipe, drop, re-create, truncate, purge, re-initialise. */
const VERB = new RegExp(
  `\\b(?:${[
    "re-?set(?:s|ting)?",
    "re-?seed(?:s|ed|ing)?",
    "seed(?:s|ed|ing)?",
    "populat(?:e|es|ed|ing)",
    "wip(?:e|es|ed|ing)",
    "drop(?:s|ped|ping)?",
    "re-?creat(?:e|es|ed|ing)",
    "truncat(?:e|es|ed|ing)",
    "purg(?:e|es|ed|ing)",
    "re-?initiali[sz](?:e|es|ed|ing)",
  ].join("|")})\\b`,
  "i",
);
/** What a verb above must act on, in the same sentence. */
const SHARED = new RegExp(
  `\\b(?:${[
    "data(?:base|set)?s?",
    "db",
    "tables?",
    "stores?",
    "storage",
    "state",
    "fixtures?",
    "sample data",
    "everything",
    "all (?:the )?(?:data|records|entries|rows|resources)",
  ].join("|")})\\b`,
  "i",
);
/** Words that make a reset the account's own business (a password reset), never the shared data's. */
const PERSONAL = /\b(?:password|passcode|passphrase|pin|credentials?|token|session|otp|e-?mail|avatar|cache)\b/i;
/** Names (operationId, path segments) that say reset or seed by themselves. */
const NAMED = /^(?:reset|reseed|seed|wipe|populate|purge|truncate|recreate|reinitiali[sz]e|initdb|resetdb|seeddb)$/i;

/** The words of an identifier (`resetDatabase`, `/admin/reset-db` -> reset, database; admin, reset, db). */
const wordsOf = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);

/**
 * True when the document describes `op` as rebuilding or wiping shared data: a sentence of its summary or
 * description says so (a verb above acting on the data, the database, a table, the store), or a word of its
 * operationId or path is such a verb (`resetDatabase`, `/admin/reset`, `/seed`). A reset of a password, a token or
 * a session is not one. Whatever the method: a GET that drops and re-creates the database is one too.
 */
export function resetsSharedState(model: Pick<SpecModel, "at">, op: OperationEntry): boolean {
  const object = model.at(op.pointer) as { description?: unknown } | undefined;
  const description = typeof object?.description === "string" ? object.description : "";
  const sentences = `${op.summary ?? ""}. ${description}`.split(/[.;:!?\n]+/);
  if (sentences.some((s) => VERB.test(s) && SHARED.test(s) && !PERSONAL.test(s))) return true;
  const words = [
    ...wordsOf(op.operationId),
    ...op.path
      .split("/")
      .filter((seg) => !seg.includes("{"))
      .flatMap(wordsOf),
  ];
  if (words.some((w) => PERSONAL.test(w))) return false;
  return words.some((w) => NAMED.test(w));
}
