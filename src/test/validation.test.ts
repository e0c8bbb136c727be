import { afterEach, describe, expect, it } from "vitest";
import { createClient, ResponseValidationError } from "../index.js";
import { API_KEY, expectNoSecretRecorded, rejection } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type TestServer } from "./support/server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(body: unknown) {
  const server = await startServer((_req, res) => sendJson(res, 200, body));
  servers.push(server);
  return createClient({ baseUrl: server.url, apiKey: API_KEY, validateResponses: true });
}

describe("validateResponses", () => {
  it("accepts a listing that follows the document", async () => {
    const client = await serve(listing([browserRequest("brq_A1")], 1, 30, 1, 1));
    await expect(client.listBrowserRequests()).resolves.toMatchObject({ total_records: 1 });
  });

  it("names the JSON pointer and the rule of a violation", async () => {
    const client = await serve(listing([{ ...browserRequest("brq_A1"), id: "req-1" }], 1, 30, 1, 1));
    const err = (await rejection(client.listBrowserRequests())) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.pointer).toBe("/data/results/0/id");
    expect(err.rule).toBe("pattern at #/components/schemas/BrowserRequestId/pattern");
    expect(err.message).toContain('"/data/results/0/id"');
  });

  it(
    "catches an 8-digit fraction (the rule allows 1-7) and a missing member of a sitemap, pointers inside a {data} " +
      "wrapper",
    async () => {
      const client = await serve({
        data: {
          id: "smr_1",
          url: "https://x",
          state: "completed",
          credit_usage: 1,
          error: null,
          error_reason: null,
          from_cache: false,
          started_at: "2025-08-22T11:05:43.12345678Z",
          completed_at: "2025-08-22T11:05:43Z",
          running_time: "00:00:01",
          links: [],
        },
      });
      const err = (await rejection(client.mapSite({ url: "https://x" }))) as ResponseValidationError;
      const pointers = err.violations.map((v) => `${v.pointer} ${v.rule.split(" ")[0]}`);
      expect(pointers).toContain("/data required");
      expect(pointers).toContain("/data/started_at pattern");
    },
  );

  it(
    "holds a record to the document's state rules: a pending request with a completed_at is refused, naming the " +
      "rule",
    async () => {
      const pending = {
        ...browserRequest("brq_A1"),
        state: "pending",
        started_at: null,
        http_status_code: null,
        actions: null,
        credit_usage: 0,
      };
      await expect(
        (await serve(listing([{ ...pending, completed_at: null }], 1, 30, 1, 1))).listBrowserRequests(),
      ).resolves.toMatchObject({ total_records: 1 });
      const err = (await rejection(
        (await serve(listing([pending], 1, 30, 1, 1))).listBrowserRequests(),
      )) as ResponseValidationError;
      const rules = err.violations.map((v) => `${v.pointer} ${v.rule}`);
      // ajv names the place inside the schema it compiled for BrowserRequest: its first state rule (allOf/0), "then"
      // part.
      expect(rules).toContain("/data/results/0/completed_at type at #/allOf/0/then/properties/completed_at/type");
    },
  );

  it("does not validate when the option is off", async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 200, listing([{ id: "brq_x", extra: true }], 1, 30, 1, 1)),
    );
    servers.push(server);
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(client.listBrowserRequests()).resolves.toMatchObject({ results: [{ id: "brq_x" }] });
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(2);
});
