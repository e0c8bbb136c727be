/**
 * The document the suite judges against, read from its YAML (so a stale `generated/` cannot hide drift, and
 * any document can be given with CONTRACT_SPEC): its operation table, schema validator and lookups.
 */
import {
  buildOperationTable,
  documentedResponse,
  type MediaEntry,
  type OperationEntry,
} from "../../openapi/lib/operations.js";
import { derefSchema, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { documentView, type Direction } from "../../openapi/lib/views.js";
import { asWritten, loadForSuite, requestDoubts, TolerantValidator } from "./reading.js";

/**
 * One loaded document, read for one side of the exchange (see openapi/lib/views.ts): the model the checks
 * use reads it for responses (`writeOnly` members not required); `forRequests` reads it for the requests
 * the suite builds (`readOnly` members neither generated nor required).
 */
export class SpecModel {
  readonly doc: OpenApiDocument;
  readonly operations: OperationEntry[];
  /**
   * Why the requests the suite builds for an operation are in doubt as the document is written (see reading.ts), by
   * operationId.
   */
  readonly requestDoubts: ReadonlyMap<string, string>;
  readonly #byId: Map<string, OperationEntry>;
  #forRequests: SpecModel | undefined;
  #forResponses: SpecModel | undefined;
  readonly #source: OpenApiDocument;
  #validator: TolerantValidator | undefined;

  constructor(
    readonly specPath: string,
    readonly direction: Direction = "response",
    source: OpenApiDocument = loadForSuite(specPath),
    view: OpenApiDocument = documentView(source, direction),
  ) {
    this.#source = source;
    this.doc = view;
    const table = buildOperationTable(this.doc);
    this.operations = asWritten(table, specPath);
    this.requestDoubts = requestDoubts(table, specPath);
    this.#byId = new Map(this.operations.map((op) => [op.operationId, op]));
    if (direction === "request") this.#forRequests = this;
    else this.#forResponses = this;
  }

  /** The schema validator of this reading (built on first use: listing operations needs none). */
  get validator(): TolerantValidator {
    this.#validator ??= new TolerantValidator(this.doc);
    return this.#validator;
  }

  /** The same document read for requests: the model request building and value generation use. */
  get forRequests(): SpecModel {
    // A document without readOnly or writeOnly members reads the same both ways: one model serves.
    if (this.#forRequests) return this.#forRequests;
    const view = documentView(this.#source, "request");
    this.#forRequests =
      this.doc === this.#source && view === this.#source
        ? this
        : new SpecModel(this.specPath, "request", this.#source, view);
    this.#forRequests.#forResponses ??= this;
    return this.#forRequests;
  }

  /** The same document read for responses: what answers carry, which links and inferred producers read. */
  get forResponses(): SpecModel {
    this.#forResponses ??= new SpecModel(this.specPath, "response", this.#source);
    return this.#forResponses;
  }

  /** The document as read (upgraded to 3.1), before the request or response view. */
  get source(): OpenApiDocument {
    return this.#source;
  }

  /** The operation with `operationId`; throws for an unknown one (a bug in the caller). */
  operation(operationId: string): OperationEntry {
    const op = this.#byId.get(operationId);
    if (!op) throw new Error(`the document has no operation ${operationId}`);
    return op;
  }

  /** True when the document has the operation. */
  has(operationId: string): boolean {
    return this.#byId.has(operationId);
  }

  /** The statuses the document lists for an operation ("200", "4XX", "default", ...). */
  documentedStatuses(operationId: string): string[] {
    return this.operation(operationId).responses.map((r) => r.status);
  }

  /** True when `status` is documented (exactly, by an `NXX` range, or by `default`). */
  isDocumentedStatus(operationId: string, status: number): boolean {
    return documentedResponse(this.operation(operationId), status) !== undefined;
  }

  /** The documented media types of a response (empty when documented without content, or undocumented). */
  responseMedia(operationId: string, status: number): MediaEntry[] {
    return documentedResponse(this.operation(operationId), status)?.content ?? [];
  }

  /** Resolves local `$ref`s until a schema without one; returns it and its pointer. */
  deref(schema: unknown, pointer: string): { schema: any; pointer: string } {
    return derefSchema(this.doc, schema, pointer);
  }

  /** The value at a JSON pointer of the document. */
  at(pointer: string): unknown {
    return resolvePointer(this.doc, pointer);
  }

  /** The enum of a component schema, e.g. `schemaEnum("FieldTypeName")` (empty when it has none). */
  schemaEnum(name: string): unknown[] {
    const values = this.at(`/components/schemas/${name}/enum`);
    return Array.isArray(values) ? values : [];
  }
}

const loaded = new Map<string, SpecModel>();

/** The model of `specPath`, loaded once per process. */
export function specModel(specPath: string): SpecModel {
  let model = loaded.get(specPath);
  if (!model) {
    model = new SpecModel(specPath);
    loaded.set(specPath, model);
  }
  return model;
}
