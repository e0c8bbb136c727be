/**
 * The cleanup phase: what a live run created and still exists is deleted where the document has a delete for it;
 * the report's notes say what was created and what was left behind.
 */
import type { OperationEntry } from "../../../openapi/lib/operations.js";
import { isSkip, type Outcome } from "../../model/skip.js";
import { authPlan } from "../../model/wire.js";
import type { Exchange } from "../../model/types.js";
import { emptyValues, toRequest } from "../requests.js";
import { itemOf, mayCreate, type Resource } from "../resources.js";
import type { ScenarioContext } from "../scenario.js";
import { base } from "../values.js";
import { type Phase, titleOf } from "./phase.js";

/** Why a resource the run created was left behind when no delete was sent. */
const NO_DELETE = "the document has no delete for it";

/**
 * Each throwaway account the run deleted: a request with its credential (to the first safe operation that asks for
 * one and names nothing) must be refused with a 4xx, never answered, never a 5xx (a credential used after its
 * account was freed).
 */
async function revoked(ctx: ScenarioContext): Promise<void> {
  const accounts = ctx.state.accounts;
  const probe = ctx.model.operations.find((o) => o.safe && !o.path.includes("{") && authPlan(o).kind === "placed");
  if (!accounts || !probe) return;
  for (const t of accounts.throwaways.filter((x) => !x.alive)) {
    const v = base(ctx, probe);
    if (isSkip(v)) return;
    await ctx.send(
      { ...toRequest(probe, v), key: t.account },
      {
        intent: "revoked-credential",
        cause: "the credential of an account the run deleted",
      },
    );
  }
}

/**
 * Deletes what the run created and still exists (where the document has a delete); notes what was created and left
 * behind.
 */
async function cleanup(ctx: ScenarioContext): Promise<Outcome> {
  const { created } = ctx.state.resources;
  if (created.length === 0) {
    ctx.verdict.notes.push("created nothing");
    return undefined;
  }
  // The delete of each family (the first the document lists), found once.
  const removes = new Map<string, OperationEntry>();
  for (const o of ctx.model.operations) {
    const family = o.method === "DELETE" ? itemOf(o)?.family : undefined;
    if (family && !removes.has(family)) removes.set(family, o);
  }
  const answers = new Map<Resource, Exchange>();
  const accounts = ctx.state.accounts;
  // An account deletes itself where the document lets an account do that (DELETE /account), as that account.
  const ownDelete = ctx.model.operations.find(
    (o) => o.method === "DELETE" && !o.path.includes("{") && accounts?.changesAccount(o),
  );
  for (const r of created.filter((x) => x.alive)) {
    const account =
      accounts && r.family === accounts.family && ownDelete
        ? (accounts.throwaways.find((t) => (t.username === r.value || t.registeredAs === r.value) && t.alive)
            ?.account ?? (await accounts.adopt(r.created)))
        : undefined;
    if (account && ownDelete) {
      const ex = await ctx.send(
        { ...toRequest(ownDelete, emptyValues()), key: account },
        {
          intent: "conforming",
          cause: "the clean-up: an account the run registered deletes itself",
        },
      );
      answers.set(r, ex);
      if (ex.response.status >= 200 && ex.response.status < 300) r.alive = false;
      continue;
    }
    const remove = removes.get(r.family);
    // An account no account of the run can act as is left behind (the suite never deletes one as another account).
    if (!remove || (accounts && r.family === accounts.family && !r.owner)) continue;
    const v = base(ctx, remove, { [r.param]: r.value });
    if (isSkip(v)) continue;
    answers.set(r, await ctx.send(toRequest(remove, v), { intent: "conforming", cause: "the clean-up" }));
  }
  await revoked(ctx);
  const list = (rs: Resource[]) =>
    [...new Set(rs.map((r) => r.family))]
      .map(
        (fam) =>
          `${fam}: ${rs
            .filter((r) => r.family === fam)
            .map((r) => JSON.stringify(r.value))
            .join(", ")}`,
      )
      .join("; ");
  ctx.verdict.notes.push(`created ${created.length} resource(s): ${list(created)}`);
  const left = created.filter((r) => r.alive);
  ctx.verdict.notes.push(
    left.length === 0
      ? "left behind: nothing (each created resource was deleted)"
      : `left behind ${left.length}: ${left
          .map(
            (r) =>
              `${r.family} ${JSON.stringify(r.value)} ` +
              `(${answers.has(r) ? `the delete answered status ${answers.get(r)!.response.status}` : NO_DELETE})`,
          )
          .join("; ")}`,
  );
  return undefined;
}

/** The phase: last, once per live run whose document lets it create (whatever --phases selects). */
export const cleanupPhase: Phase = {
  forRun: ({ model, settings }) =>
    settings.kind === "live" && mayCreate(model, settings.inferLinks)
      ? [{ id: "(run)/cleanup", operation: "(run)", phase: "cleanup", title: titleOf("cleanup"), run: cleanup }]
      : [],
};
