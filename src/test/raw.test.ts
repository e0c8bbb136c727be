/** client.raw loads openapi-fetch on first use, yet behaves as openapi-fetch: middleware, eject, typed calls. */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../index.js";
import { API_KEY } from "./support/secrets.js";
import { browserRequest, listing, sendJson, startServer, type TestServer } from "./support/server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("client.raw", () => {
  it("applies middleware registered before its first call, and stops after eject", async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 200, listing([browserRequest("brq_Raw1")], 1, 30, 1, 1)),
    );
    servers.push(server);
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const seen: string[] = [];
    const mw = { onRequest: ({ request }: { request: Request }) => void seen.push(new URL(request.url).search) };
    client.raw.use(mw);
    const { data, response } = await client.raw.GET("/v1/browser/requests", {
      params: { query: { status: ["running", "failed"] } },
    });
    expect(response.status).toBe(200);
    expect(data?.data.results[0]?.id).toBe("brq_Raw1");
    expect(seen).toEqual(["?status=running,failed"]);
    client.raw.eject(mw);
    await client.raw.GET("/v1/browser/requests", {});
    expect(seen).toHaveLength(1);
    expect(server.requests.every((r) => r.headers["x-api-key"] === API_KEY)).toBe(true);
  });

  it("refuses malformed middleware at once, as openapi-fetch does", () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: API_KEY });
    expect(() => client.raw.use({} as never)).toThrow(/Middleware must be an object/);
  });
});
