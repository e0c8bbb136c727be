/**
 * How the suite reads a document as it is written: request bodies it must not send, examples that have no
 * name of their own (see asWritten), and the schema dialect (`jsonSchemaDialect`, OpenAPI 3.1) as the suite's
 * validator (ajv, 2020-12) reads it. Draft-04, -06 and -07 schemas are rewritten to their 2020-12 meaning (a boolean
 * `exclusiveMinimum` or
 * `exclusiveMaximum` excludes its bound; an `items` array is `prefixItems`, `additionalItems` the rest); a
 * dialect ajv cannot read is named. A schema ajv still cannot compile is the document's problem: it is
 * recorded and named (never thrown into every scenario), and its values are not validated.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { MediaEntry, OperationEntry } from "../../openapi/lib/operations.js";
import { readDocumentFile } from "../../openapi/lib/self-contained.js";
import {
  derefSchema,
  forEachNode,
  isMapping,
  loadSpec,
  SpecValidator,
  toPointer,
  type OpenApiDocument,
} from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { authPlan, credentialDoubt } from "./wire.js";

/**
 * Dialects whose schemas mean the same to ajv's 2020-12 reading (the OpenAPI 3.1 base dialect and JSON Schema
 * 2019-09/2020-12).
 */
const NATIVE =
  /^https:\/\/(spec\.openapis\.org\/oas\/3\.1\/dialect\/base|json-schema\.org\/draft\/20(19-09|20-12)\/schema)#?$/;
/** Older drafts the rewrite reads. */
const OLD_DRAFT = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

/** The document's `jsonSchemaDialect` and what the suite does with it; undefined when it is the default. */
function dialectNote(doc: OpenApiDocument): string | undefined {
  const dialect = doc.jsonSchemaDialect;
  if (dialect === undefined || (typeof dialect === "string" && NATIVE.test(dialect))) return undefined;
  if (typeof dialect === "string" && OLD_DRAFT.test(dialect))
    return (
      `jsonSchemaDialect ${dialect}: its schemas are read as 2020-12 (boolean exclusiveMinimum/exclusiveMaximum ` +
      `as bounds, an items array as prefixItems)`
    );
  return (
    `jsonSchemaDialect ${JSON.stringify(dialect)} is a dialect the suite's validator (ajv, ` +
    `JSON Schema 2020-12) does not know: its schemas are read as 2020-12`
  );
}

/**
 * `doc` with draft-04..07 schema keywords rewritten to 2020-12 (the same object when it has none): a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` and an `items` array mean nothing else in any dialect, whatever the
 * document's `jsonSchemaDialect` or a schema's own `$schema` says (a `$schema` naming an older draft is dropped:
 * one validator reads the whole document).
 */
