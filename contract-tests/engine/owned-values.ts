/**
 * The values the owned-members phase sends: create bodies that repeat no earlier create's chosen values (a title
 * or a username a store keeps unique), and for a member the server owns a valid value that differs from every
 * value the server was seen to set (so a member that takes it proves the write took effect, never a coincidence).
 */
import type { OperationEntry } from "../../openapi/lib/operations.js";
import { isMapping } from "../../openapi/lib/spec.js";
import type { SpecModel } from "../model/model.js";
import { withReferences } from "./body-values.js";
import { typesOf, validSamples } from "./generate.js";
import { planOf } from "./plan.js";
import type { ScenarioContext } from "./scenario.js";
import { withConfiguredMembers } from "./values.js";

/** Values of the formats a server sets itself, far from any it would choose now. */
const FORMATTED: Readonly<Record<string, string>> = {
  "date-time": "2001-02-03T04:05:06Z",
  date: "2001-02-03",
  time: "04:05:06Z",
  email: "owned-probe@example.com",
  uuid: "6f0e2f4c-1b7d-4c1a-9e55-0d3c5b7a9f21",
  uri: "https://example.com/owned-probe",
  hostname: "owned-probe.example.com",
  ipv4: "192.0.2.7",
};

/** Far above a number the server set: not the next identifier a sequence would give. */
const FAR = 1_000_003;

const text = (v: unknown) => JSON.stringify(v);

/**
 * A value valid for the (response) schema at `pointer`, a scalar, that differs from each of `seen`: a boolean
 * flipped, another enum value, a number far from those seen, a string in the schema's format; else a generated
 * one. Undefined when there is none (a `const`, a boolean seen both ways, an object).
 */
export function differentValue(
  model: SpecModel,
  pointer: string,
  seen: readonly unknown[],
  seed: number,
): { value: unknown } | undefined {
  const { schema } = model.deref({ $ref: `#${pointer}` }, pointer);
  if (!isMapping(schema)) return undefined;
  const types = typesOf(schema);
  const numbers = seen.filter((n): n is number => typeof n === "number" && Number.isFinite(n));
  const far = (numbers.length ? Math.max(...numbers) : 0) + FAR;
  const crafted = Array.isArray(schema.enum)
    ? schema.enum
    : [
        ...(types.includes("boolean") ? [true, false] : []),
        ...(types.includes("integer") || types.includes("number") ? [far, schema.maximum, schema.minimum] : []),
        ...(types.includes("string") ? [FORMATTED[String(schema.format)] ?? "owned-probe-value"] : []),
      ];
  const seenText = new Set(seen.map(text));
  const fits = (v: unknown) =>
    v !== undefined &&
    v !== null &&
    typeof v !== "object" &&
    !seenText.has(text(v)) &&
    model.validator.validate(pointer, v).length === 0;
  const found = crafted.find(fits) ?? validSamples(model, pointer, 6, seed).find(fits);
  return found === undefined ? undefined : { value: found };
}

/** How many string members of `body` repeat the value an earlier body gave the same member. */
function clashes(body: Record<string, unknown>, used: readonly Record<string, unknown>[]): number {
  return used.reduce(
    (n, u) => n + Object.keys(body).filter((k) => typeof body[k] === "string" && u[k] === body[k]).length,
    0,
  );
}

/**
 * `count` valid JSON object bodies of the create `op`, each differing from the others and from the bodies of the
 * run's earlier creates by `op`, those that repeat no chosen string first (`first`, the body the run would send,
 * among them); fewer when the schema gives no more.
 */
export function freshBodies(
  ctx: ScenarioContext,
  op: OperationEntry,
  first: unknown,
  count: number,
): Record<string, unknown>[] {
  const pointer = planOf(op).body?.pointer;
  const used = ctx.state.resources.created
    .filter((r) => r.createdBy === op.operationId && isMapping(r.created.request.json))
    .map((r) => r.created.request.json as Record<string, unknown>);
  const candidates = [first, ...(pointer ? validSamples(ctx.model, pointer, 8, ctx.settings.seed + 101) : [])]
    // A generated body refers to what exists (an order's item_id from the menu), as the run's own does.
    .map((b, i) => withConfiguredMembers(ctx.settings, op, i === 0 ? b : withReferences(ctx, op, b)))
    .filter((b): b is Record<string, unknown> => isMapping(b))
    .map((b, i) => ({ b, i, n: clashes(b, used) }))
    .sort((a, b) => a.n - b.n || a.i - b.i);
  const out: Record<string, unknown>[] = [];
  const taken = new Set(used.map(text));
  // Bodies that repeat none of each other's strings first; then any other (a member the settings pin repeats).
  for (const strict of [true, false])
    for (const { b } of candidates) {
      if (out.length >= count || taken.has(text(b)) || (strict && clashes(b, out) > 0)) continue;
      taken.add(text(b));
      out.push(b);
    }
  return out;
}
