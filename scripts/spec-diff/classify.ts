/**
 * Classifies the differences the structural comparison (compare.ts) finds between two documents: each one
 * takes the level of its rule in rules.ts, and the report shows the rule's id and reason beside it. A change
 * to a component used in several places is one change, listing every operation it reaches.
 */
import type { OpenApiDocument } from "../../openapi/lib/spec.js";
import { compareDocuments } from "./compare.js";
import { normalizeDocument } from "./documents.js";
import type { Finding } from "./schema.js";
import { rule, type Level } from "./rules.js";

/** The four classes of the report: the rule's level, with documentation-only changes apart. */
export type ChangeClass = "breaking" | "warning" | "non-breaking" | "annotation";

/** One classified change. */
export interface Change {
  cls: ChangeClass;
  level: Level;
  /** The id of the rule in rules.ts. */
  rule: string;
  action: "add" | "remove" | "replace";
  /**
   * JSON pointer of the change in the revision (in the base for something removed); through `$ref`s, the definition.
   */
  pointer: string;
  /** `METHOD /path (operationId)` of the operations the change reaches, `; `-separated. */
  operation?: string;
  /** "<rule title>: <place>". */
  text: string;
  before?: unknown;
  after?: unknown;
  /** The rule's one-line reason. */
  reason: string;
}

const classOf = (level: Level, annotation: boolean | undefined): ChangeClass =>
  annotation ? "annotation" : level === "info" ? "non-breaking" : level;

/**
 * Compares two documents (base null: an empty one) and returns every change, classified. A document that is
 * not one the project reads is refused with a DocumentError naming it by `origins`.
 */
export function classifyChanges(
  base: OpenApiDocument | null,
  head: OpenApiDocument,
  origins = { base: "the base", head: "the revision" },
): Change[] {
  const headDoc = normalizeDocument(head, origins.head);
  const empty = {
    ...(head.swagger ? { swagger: head.swagger } : { openapi: head.openapi }),
    info: { title: "", version: "" },
    paths: {},
  };
  const baseDoc = normalizeDocument(base ?? empty, origins.base);
  const changes = new Map<string, Change & { places: string[]; ops: string[] }>();
  // Both are read as OpenAPI 3.1, so the version they were written in is compared here.
  const version = (d: OpenApiDocument) => d.openapi ?? d.swagger;
  const written: Finding[] =
    version(base ?? empty) === version(head)
      ? []
      : [
          {
            rule: "openapi-version-changed",
            pointer: head.openapi ? "/openapi" : "/swagger",
            where: "the document",
            action: "replace",
            before: version(base ?? empty),
            after: version(head),
          },
        ];
  for (const f of [...written, ...compareDocuments(baseDoc, headDoc)]) {
    const key = JSON.stringify([f.rule, f.pointer, f.before, f.after]);
    const known = changes.get(key);
    if (known) {
      if (!known.places.includes(f.where)) known.places.push(f.where);
      if (f.operation && !known.ops.includes(f.operation)) known.ops.push(f.operation);
      continue;
    }
    const r = rule(f.rule);
    changes.set(key, {
      cls: classOf(r.level, r.annotation),
      level: r.level,
      rule: r.id,
      action: f.action,
      pointer: f.pointer,
      text: "",
      reason: r.reason,
      ...(f.before !== undefined ? { before: f.before } : {}),
      ...(f.after !== undefined ? { after: f.after } : {}),
      places: [f.where],
      ops: f.operation ? [f.operation] : [],
    });
  }
  return [...changes.values()].map(({ places, ops, ...change }) => {
    const r = rule(change.rule);
    const others = places.length - 1;
    const more =
      others === 0
        ? ""
        : others <= 3
          ? ` (and ${places.slice(1).join(", ")})`
          : ` (and ${places.slice(1, 3).join(", ")} and ${others - 2} more)`;
    return { ...change, text: `${r.title}: ${places[0]}${more}`, ...(ops.length ? { operation: ops.join("; ") } : {}) };
  });
}
