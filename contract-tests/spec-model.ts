/** What the YAML document promises per operation: statuses, media types and response schemas. */
import { SpecValidator, derefSchema, loadSpec, pointerSegment, toPointer, resolvePointer, type OpenApiDocument } from "../openapi/lib/spec.js";
import type { OperationId } from "./types.js";

/** Where each operation lives in the document. */
export const OPERATIONS: Record<OperationId, { method: "post" | "put" | "get"; path: string }> = {
  createSitemapRequest: { method: "post", path: "/v1/site/map" },
  updateDataSchema: { method: "put", path: "/v1/schemas/{id}" },
  listBrowserRequests: { method: "get", path: "/v1/browser/requests" },
};

let shared: SpecValidator | undefined;

/** The one validator (and parsed document) shared by every check of a process. */
export function specValidator(): SpecValidator {
  return (shared ??= new SpecValidator(loadSpec()));
}

/** The parsed document. */
export function spec(): OpenApiDocument {
  return specValidator().spec;
}

/** JSON pointer of an operation's object in the document. */
export function operationPointer(operation: OperationId): string {
  const { method, path } = OPERATIONS[operation];
  return toPointer(["paths", path, method]);
}

/** The statuses the document lists for an operation, as strings ("200", "408", ...). */
export function documentedStatuses(operation: OperationId): string[] {
  const responses = resolvePointer(spec(), `${operationPointer(operation)}/responses`) as Record<string, unknown>;
  return Object.keys(responses ?? {});
}

/** True when `status` is documented (exactly, or by a `4XX`-style range, or by `default`). */
export function isDocumentedStatus(operation: OperationId, status: number): boolean {
  const listed = documentedStatuses(operation);
  return listed.includes(String(status)) || listed.includes(`${String(status)[0]}XX`) || listed.includes("default");
}

/** The documented media types of a response, each with the pointer of its schema; empty when it has no content. */
export function responseMedia(operation: OperationId, status: number): Array<{ mediaType: string; schemaPointer?: string }> {
  const base = `${operationPointer(operation)}/responses/${status}`;
  const content = resolvePointer(spec(), `${base}/content`) as Record<string, { schema?: unknown }> | undefined;
  return Object.entries(content ?? {}).map(([mediaType, media]) => ({
    mediaType,
    schemaPointer: media.schema ? `${base}/content/${pointerSegment(mediaType)}/schema` : undefined,
  }));
}

/** The first named example of the request body of an operation. */
export function requestExample(operation: OperationId): unknown {
  const examples = resolvePointer(spec(), `${operationPointer(operation)}/requestBody/content/application~1json/examples`) as
    | Record<string, { value: unknown }>
    | undefined;
  return Object.values(examples ?? {})[0]?.value;
}

/** Resolves local `$ref`s (`#/...`) until a schema without one is reached; returns it and its pointer. */
export function deref(schema: any, pointer: string): { schema: any; pointer: string } {
  return derefSchema(spec(), schema, pointer);
}

/** The enum of a component schema, e.g. `schemaEnum("FieldTypeName")`. */
export function schemaEnum(name: string): unknown[] {
  return (resolvePointer(spec(), `/components/schemas/${name}/enum`) as unknown[]) ?? [];
}