export function inDialect(doc: OpenApiDocument): OpenApiDocument {
  const text = JSON.stringify(doc);
  if (!/"exclusive(Min|Max)imum":(true|false)|"items":\[|"\$schema":"https?:\/\/json-schema\.org\/draft-0/.test(text))
    return doc;
  const copy = structuredClone(doc);
  forEachNode(copy, (node, at) => {
    if (at !== "" && typeof node.$schema === "string" && /json-schema\.org\/draft-0\d/.test(node.$schema))
      delete node.$schema;
    for (const [flag, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
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

/**
 * `doc` with `format: byte` beside each `contentEncoding: base64` that has no format: the upgrade to 3.1 turns
 * 3.0's `format: byte` into `contentEncoding`, an annotation ajv does not check, while the document's readers
 * (Prism among them) hold the value to base64. The suite then generates only base64 values for it.
 */
function withByteFormat(doc: OpenApiDocument): OpenApiDocument {
  if (!JSON.stringify(doc).includes('"contentEncoding":"base64"')) return doc;
  const copy = structuredClone(doc);
  forEachNode(copy, (node) => {
    if (node.contentEncoding === "base64" && node.format === undefined) node.format = "byte";
  });
  return copy;
}

/** The document as the suite reads it: loaded (upgraded to 3.1), its schemas in the validator's dialect. */
export function loadForSuite(path: string): OpenApiDocument {
  return inDialect(withByteFormat(loadSpec(path)));
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
    return (
      `the document's schema at #${pointer} cannot be compiled by ajv (JSON Schema ` +
      `2020-12): ${message}${dialect ? `; ${dialect}` : ""}`
    );
  }
}

const WRITTEN = new Map<string, Record<string, any> | undefined>();

/** The document as its file is written (not upgraded), or undefined when it cannot be read; read once per path. */
function written(path: string): Record<string, any> | undefined {
  if (WRITTEN.has(path)) return WRITTEN.get(path);
  let doc: unknown;
  try {
    doc = readDocumentFile(path);
  } catch {
    doc = undefined;
  }
  WRITTEN.set(path, isMapping(doc) ? doc : undefined);
  return WRITTEN.get(path);
}

/**
 * The required header parameters named Authorization or Content-Type (which OpenAPI ignores) of the operation at
 * `pointer`, as written.
 */
function ignoredRequiredHeaders(source: Record<string, any> | undefined, pointer: string): string[] {
  if (!source) return [];
  const lists = [
    resolvePointer(source, `${pointer}/parameters`),
    resolvePointer(source, `${pointer.replace(/\/[^/]+$/, "")}/parameters`),
  ];
  return lists
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((p) => derefSchema(source, p).schema as unknown)
    .filter((p): p is Record<string, any> => isMapping(p) && p.in === "header" && p.required === true)
    .map((p) => String(p.name))
    .filter((name) => /^(authorization|content-type)$/i.test(name));
}

/** False for the methods on which the transport (fetch) refuses a body: GET and HEAD. */
const sendsBody = (method: string) => method !== "GET" && method !== "HEAD";

/**
 * Why the suite's requests to an operation are in doubt as the document is written, by operationId (read from
 * the operation table before `asWritten`):
 * - its credential cannot be presented as the security requirement says (see `credentialDoubt`);
 * - it requires a body on GET or HEAD, which the transport cannot send (the request goes without it);
 * - a Swagger 2.0 body or form parameter with no `consumes` (the operation's or the document's) names no
 *   media type, so the one the suite sends it in (the upgrade's choice) is an assumption the target need not
 *   share.
 */
export function requestDoubts(operations: OperationEntry[], path: string): Map<string, string> {
  const source = written(path);
  const out = new Map<string, string>();
  const add = (id: string, doubt: string) => out.set(id, out.has(id) ? `${out.get(id)}; ${doubt}` : doubt);
  for (const op of operations) {
    const plan = authPlan(op);
    const doubt = credentialDoubt(plan);
    if (doubt) add(op.operationId, doubt);
    const placed = plan.kind === "placed" ? plan.placements : [];
    const authorizes = placed.some((p) => p.in === "header" && p.name.toLowerCase() === "authorization");
    for (const name of new Set(ignoredRequiredHeaders(source, op.pointer)))
      if (
        name.toLowerCase() === "authorization"
          ? !authorizes
          : !(op.requestBody && sendsBody(op.method)) && /^content-type$/i.test(name)
      )
        add(
          op.operationId,
          `the document requires a header parameter ${name}, which OpenAPI says to ignore (${name.toLowerCase() === "authorization" ? "a security scheme carries it, and none of this operation's sends one" : "the body's media type sets it, and this request has no body"}): ` +
            `the suite sends none, so the request is not the input the document describes`,
        );
    if (op.requestBody?.required && !sendsBody(op.method))
      add(
        op.operationId,
        `the document requires a request body on ${op.method}, which the suite's transport (fetch) cannot ` +
          `send: the request goes without it, so it is not the input the document describes`,
      );
  }
  if (!source || typeof source.swagger !== "string") return out;
  for (const op of operations) {
    const item = resolvePointer(source, op.pointer);
    if (!isMapping(item)) continue;
    const params = [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...[resolvePointer(source, op.pointer.replace(/\/[^/]+$/, "/parameters"))].flat(),
    ];
    const hasBody = params.some((p) => isMapping(p) && (p.in === "body" || p.in === "formData"));
    const consumes = item.consumes ?? source.consumes;
    if (hasBody && !(Array.isArray(consumes) && consumes.length > 0))
      add(
        op.operationId,
        `the document names no media type for the body (no Swagger 2.0 consumes): the suite ` +
          `sends it as ${op.requestBody?.content[0]?.mediaType ?? "JSON"}, ` +
          `an assumption the target need not share`,
      );
  }
  return out;
}

/**
 * The operation table read as the document is written (the suite reads it upgraded to 3.1):
 * - Request bodies the suite does not send: GET and HEAD (the transport refuses a body there). The operation
 *   is exercised without one; where the body is required, `requestDoubts` says so. A DELETE or OPTIONS body is
 *   sent as the document describes it, in 3.0 too (where it "SHALL be ignored"), as real servers expect it.
 * - Examples that have no name of their own: a lone `example` (which the upgrade names `default`), and every
 *   example of a 2.0 document. They pair with nothing, and the mock cannot be asked for them by name.
 */
export function asWritten(operations: OperationEntry[], path: string): OperationEntry[] {
  const source = written(path);
  const version = String(source?.openapi ?? source?.swagger ?? "3.1");
  const loneExample = (pointer: string) => {
    const media = source ? resolvePointer(source, pointer) : undefined;
    return version.startsWith("2") || (isMapping(media) && "example" in media && !("examples" in media));
  };
  const marked = (media: MediaEntry[], at: string): MediaEntry[] =>
    media.map((m) =>
      m.examples.length > 0 && loneExample(`${at}${toPointer([m.mediaType])}`)
        ? { ...m, examples: m.examples.map((e) => ({ ...e, unnamed: true })) }
        : m,
    );
  return operations.map((op) => {
    const responses = op.responses.map((r) => ({
      ...r,
      content: marked(r.content, `${op.pointer}/responses${toPointer([r.status])}/content`),
    }));
    const body = op.requestBody && {
      ...op.requestBody,
      content: marked(op.requestBody.content, `${op.pointer}/requestBody/content`),
    };
    const { requestBody: _written, ...rest } = op;
    return { ...rest, responses, ...(body && sendsBody(op.method) ? { requestBody: body } : {}) };
  });
}
