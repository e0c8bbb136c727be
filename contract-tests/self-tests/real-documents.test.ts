/**
 * Real public documents (fixtures/real-documents, see its README for sources, licences and how each finding
 * was judged) against the Prism mock, the whole suite in this process: every error finding is one judged to
 * be a real deviation of the mock or a real defect of the document, never the suite misreading what the
 * document allows; the requests the suite once built wrong for these documents are built right.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrism } from "../../openapi/lib/prism.js";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import { readSettings } from "../config/settings.js";
import type { Finding } from "../model/types.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/real-documents/${name}`, import.meta.url));

/** Each document, and its error findings as judged (`operation check`), each with the judgement. */
const DOCUMENTS = {
  "oas-examples-3.0-request-examples.json": {
    post_requestBody: {
      content_type_conformance:
        "mock: Prism answers malformed JSON with its own 400 as " +
        "application/json; the document's 400 is application/xml",
    },
    put_requestBody_primitive_example: {
      response_schema_conformance:
        "document: its response examples are JSON text in a string where the schema is an array",
    },
    patch_requestBody_primitive_example: {
      response_schema_conformance:
        "document: its response examples are JSON text in a string where the schema is an object",
    },
  },
  "oas-examples-2.0-petstore.json": {},
  "oas-examples-3.1-schema-validation-local.json": {},
  "apis-guru-authentiq.json": {
    sign_update: {
      not_a_server_error:
        "mock: Prism cannot write the documented application/jwt and answers its own " +
        "500 (the default response describes a failure, it allows none); its problem body breaks the default " +
        "response's schema, noted under it",
    },
  },
} satisfies Record<string, Record<string, Record<string, string>>>;

const runs = new Map<string, ScenarioResult[]>();

beforeAll(async () => {
  // The mocks start together (most of the time is Prism's start), the runs go one after the other.
  const names = Object.keys(DOCUMENTS);
  const started = await Promise.allSettled(
    names.map((name) => startPrism({ spec: fixture(name), startTimeoutMs: 90_000 })),
  );
  try {
    for (const [i, name] of names.entries()) {
      const prism = started[i]!;
      if (prism.status === "rejected") throw prism.reason;
      const settings = {
        ...readSettings({ CONTRACT_SPEC: fixture(name), CONTRACT_EXAMPLES: "2" }),
        baseUrl: prism.value.url,
      };
      runs.set(name, (await runContract(settings)).results);
    }
  } finally {
    await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.stop() : undefined)));
  }
}, 150_000);

const findings = (name: string): Finding[] => runs.get(name)!.flatMap((r) => r.findings);
const judged = (name: keyof typeof DOCUMENTS) =>
  Object.entries(DOCUMENTS[name] as Record<string, Record<string, string>>)
    .flatMap(([op, checks]) => Object.keys(checks).map((c) => `${op} ${c}`))
    .sort();

describe("real public documents against the Prism mock", () => {
  it.each(Object.keys(DOCUMENTS) as Array<keyof typeof DOCUMENTS>)(
    "%s: only the judged error findings, each naming its promise, and no internal error",
    (name) => {
      expect(
        runs
          .get(name)!
          .filter((r) => r.error)
          .map((r) => r.error),
      ).toEqual([]);
      const errors = findings(name).filter((f) => f.severity === "error");
      expect([...new Set(errors.map((f) => `${f.operation} ${f.check}`))].sort()).toEqual(judged(name));
      expect(errors.filter((f) => !f.promise)).toEqual([]);
    },
  );

  it(
    "asks for an example pair in the media type that holds it, and " +
      "holds examples that break their schema in doubt",
    () => {
      const all = findings("oas-examples-3.0-request-examples.json");
      expect(all.filter((f) => f.operation === "post_requestBody_multi_media_types" && f.severity === "error")).toEqual(
        [],
      );
      const doubted = all.filter(
        (f) => f.check === "positive_data_acceptance" && /primitive_example/.test(f.operation),
      );
      expect(doubted.length).toBeGreaterThan(0);
      expect(doubted.every((f) => f.severity === "warning" && /breaks its own schema/.test(f.documented))).toBe(true);
    },
  );

  it("holds a Swagger 2.0 body without consumes in doubt (Prism refuses every such body)", () => {
    const refused = findings("oas-examples-2.0-petstore.json").filter(
      (f) => f.operation === "placeOrder" && f.check === "positive_data_acceptance",
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((f) => f.severity === "warning" && /no Swagger 2.0 consumes/.test(f.documented))).toBe(true);
  });

  it(
    "reads a schema's own draft-04 $schema in its meaning: no " + "value below an exclusive minimum is sent as valid",
    () => {
      const positive = runs
        .get("oas-examples-3.1-schema-validation-local.json")!
        .filter((r) => r.phase === "positive" || r.phase === "examples");
      expect(positive.every((r) => r.status === "passed")).toBe(true);
      expect(positive.reduce((n, r) => n + r.exchanges, 0)).toBeGreaterThan(2);
    },
  );
});

afterAll(() => runs.clear());
