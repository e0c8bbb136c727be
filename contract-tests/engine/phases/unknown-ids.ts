/**
 * The unknown-ids phase (live targets): identifiers every store refuses or lacks, in the last path parameter of an
 * operation (a well-formed one that does not exist and one at the type's edge for a safe operation, one past 64
 * bits for any): a 4xx, never a 5xx or another resource.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import type { SpecModel } from "../../model/model.js";
import { isSkip, reason, type Outcome } from "../../model/skip.js";
import { boundaries, INT32_MAX, INT64_MAX, typesOf, validSamples } from "../generate.js";
import { planOf } from "../plan.js";
import { cloneValues, toRequest } from "../requests.js";
import { itemOf } from "../resources.js";
import type { ScenarioContext } from "../scenario.js";
import { base, baseValues } from "../values.js";
import { type Phase, scenarioOf } from "./phase.js";

/** Past the largest signed 64-bit integer: an identifier no store can hold, sent as text. */
const PAST_INT64 = String(INT64_MAX + 1n);

/**
 * Whether the operation's last path parameter may be sent an identifier: a safe operation always; one that
 * changes data only an identifier that cannot name a stored resource (past 64 bits, for an integer, or one
 * its schema rules out).
 */
function pastInt64Sendable(model: SpecModel, op: OperationEntry): boolean {
  const item = itemOf(op);
  const p = item && planOf(op).parameters.path.get(item.param);
  if (!p) return false;
  if (op.safe) return true;
  const types = typesOf(model.deref(p.schema, p.schemaPointer).schema ?? {});
  return (
    types.includes("integer") ||
    types.includes("number") ||
    model.validator.validate(p.schemaPointer, PAST_INT64).length > 0
  );
}

/**
 * Identifiers every store refuses or lacks: a well-formed unknown one and one at the type's edge (safe operations),
 * one past 64 bits (any).
 */
async function unknownIds(ctx: ScenarioContext, op: OperationEntry): Promise<Outcome> {
  const item = itemOf(op);
  const p = item && planOf(op).parameters.path.get(item.param);
  if (!item || !p) return reason("not-applicable", "the path ends in no identifier");
  // Parents of the identifier as the run knows them (so the probe reaches the identifier), else generated
  // values, as for the mock: the identifier itself is replaced below by one no store holds.
  const known = base(ctx, op);
  const b = isSkip(known) ? baseValues(ctx.model, { ...ctx.settings, kind: "mock" }, op) : known;
  if (isSkip(b)) return b;
  const schema = ctx.model.deref(p.schema, p.schemaPointer).schema ?? {};
  const types = typesOf(schema);
  const integer = types.includes("integer") || types.includes("number");
  const seen = new Set(ctx.state.resources.created.map((r) => String(r.value)));
  const valid = (v: unknown) => ctx.model.validator.validate(p.schemaPointer, v).length === 0;
  const values: unknown[] = [];
  if (op.safe) {
    const wellFormed = integer
      ? [987654321, 2147483646, 99999].find((v) => valid(v) && !seen.has(String(v)))
      : validSamples(ctx.model, p.schemaPointer, 8, ctx.settings.seed + 29).find(
          (v) => typeof v === "string" && v !== "" && !seen.has(v),
        );
    if (wellFormed !== undefined) values.push(wellFormed);
    const edge = integer
      ? typeof schema.maximum === "number"
        ? schema.maximum
        : schema.format === "int32"
          ? INT32_MAX
          : String(INT64_MAX)
      : boundaries(ctx.model, p.schema)
          .map((x) => x.value)
          .filter((v) => typeof v === "string" && v !== "" && valid(v) && !seen.has(v))
          .at(-1);
    if (edge !== undefined && !values.includes(edge)) values.push(edge);
  }
  // Past 64 bits: no store holds it. A text id that the schema allows might name one: only a safe operation gets it.
  if (pastInt64Sendable(ctx.model, op)) values.push(PAST_INT64);
  await ctx.sendAll(
    values.map((value) => {
      const v = cloneValues(b);
      v.path[p.name] = value;
      return {
        spec: toRequest(op, v),
        judge: {
          intent: "unknown-resource" as const,
          unknownIn: "path" as const,
          wellFormed: valid(value),
          foreignIds: [String(value)],
          cause:
            `path parameter ${p.name}: an identifier that does not exist ` +
            `(${String(value).length > 12 ? "at or past the type's edge" : "well-formed"})`,
        },
      };
    }),
  );
  return undefined;
}

/** The phase: for each operation whose path ends in an identifier it may be sent. */
export const unknownIdsPhase: Phase = {
  forOperation: ({ model }, op) =>
    pastInt64Sendable(model, op)
      ? [
          scenarioOf("unknown-ids", op, (c) => unknownIds(c, op), {
            title:
              `${op.safe ? "a well-formed id that does not exist, one at the type's edge and " : ""}an id past the ` +
              `64-bit edge get a 4xx, never a 5xx${op.safe ? " or another resource" : ""}`,
          }),
        ]
      : [],
};
