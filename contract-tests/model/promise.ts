/**
 * Where a finding's promise is written. An error finding names the promise it holds the server to: a JSON
 * pointer into the document (`#/paths/~1v1~1site~1map/post/responses/200`, the response, schema, parameter,
 * security requirement or link it relies on) or, for a semantic module, a definite statement of the interface
 * (quoted, with its section). The registry (checks/index.ts) turns an error without one into a warning.
 */
import {
  documentedResponse,
  successResponse,
  type OperationEntry,
  type ResponseEntry,
} from "../../openapi/lib/operations.js";
import { toPointer } from "../../openapi/lib/spec.js";
import type { SpecModel } from "./model.js";

/** `#` + a JSON pointer: the form every promise into the document takes. */
export const docPointer = (pointer: string): string => `#${pointer}`;

/** The operation, or undefined when the document has none by that id (the preflight's "(target)"). */
function operationOf(model: SpecModel, operationId: string): OperationEntry | undefined {
  return model.has(operationId) ? model.operation(operationId) : undefined;
}

/** The pointer of a documented response of the operation (`.../responses/4XX`). */
function responseAt(op: OperationEntry, r: ResponseEntry): string {
  return docPointer(`${op.pointer}/responses${toPointer([r.status])}`);
}

/** The operation itself. */
export function operationPromise(model: SpecModel, operationId: string): string {
  const op = operationOf(model, operationId);
  return op ? docPointer(op.pointer) : "#/paths";
}

/**
 * The operation's `responses` (every answer is promised to be one of them); the document's paths when the operation
 * is unknown.
 */
export function responsesPromise(model: SpecModel, operationId: string): string {
  const op = operationOf(model, operationId);
  return op ? docPointer(`${op.pointer}/responses`) : "#/paths";
}

/** The documented response that covers `status` (exact, `NXX` or `default`), or undefined. */
export function responsePromise(
  model: SpecModel,
  operationId: string,
  status: number,
  ...below: string[]
): string | undefined {
  const op = operationOf(model, operationId);
  const r = op && documentedResponse(op, status);
  return op && r ? `${responseAt(op, r)}${toPointer(below)}` : undefined;
}

/**
 * The documented 2xx response: valid input is promised an answer of success. Undefined when the operation documents
 * none.
 */
export function successPromise(model: SpecModel, operationId: string): string | undefined {
  const op = operationOf(model, operationId);
  const r = op && successResponse(op);
  return op && r ? responseAt(op, r) : undefined;
}

/** The statuses that document a refusal of input the document rules out. */
export const REFUSAL_STATUSES = ["400", "422"] as const;

/**
 * The documented response that promises a refusal: one of `statuses` (400 and 422 for invalid input), else a
 * `4XX` range, else `default` when the operation documents a 2xx of its own (`default` then covers every
 * other status, its refusals included). A `default` that is the operation's only success answer (Petstore's
 * `default: successful operation`) promises no refusal. Undefined: the document promises no refusal.
 */
export function refusalPromise(
  model: SpecModel,
  operationId: string,
  statuses: readonly string[] = REFUSAL_STATUSES,
): string | undefined {
  const op = operationOf(model, operationId);
  if (!op) return undefined;
  const r =
    op.responses.find((x) => statuses.includes(x.status)) ??
    op.responses.find((x) => x.status.toUpperCase() === "4XX") ??
    (successResponse(op) ? op.responses.find((x) => x.status === "default") : undefined);
  return r ? responseAt(op, r) : undefined;
}

/** What a response's description says of an identifier that names nothing. */
const NOT_FOUND_WORDS =
  /not found|no such|does ?n[o']t exist|not exist|unknown (id|identifier|resource|key|record)|no longer exists|gone/i;

/**
 * The documented refusal of an identifier that names nothing: a 404 or 410, else a 4xx (exact or `4XX`) whose
 * description says so ("not found", "no such", "does not exist"). Undefined: the document promises no refusal
 * (an idempotent delete may answer its 200 for an id that never existed).
 */
export function unknownIdPromise(model: SpecModel, operationId: string): string | undefined {
  const op = operationOf(model, operationId);
  if (!op) return undefined;
  const r =
    op.responses.find((x) => x.status === "404" || x.status === "410") ??
    op.responses.find((x) => /^4/.test(x.status) && NOT_FOUND_WORDS.test(x.description));
  return r ? responseAt(op, r) : undefined;
}

/** What an operation's text says when its results or resources are the caller's alone. */
const SCOPED =
  /scoped to|the caller'?s (own )?(account|records|resources|data|items)|belong(s|ing)? to the (caller|authenticated|current)|your (own )?(account|records|resources|data)|\bonly (the|its|an?) [\w' ]{0,40}(owner|themselves|himself|herself|itself|that (placed|created|owns)|who (created|owns|placed))|owner[- ]only|authenticated user'?s (own )?/i;

/**
 * Where the document says an operation's results (or the resource it reads or changes) are the caller's alone: its
 * description or summary, or its 2xx response's description ("Results are scoped to the caller's account", "Only
 * the book's owner reads it"). Undefined when it says nothing of it: another account may then see what this one
 * sees (a listing of every user, say).
 */
export function scopedPromise(model: SpecModel, operationId: string): string | undefined {
  const op = operationOf(model, operationId);
  if (!op) return undefined;
  for (const key of ["description", "summary"]) {
    const text = model.at(`${op.pointer}/${key}`);
    if (typeof text === "string" && SCOPED.test(text)) return docPointer(`${op.pointer}/${key}`);
  }
  // A response that says so: its 2xx ("the caller's records"), or a refusal ("403: only the owner may...").
  const r = op.responses.find((x) => SCOPED.test(x.description));
  return r ? `${responseAt(op, r)}/description` : undefined;
}

/** The security requirement the operation is called under: its own `security`, else the document's. */
export function securityPromise(model: SpecModel, operationId: string): string | undefined {
  const op = operationOf(model, operationId);
  if (!op || op.security.length === 0) return undefined;
  return model.at(`${op.pointer}/security`) !== undefined ? docPointer(`${op.pointer}/security`) : "#/security";
}

/**
 * The promise of a link, known by its operation, response and name: the link in the document, or for a link
 * the suite inferred (it is in no document) the target operation's documented 2xx response.
 */
export function linkPointer(
  model: SpecModel,
  l: { source: string; status: string; inferred?: boolean; link: { name: string; operationId: string } },
): string | undefined {
  if (l.inferred) return successPromise(model, l.link.operationId);
  const op = operationOf(model, l.source);
  const r = op?.responses.find((x) => x.status === l.status && x.links.some((k) => k.name === l.link.name));
  return op && r ? `${responseAt(op, r)}/links${toPointer([l.link.name])}` : undefined;
}

/** A definite statement of the interface, quoted with its section: the promise of a semantic module check. */
export function statement(section: string, quote: string): string {
  return `interface ${section}: "${quote}"`;
}
