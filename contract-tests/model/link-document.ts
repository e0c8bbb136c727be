/**
 * What the link readers share: a link with where it leaves from, the document as inference reads it, and a cache of
 * an answer per document (links.ts and references.ts both compute theirs once per operation table).
 */
import type { LinkEntry, OperationEntry } from "../../openapi/lib/operations.js";

/** A link with its source operation and response, for scenario titles and findings. */
export interface SourcedLink {
  source: string;
  status: string;
  link: LinkEntry;
  /** Not written in the document: inferred from a create's or a listing's response (its name says from where). */
  inferred?: boolean;
}

/** What inference reads of the document: its operations and schemas. */
export interface LinkDocument {
  operations: OperationEntry[];
  deref(schema: unknown, pointer: string): { schema: any; pointer: string };
  /**
   * The same document read for responses, where links are found: a reading for requests has lost the `readOnly`
   * members (a server-assigned `id` among them) that answers carry and links read.
   */
  readonly forResponses?: LinkDocument;
}

/**
 * `compute`'s answer for a document (read for responses: see {@link LinkDocument.forResponses}) and `infer`,
 * computed once per operation table and kept in `cache`.
 */
export function perDocument<T>(
  cache: WeakMap<OperationEntry[], Map<boolean, T>>,
  linkDoc: LinkDocument,
  infer: boolean,
  compute: (doc: LinkDocument) => T,
): T {
  const doc = linkDoc.forResponses ?? linkDoc;
  let byInfer = cache.get(doc.operations);
  if (!byInfer) {
    byInfer = new Map();
    cache.set(doc.operations, byInfer);
  }
  if (!byInfer.has(infer)) byInfer.set(infer, compute(doc));
  return byInfer.get(infer)!;
}
