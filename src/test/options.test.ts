import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArgumentError, createClient, DEFAULT_TIMEOUT_MS, VERSION, type WebautoClient } from "../index.js";
import { API_KEY, expectNoSecretRecorded, record, rejection, thrown } from "./support/secrets.js";

const saved = { base: process.env.WEBAUTO_BASE_URL, key: process.env.WEBAUTO_API_KEY };
beforeEach(() => {
  delete process.env.WEBAUTO_BASE_URL;
  delete process.env.WEBAUTO_API_KEY;
});
afterEach(() => {
  if (saved.base === undefined) delete process.env.WEBAUTO_BASE_URL;
  else process.env.WEBAUTO_BASE_URL = saved.base;
  if (saved.key === undefined) delete process.env.WEBAUTO_API_KEY;
  else process.env.WEBAUTO_API_KEY = saved.key;
});

const argumentOf = (fn: () => unknown): ArgumentError => {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(ArgumentError);
  return err as ArgumentError;
};

describe("createClient options", () => {
  it("requires an API key, naming the option and the environment fallback", () => {
    const err = argumentOf(() => createClient({ baseUrl: "https://api.example.com" }));
    expect(err.argument).toBe("apiKey");
    expect(err.message).toContain("WEBAUTO_API_KEY");
  });

  it("requires a base URL, naming the environment fallback", () => {
    expect(argumentOf(() => createClient({ apiKey: API_KEY })).message).toContain("WEBAUTO_BASE_URL");
  });

  it("falls back to WEBAUTO_BASE_URL and WEBAUTO_API_KEY", () => {
    process.env.WEBAUTO_BASE_URL = "https://api.example.com/";
    process.env.WEBAUTO_API_KEY = API_KEY;
    expect(createClient().baseUrl).toBe("https://api.example.com");
  });

  it.each([
    ["not a url", /absolute http: or https: URL/],
    ["ftp://api.example.com", /must use http: or https:/],
    ["https://user:pass@api.example.com", /must not contain credentials/],
    ["https://api.example.com/?x=1", /query or fragment/],
    ["https://api.example.com/v1", /must not end with \/v1/],
  ])("refuses the malformed base URL %s", (baseUrl, rule) => {
    const err = argumentOf(() => createClient({ baseUrl, apiKey: API_KEY }));
    expect(err.argument).toBe("baseUrl");
    expect(err.rule).toMatch(rule);
  });

  it("refuses plain http: to a non-loopback host unless allowInsecureHttp is set", () => {
    expect(argumentOf(() => createClient({ baseUrl: "http://api.example.com", apiKey: API_KEY })).rule).toContain(
      "allowInsecureHttp",
    );
    expect(createClient({ baseUrl: "http://api.example.com", apiKey: API_KEY, allowInsecureHttp: true }).baseUrl).toBe(
      "http://api.example.com",
    );
    for (const host of ["127.0.0.1:4010", "localhost:4010", "[::1]:4010", "app.localhost"]) {
      expect(createClient({ baseUrl: `http://${host}`, apiKey: API_KEY }).baseUrl).toBe(`http://${host}`);
    }
  });

  it("refuses plain http: per call too, when client.raw is pointed elsewhere", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: API_KEY });
    const err = await rejection(client.raw.GET("/v1/browser/requests", { baseUrl: "http://api.example.com" }));
    expect(err).toBeInstanceOf(ArgumentError);
  });

  it.each([
    [{ timeoutMs: -1 }, "timeoutMs"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ timeoutMs: Number.NaN }, "timeoutMs"],
    [{ maxRetries: -1 }, "maxRetries"],
    [{ maxRetries: 1.5 }, "maxRetries"],
  ])("refuses %o naming %s", (opts, name) => {
    expect(
      argumentOf(() => createClient({ baseUrl: "https://api.example.com", apiKey: API_KEY, ...opts })).argument,
    ).toBe(name);
  });

  it("refuses invalid per-call options and arguments before any request", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: API_KEY });
    expect(((await rejection(client.listBrowserRequests({}, { timeoutMs: -5 }))) as ArgumentError).argument).toBe(
      "opts.timeoutMs",
    );
    expect(((await rejection(client.listBrowserRequests({}, { maxRetries: -1 }))) as ArgumentError).argument).toBe(
      "opts.maxRetries",
    );
    expect(((await rejection(client.mapSite({ url: "" }))) as ArgumentError).argument).toBe("input.url");
    expect(((await rejection(client.mapSite({ url: "https://x", max_cache_age: -1 }))) as ArgumentError).argument).toBe(
      "input.max_cache_age",
    );
    expect(((await rejection(client.updateSchema("", {}))) as ArgumentError).argument).toBe("id");
  });

  it("refuses a key with a line break without echoing it", () => {
    const err = argumentOf(() => createClient({ baseUrl: "https://api.example.com", apiKey: `${API_KEY}\n` }));
    expect(err.message).not.toContain(API_KEY);
  });

  it("defaults the per-attempt timeout to 75 s, room for the sitemap's 60 s", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(75_000);
    expect(createClient({ baseUrl: "https://api.example.com", apiKey: API_KEY }).toJSON()).toMatchObject({
      timeoutMs: 75_000,
      maxRetries: 2,
    });
  });

  it("keeps the key out of inspect, JSON, toString and enumerable properties of the client", () => {
    const client: WebautoClient = createClient({ baseUrl: "https://api.example.com", apiKey: API_KEY });
    record(client);
    expect(inspect(client, { showHidden: true, depth: 5 })).not.toContain(API_KEY);
    expect(JSON.stringify(client)).toContain('"apiKey":"***"');
    expect(Object.values(client).join(" ")).not.toContain(API_KEY);
    expect(inspect(client.raw, { showHidden: true, depth: 5 })).not.toContain(API_KEY);
  });

  it("keeps VERSION equal to package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

it("never shows the API key in any error or log line of this file", () => {
  expectNoSecretRecorded(10);
});
