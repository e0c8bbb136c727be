/**
 * The whole suite (every scenario, run in this process by the engine npm run contract uses) against the
 * fault-injecting server with document copies whose security scheme is another one: the credential goes where the
 * document says, a server ignoring it is caught, and it is never recorded. (The fault catalogue is in
 * faults.test.ts, the conforming and lenient servers in conforming-servers.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { FAULT_SERVER_KEY } from "../fault-server/server.js";
import { documentWithSecurityScheme } from "../fixtures/document-copy.js";
import { buildReport } from "../report/render.js";
import { errorsOf, faultRuns, type Plan, errorsWithoutPromise } from "./support/fault-runs.js";
import { tempDir } from "./support/spawn.js";

/** The document copy with its security scheme replaced, per scheme name. */
const SCHEMES = {
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  query: { type: "apiKey", in: "query", name: "api_key" },
  cookie: { type: "apiKey", in: "cookie", name: "api_key" },
} as const;
type SchemeName = keyof typeof SCHEMES;

const runs = faultRuns((server): Plan[] => [
  // The server takes the credential only where the scheme puts it: a suite sending it elsewhere fails.
  ...(Object.keys(SCHEMES) as SchemeName[]).flatMap((k): Plan[] => {
    const spec = documentWithSecurityScheme(SCHEMES[k], tempDir("contract-doc-"));
    return [
      // Two generated requests per operation are enough to show where the credential goes, and the faults need only
      // the phases that probe the credential (npm test stays fast); the conforming runs run every phase.
      [
        `${k}:conforming`,
        { CONTRACT_BASE_URL: server.baseUrl(`credential-${k}`), CONTRACT_EXAMPLES: "2", CONTRACT_SPEC: spec },
      ],
      [
        `${k}:ignores-auth`,
        {
          CONTRACT_BASE_URL: server.baseUrl(`credential-${k}`, "ignores-auth"),
          CONTRACT_EXAMPLES: "2",
          CONTRACT_SPEC: spec,
          CONTRACT_PHASES: "examples,auth",
        },
      ],
      [
        `${k}:wrong-key-accepted`,
        {
          CONTRACT_BASE_URL: server.baseUrl(`credential-${k}`, "wrong-key-accepted"),
          CONTRACT_EXAMPLES: "2",
          CONTRACT_SPEC: spec,
          CONTRACT_PHASES: "examples,auth",
        },
      ],
    ];
  }),
  // The document's X-API-Key sent to a server that takes a bearer token: every authenticated request refused.
  ["header-to-bearer-server", { CONTRACT_BASE_URL: server.baseUrl("credential-bearer"), CONTRACT_EXAMPLES: "2" }],
]);

describe("a document with another security scheme: the credential goes where the document says", () => {
  it.each(Object.keys(SCHEMES))(
    "%s: the conforming server passes every scenario, the auth phase included",
    (scheme) => {
      const { results } = runs.get(`${scheme}:conforming`)!;
      expect(
        results
          .filter((r) => r.status !== "passed")
          .map((r) => `${r.id}: ${r.skipReason ?? r.error ?? JSON.stringify(r.findings.map((f) => f.title))}`),
      ).toEqual([]);
      expect(results.filter((r) => r.phase === "auth").every((r) => r.exchanges > 0)).toBe(true);
    },
  );

  it.each(
    Object.keys(SCHEMES).flatMap((k) => [
      [k, "ignores-auth"],
      [k, "wrong-key-accepted"],
    ]),
  )("%s: %s is caught by ignored_auth", (scheme, fault) => {
    expect(errorsOf(runs.get(`${scheme}:${fault}`)!.results)).toContain("ignored_auth");
  });

  it("a credential in the wrong place is refused, and the run fails (the check the scheme runs rely on)", () => {
    const { results } = runs.get("header-to-bearer-server")!;
    const positive = results.filter((r) => r.phase === "positive");
    expect(positive.filter((r) => r.status === "passed").map((r) => r.id)).toEqual([]);
    expect(positive.filter((r) => r.status === "failed").length).toBeGreaterThanOrEqual(3);
  });

  it("never records the credential: the key, its base64 (basic) and its cookie or query forms are scrubbed", () => {
    for (const scheme of Object.keys(SCHEMES)) {
      const results = [`${scheme}:conforming`, `${scheme}:ignores-auth`].flatMap((n) => runs.get(n)!.results);
      const text = JSON.stringify(
        buildReport({ kind: "live", baseUrl: "", strict: false, spec: "" }, [], results, { entries: [] }, 0),
      );
      expect(results.flatMap((r) => r.findings).length, scheme).toBeGreaterThan(0);
      for (const form of [
        FAULT_SERVER_KEY,
        Buffer.from(`${FAULT_SERVER_KEY}:`).toString("base64"),
        encodeURIComponent(FAULT_SERVER_KEY),
      ])
        expect(text, scheme).not.toContain(form);
    }
  });
});

describe("every error finding names its promise", () => {
  it("names a promise for every error finding of every run of this file", () => {
    const { errors, unnamed } = errorsWithoutPromise(runs);
    expect(errors).toBeGreaterThan(0);
    expect(unnamed).toEqual([]);
  });
});
