import { describe, it } from "vitest";
import type { CheckId } from "../checks/index.js";
import { sample, schemaBody } from "../arbitraries.js";
import { schemaExample, schemaRequest } from "../requests.js";
import { isMock, settings, skipUnless, target, verdict } from "./harness.js";

const OP = "updateDataSchema";
const NO_SCHEMA = "skipped: needs CONTRACT_SCHEMA_ID (a data schema the suite may overwrite)";
const DISCREPANCY: CheckId[] = ["field_type_discrepancy", "field_tree_pairing", "schema_update_echo"];

describe("updateDataSchema (PUT /v1/schemas/{id})", () => {
  it("returns integer field types, paired name by name with every type name sent nested through array and object", async (t) => {
    await skipUnless(t, settings.schemaId !== undefined, OP, NO_SCHEMA);
    const v = verdict(t);
    const id = settings.schemaId!;
    // The document's own example: against the mock the static answer is its paired response example.
    const body = { ...schemaExample().body, id };
    v.check(await target.send(schemaRequest(id, body)), DISCREPANCY);
    await v.finish();
  });

  it("accepts valid generated schema bodies, answering each with the tree it was sent", async (t) => {
    await skipUnless(t, settings.schemaId !== undefined, OP, NO_SCHEMA);
    const v = verdict(t);
    const id = settings.schemaId!;
    // The mock answers its static example whatever the body, so only a live target can pair generated trees.
    const checks: CheckId[] = isMock ? [] : DISCREPANCY;
    for (const body of sample(schemaBody())) v.check(await target.send(schemaRequest(id, body)), [...checks]);
    await v.finish();
  });

  it("rejects bodies the seed rules out (fields not a list, a numeric name, an unknown type name, malformed JSON) with a 4xx", async (t) => {
    await skipUnless(t, settings.schemaId !== undefined, OP, NO_SCHEMA);
    const v = verdict(t);
    const id = settings.schemaId!;
    const field = { name: "title", type: "string", description: null, fields: [] };
    const bodies = [{ name: "Product", fields: "title" }, { name: "Product", fields: [{ ...field, name: 42 }] }, { name: "Product", fields: [{ ...field, type: "no_such_type" }] }, { name: "Product", fields: [{ ...field, type: 3 }] }];
    for (const body of bodies) v.check(await target.send(schemaRequest(id, body)), [], { intent: "rejection" });
    v.check(await target.send(schemaRequest(id, undefined, { rawBody: '{"name": "Product", "fields": [' })), [], { intent: "rejection" });
    await v.finish();
  });
});
