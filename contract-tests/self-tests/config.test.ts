import { describe, expect, it } from "vitest";
import { readSettings, SettingsError, MOCK_API_KEY } from "../config.js";

const live = { CONTRACT_BASE_URL: "https://staging.example.com/", CONTRACT_API_KEY: "k-123" };

describe("readSettings", () => {
  it("fills the documented defaults for a live target and strips the trailing slash", () => {
    const s = readSettings(live);
    expect(s).toMatchObject({ kind: "live", baseUrl: "https://staging.example.com", apiKey: "k-123", schemaId: undefined, sitemapUrl: "https://example.com", unavailableUrl: "https://unavailable.invalid/", strict: false });
    expect(s.reportsDir).toMatch(/reports$/);
  });

  it("uses the example's schema id and a placeholder key only when run.ts declares the mock", () => {
    expect(readSettings({ CONTRACT_BASE_URL: "http://127.0.0.1:4010", CONTRACT_TARGET_KIND: "mock" }, "dsc_example")).toMatchObject({ kind: "mock", apiKey: MOCK_API_KEY, schemaId: "dsc_example" });
    expect(readSettings(live, "dsc_example").schemaId).toBeUndefined();
  });

  it.each([
    [{ ...live, CONTRACT_BASE_URL: "staging.example.com" }, /CONTRACT_BASE_URL must be an absolute http\(s\) URL/],
    [{ ...live, CONTRACT_BASE_URL: "ftp://staging.example.com" }, /CONTRACT_BASE_URL must use http or https/],
    [{ ...live, CONTRACT_BASE_URL: "https://staging.example.com/v1" }, /CONTRACT_BASE_URL must not end in \/v1/],
    [{ ...live, CONTRACT_BASE_URL: "https://staging.example.com/?x=1" }, /CONTRACT_BASE_URL must not carry a query/],
    [{ CONTRACT_BASE_URL: "https://staging.example.com" }, /CONTRACT_API_KEY is required/],
    [{ ...live, CONTRACT_SITEMAP_URL: "not a url" }, /CONTRACT_SITEMAP_URL must be an absolute/],
    [{ ...live, CONTRACT_UNAVAILABLE_URL: "mailto:x@example.com" }, /CONTRACT_UNAVAILABLE_URL must use http or https/],
    [{ ...live, CONTRACT_STRICT: "yes" }, /CONTRACT_STRICT must be 1 or 0/],
    [{ ...live, CONTRACT_SCHEMA_ID: "a/b" }, /CONTRACT_SCHEMA_ID must be a single path segment/],
  ])("rejects %o naming the variable and the rule", (env, message) => {
    expect(() => readSettings(env)).toThrow(SettingsError);
    expect(() => readSettings(env)).toThrow(message);
  });

  it("never puts the API key in a settings error", () => {
    try {
      readSettings({ ...live, CONTRACT_API_KEY: "secret-key-value", CONTRACT_STRICT: "maybe" });
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain("secret-key-value");
    }
  });
});
