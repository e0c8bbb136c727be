import { describe, it } from "vitest";
import { listingRequest, schemaExample, schemaRequest, sitemapRequest } from "../requests.js";
import type { RequestSpec } from "../target.js";
import { isMock, settings, skipUnless, target, verdict } from "./harness.js";

// A refused request never reaches the schema, so any id will do when no CONTRACT_SCHEMA_ID is set.
const schemaId = settings.schemaId ?? "dsc_contractSuiteAuthProbe";
const OPERATIONS: Array<[string, RequestSpec]> = [
  ["createSitemapRequest", sitemapRequest({ url: settings.sitemapUrl })],
  ["updateDataSchema", schemaRequest(schemaId, { ...schemaExample().body, id: schemaId })],
  ["listBrowserRequests", listingRequest()],
];

describe("authentication (X-API-Key on every operation)", () => {
  for (const [name, request] of OPERATIONS) {
    it(`refuses ${name} without an API key with a 4xx`, async (t) => {
      const v = verdict(t);
      v.check(await target.send({ ...request, key: "none" }), [], { intent: "no-key" });
      await v.finish();
    });

    it(`refuses ${name} with a wrong API key with a 4xx`, async (t) => {
      // Prism's mock accepts any non-empty key, so only a live server can show a wrong key is refused.
      await skipUnless(t, !isMock, request.operation);
      const v = verdict(t);
      v.check(await target.send({ ...request, key: "wrong" }), [], { intent: "wrong-key" });
      await v.finish();
    });
  }
});
