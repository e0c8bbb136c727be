/**
 * Reading a resource back after a write, for the phases that must see what a write did (the lifecycle, hostile
 * strings, server-owned members, another account's writes): which resource a write addressed or created, the
 * document's read of it, where its object sits in an answer, and the read itself with a chosen credential.
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isMapping } from "../../openapi/lib/spec.js";
import { bodyMember } from "../model/links.js";
import { isSkip, type SkipReason } from "../model/skip.js";
import type { Exchange } from "../model/types.js";
import type { KeyMode } from "../transport/request.js";
import { toRequest } from "./requests.js";
import { itemOf, producersOf } from "./resources.js";
import type { Judgement, ScenarioContext } from "./scenario.js";
import { base } from "./values.js";

/** One resource: its family (`/posts/{postId}`), the path parameter that names it, and its identifier. */
export interface ResourceRef {
  family: string;
  param: string;
  value: unknown;
}

/** The document's read of a family: the GET on the family's own path. */
export function readOperation(ctx: Pick<ScenarioContext, "model">, family: string): OperationEntry | undefined {
  return ctx.model.operations.find((o) => o.method === "GET" && o.path === family);
}

/**
 * The resource a write addressed (an operation on an item path, by its path parameter) or created (a create the run
 * recorded), or undefined when neither is known.
 */
export function resourceOf(ctx: ScenarioContext, op: OperationEntry, ex: Exchange): ResourceRef | undefined {
  const made = ctx.state.resources.created.find((r) => r.created === ex);
  if (made) return { family: made.family, param: made.param, value: made.value };
  const item = itemOf(op);
  const value = item && ex.request.pathParams?.[item.param];
  return item && value !== undefined ? { ...item, value } : undefined;
}

/**
 * Where a resource's object sits in its create's and read's answers: the object of the member its producer link
 * reads the identifier from (`$response.body#/data/id` -> `/data`), else the body itself.
 */
export function objectPointer(ctx: Pick<ScenarioContext, "model" | "settings">, family: string): string {
  const [producer] = producersOf(ctx.model, ctx.settings.inferLinks, family);
  const expr = producer ? Object.values(producer.link.parameters)[0] : undefined;
  return bodyMember(expr)?.object ?? "";
}

/** The resource's object in an answer (see objectPointer), or an empty object when the answer holds none. */
export function objectIn(ctx: ScenarioContext, family: string, ex: Exchange): Record<string, unknown> {
  const at = resolvePointer(ex.response.json, objectPointer(ctx, family));
  return isMapping(at) ? at : isMapping(ex.response.json) ? ex.response.json : {};
}

/**
 * Reads the resource with `key`'s credential (the first account's by default), judged as `judge` says; undefined
 * when the document has no read of its family, or why the read cannot be built.
 */
export async function readResource(
  ctx: ScenarioContext,
  r: ResourceRef,
  judge: Judgement = {},
  key: KeyMode = "valid",
): Promise<Exchange | SkipReason | undefined> {
  const read = readOperation(ctx, r.family);
  if (!read) return undefined;
  const values = base(ctx, read, { [r.param]: r.value });
  if (isSkip(values)) return values;
  return ctx.send({ ...toRequest(read, values), key }, { intent: "acceptance", ...judge });
}

/** The object schema of a resource in `op`'s 2xx JSON answer (as answers are read), at the resource's pointer. */
function answerObjectSchema(
  ctx: ScenarioContext,
  op: OperationEntry,
  pointer: string,
): Record<string, any> | undefined {
  const model = ctx.model.forResponses;
  for (const r of op.responses.filter((x) => /^2/.test(x.status))) {
    const media = r.content.find((m) => m.schemaPointer && /json/i.test(m.mediaType));
    if (!media?.schemaPointer) continue;
    let { schema, pointer: at } = model.deref({ $ref: `#${media.schemaPointer}` }, media.schemaPointer);
    for (const part of pointer.split("/").slice(1)) {
      if (!isMapping(schema?.properties) || !(part in schema.properties)) return undefined;
      ({ schema, pointer: at } = model.deref(schema.properties[part], `${at}/properties/${part}`));
    }
    if (isMapping(schema?.properties)) return schema;
  }
  return undefined;
}

/**
 * The members a write sent that `answerOp`'s answer declares (and does not mark writeOnly), with the values sent:
 * what the answer or a read must show as written. A member the answer does not declare makes no claim.
 */
export function writtenMembers(
  ctx: ScenarioContext,
  sent: unknown,
  answerOp: OperationEntry,
  pointer: string,
): Record<string, unknown> {
  const schema = answerObjectSchema(ctx, answerOp, pointer);
  if (!schema || !isMapping(sent)) return {};
  const props = schema.properties as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(sent).filter(([name, value]) => {
      if (!Object.hasOwn(props, name) || value === null || value === undefined) return false;
      const { schema: member } = ctx.model.forResponses.deref(props[name], "");
      return member?.writeOnly !== true;
    }),
  );
}
