/**
 * A document's schema dialect (`jsonSchemaDialect`, OpenAPI 3.1) as the suite's validator (ajv, 2020-12) reads
 * it. Draft-04, -06 and -07 schemas are rewritten to their 2020-12 meaning (a boolean `exclusiveMinimum` or
 * `exclusiveMaximum` excludes its bound; an `items` array is `prefixItems`, `additionalItems` the rest); a
 * dialect ajv cannot read is named. A schema ajv still cannot compile is the document's problem: it is
 * recorded and named (never thrown into every scenario), and its values are not validated.
 */
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { OperationEntry } from "../openapi/lib/operations.js";
import { forEachNode, isMapping, loadSpec, SpecValidator, type OpenApiDocument } from "../openapi/lib/spec.js";

/** Dialects whose schemas mean the same to ajv's 2020-12 reading (the OpenAPI 3.1 base dialect and JSON Schema 2019-09/2020-12). */
const NATIVE = /^https:\/\/(spec\.openapis\.org\/oas\/3\.1\/dialect\/base|json-schema\.org\/draft\/20(19-09|20-12)\/schema)#?$/;
/** Older drafts the rewrite reads. */
const OLD_DRAFT = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

/** The document's `jsonSchemaDialect` and what the suite does with it; undefined when it is the default. */
export function dialectNote(doc: OpenApiDocument): string | undefined {
  const dialect = doc.jsonSchemaDialect;
  if (dialect === undefined || (typeof dialect === "string" && NATIVE.test(dialect))) return undefined;
  if (typeof dialect === "string" && OLD_DRAFT.test(dialect)) return `jsonSchemaDialect ${dialect}: its schemas are read as 2020-12 (boolean exclusiveMinimum/exclusiveMaximum as bounds, an items array as prefixItems)`;
  return `jsonSchemaDialect ${JSON.stringify(dialect)} is a dialect the suite's validator (ajv, JSON Schema 2020-12) does not know: its schemas are read as 2020-12`;
}

/** `doc` with draft-04..07 schema keywords rewritten to 2020-12 when its dialect says so (the same object otherwise). */
export function inDialect(doc: OpenApiDocument): OpenApiDocument {
  if (typeof doc.jsonSchemaDialect !== "string" || !OLD_DRAFT.test(doc.jsonSchemaDialect)) return doc;
  const copy = structuredClone(doc);
  forEachNode(copy, (node) => {
    for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
      if (typeof node[flag] !== "boolean") continue;
      if (node[flag] === true && typeof node[bound] === "number") {
        node[flag] = node[bound];
        delete node[bound];
      } else delete node[flag];
    }
    if (Array.isArray(node.items) && node.items.every(isMapping)) {
      node.prefixItems = node.items;
      if (node.additionalItems !== undefined) node.items = node.additionalItems;
      else delete node.items;
      delete node.additionalItems;
    }
  });
  return copy;
}

/** The document as the suite reads it: loaded (upgraded to 3.1), its schemas in the validator's dialect. */
export function loadForSuite(path: string): OpenApiDocument {
  return inDialect(loadSpec(path));
}

const ACCEPT_ALL = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

/**
 * The document's validator, which never throws: a schema ajv cannot compile is recorded in `problems` (its
 * pointer to ajv's message) and validates nothing; `problem(pointer)` names it for a check or a phase to report.
 */
export class TolerantValidator extends SpecValidator {
  readonly problems = new Map<string, string>();

  override validator(pointer: string): ValidateFunction {
    if (this.problems.has(pointer)) return ACCEPT_ALL;
    try {
      return super.validator(pointer);
    } catch (err) {
      this.problems.set(pointer, err instanceof Error ? err.message.split("\n")[0]!.slice(0, 300) : String(err));
      return ACCEPT_ALL;
    }
  }

  /** Why the schema at `pointer` cannot be used (ajv's message, with the document's dialect), or undefined. */
  problem(pointer: string): string | undefined {
    this.validator(pointer);
    const message = this.problems.get(pointer);
    if (message === undefined) return undefined;
    const dialect = dialectNote(this.spec);
    return `the document's schema at #${pointer} cannot be compiled by ajv (JSON Schema 2020-12): ${message}${dialect ? `; ${dialect}` : ""}`;
  }
}

/** The version a document is written in (`2.0`, `3.0.3`, `3.1.0`), read from the file as written (the suite reads it upgraded to 3.1). */
export function writtenVersion(path: string): string | undefined {
  try {
    const head = readFileSync(path, "utf8").slice(0, 200_000);
    return /^\s*["']?(?:openapi|swagger)["']?\s*:\s*["']?(\d+\.\d+(?:\.\d+)?)/m.exec(head)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Operations whose request body the suite does not send: GET and HEAD never (the transport refuses a body
 * there, and HTTP gives it no meaning), DELETE, OPTIONS and TRACE in a 2.0 or 3.0 document, where a
 * `requestBody` on a method without defined body semantics "SHALL be ignored by consumers" (3.0.3). The
 * operation is then exercised without a body.
 */
export function withoutIgnoredBodies(operations: OperationEntry[], version: string | undefined): OperationEntry[] {
  const old = version !== undefined && !version.startsWith("3.1");
  return operations.map((op) => {
    if (!op.requestBody) return op;
    const never = op.method === "GET" || op.method === "HEAD";
    if (!never && !(old && ["DELETE", "OPTIONS", "TRACE"].includes(op.method))) return op;
    const { requestBody: _ignored, ...rest } = op;
    return rest;
  });
}
