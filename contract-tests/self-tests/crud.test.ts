/**
 * The whole suite (the engine `npm run contract` uses) against the CRUD fault server with only CONTRACT_SPEC,
 * CONTRACT_BASE_URL and the key set: with its document without links (producers inferred) and with links,
 * every planted lifecycle fault is caught by the check that must catch it, the conforming variant passes with
 * no error, writes go only to resources the run created, and what it created is deleted at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrism } from "../../openapi/lib/prism.js";
import { runContract } from "../cli/contract-run.js";
import type { ScenarioResult } from "../model/types.js";
import {
  CRUD_FAULTS,
  CRUD_SERVER_KEY,
  startCrudServer,
  type CrudFault,
  type CrudServer,
} from "../fault-server/crud.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crudDocument, writeCrudDocument } from "../fault-server/crud-document.js";
import { readSettings } from "../config/settings.js";
import { specModel } from "../model/model.js";
import { linkPointer } from "../model/promise.js";
import { allLinks, evaluate } from "../model/links.js";
import { cleanUp, tempDir } from "./support/spawn.js";
import { errorFindings, errorsOf, findingsPerFault } from "./support/fault-runs.js";

type Run = { results: ScenarioResult[]; requests: number };
const DOCUMENTS = ["without links", "with links"] as const;
/** The hostile phase's string faults are caught, with exactly their checks, in hostile-runs.test.ts. */
const CAUGHT_HERE = (Object.keys(CRUD_FAULTS) as CrudFault[]).filter(
  (f) => !(CRUD_FAULTS[f].phases as readonly string[]).includes("hostile"),
);
const VARIANTS = ["conforming", ...CAUGHT_HERE] as Array<"conforming" | CrudFault>;
const runs = new Map<string, Run>();
let server: CrudServer;

const faultEnv = (f: CrudFault) => ({ CONTRACT_EXAMPLES: "2", CONTRACT_PHASES: CRUD_FAULTS[f].phases.join(",") });
const faultsOf = (v: string) => (v === "conforming" ? [] : [v as CrudFault]);

/** Each document written once: its runs share the model loaded for it (parsed once, its schemas compiled once). */
const written = new Map<string, string>();
const documentPath = (doc: (typeof DOCUMENTS)[number]) => {
  if (!written.has(doc)) written.set(doc, writeCrudDocument(tempDir("crud-doc-"), doc === "with links"));
  return written.get(doc)!;
};

async function run(doc: (typeof DOCUMENTS)[number], variant: string, env: Record<string, string> = {}) {
  const dir = tempDir("crud-");
  const settings = readSettings({
    CONTRACT_SPEC: documentPath(doc),
    CONTRACT_BASE_URL: server.baseUrl(...faultsOf(variant)),
    CONTRACT_API_KEY: CRUD_SERVER_KEY,
    CONTRACT_REPORTS_DIR: dir,
    ...env,
  });
  const { run: r, results } = await runContract(settings);
  return { results, requests: r.target.requestsSent() };
}

beforeAll(async () => {
  server = await startCrudServer();
  const plans = DOCUMENTS.flatMap((d) => VARIANTS.map((v) => [d, v] as const));
  const queue = [...plans];
  let uniqueTitle = false;
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      // A server that keeps titles unique, every phase that creates: the run's own titles are never repeated.
      if (!uniqueTitle) {
        uniqueTitle = true;
        runs.set("unique-title", await run("without links", "unique-title", { CONTRACT_EXAMPLES: "3" }));
      }
      // A fault's run: two generated requests per operation, only the phases that reach it (npm test stays fast);
      // the conforming variants run every phase with the default.
      for (let p = queue.shift(); p; p = queue.shift())
        runs.set(`${p[0]}: ${p[1]}`, await run(p[0], p[1], p[1] === "conforming" ? {} : faultEnv(p[1] as CrudFault)));
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  cleanUp();
});

describe.each(DOCUMENTS)("the CRUD server's document %s", (doc) => {
  it("the conforming variant passes with no error, reaching every operation, under 300 requests", () => {
    const { results, requests } = runs.get(`${doc}: conforming`)!;
    expect(errorsOf(results)).toEqual([]);
    expect(results.filter((r) => r.status === "failed").map((r) => r.id)).toEqual([]);
    const reached = new Set(results.filter((r) => r.exchanges > 0).map((r) => r.operation));
    for (const op of ["listPosts", "createPost", "getPost", "updatePost", "patchPost", "deletePost"])
      expect(reached.has(op), op).toBe(true);
    for (const phase of ["lifecycle", "unknown-ids", "links"])
      expect(
        results.some((r) => r.phase === phase && r.status === "passed" && r.exchanges > 0),
        phase,
      ).toBe(true);
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThan(300);
  });

  it.each(CAUGHT_HERE.map((f) => [f, CRUD_FAULTS[f]] as const))("%s is caught by its check", (fault, { catchers }) => {
    const errors = errorsOf(runs.get(`${doc}: ${fault}`)!.results);
    expect(errors).toContain(catchers[0]);
  });

  it("is one error finding per planted fault: at most 2, on average at most 1.2 (issue 33)", () => {
    const counts = Object.fromEntries(CAUGHT_HERE.map((f) => [f, errorFindings(runs.get(`${doc}: ${f}`)!.results)]));
    const { average, above } = findingsPerFault(counts);
    expect(above).toEqual([]);
    expect(average, JSON.stringify(counts)).toBeLessThanOrEqual(1.2);
  });

  it("tries a refused create with every member set before the lifecycle gives up on it", () => {
    const { results } = runs.get(`${doc}: create-requires-every-member`)!;
    const lifecycle = results.filter((r) => r.phase === "lifecycle");
    expect(lifecycle.length).toBeGreaterThan(0);
    expect(lifecycle.filter((r) => r.status !== "passed" && r.status !== "failed").map((r) => r.skipReason)).toEqual(
      [],
    );
    expect(lifecycle.some((r) => r.exchanges > 2)).toBe(true);
  });

  it("deletes at the end what it created, and says so", () => {
    const { results } = runs.get(`${doc}: conforming`)!;
    expect(server.posts()).toEqual([]);
    const cleanup = results.find((r) => r.phase === "cleanup")!;
    expect(cleanup.status).toBe("passed");
    expect(cleanup.notes?.[0]).toMatch(/^created \d+ resource\(s\): \/posts\/\{postId\}: /);
    expect(cleanup.notes?.[1]).toBe("left behind: nothing (each created resource was deleted)");
  });

  it("takes no post another client created for one a refused create left (a warning at most)", async () => {
    for (const variant of ["lenient-others-create", "refused-create-stores+lenient-others-create"]) {
      const { results } = await run(doc, variant, { CONTRACT_PHASES: "lifecycle" });
      expect(errorsOf(results), variant).toEqual([]);
      const leaks = results.flatMap((r) => r.findings).filter((f) => f.check === "refused_create_leak");
      // The planted leak beside other clients' creates is still told, as a warning naming why it may not be one.
      if (variant.startsWith("refused")) expect(leaks.map((f) => f.severity)).toContain("warning");
      expect(results.some((r) => r.phase === "lifecycle" && r.status === "passed")).toBe(true);
    }
  });

  it("lists what a delete that does not delete left behind", () => {
    expect(server.posts("delete-keeps").length).toBeGreaterThan(0);
  });
});

describe("a server that keeps a member unique (crud unique-title)", () => {
  it("gets a fresh title in every create: no refusal of the run's own repetition, every create reached", () => {
    const { results } = runs.get("unique-title")!;
    expect(errorsOf(results)).toEqual([]);
    const created = results.filter((r) => r.operation === "createPost" && r.status === "passed");
    expect(created.length).toBeGreaterThan(3);
    expect(results.filter((r) => /answered status 400/.test(r.skipReason ?? "")).map((r) => r.id)).toEqual([]);
  });
});

describe("inference", () => {
  it("against the static mock, an inferred link sends no unknown identifier (it answers any id alike)", async () => {
    // The same service with text identifiers (a probe replaces a linked text value with one that does not exist).
    const spec = join(tempDir("crud-mock-"), "text-ids.json");
    const integerId = JSON.stringify({ type: "integer", format: "int64", minimum: 1 });
    writeFileSync(spec, JSON.stringify(crudDocument(false)).replaceAll(integerId, '{"type":"string","minLength":1}'));
    const prism = await startPrism({ spec, startTimeoutMs: 90_000 });
    try {
      const settings = { ...readSettings({ CONTRACT_SPEC: spec, CONTRACT_EXAMPLES: "2" }), baseUrl: prism.url };
      const { results } = await runContract(settings);
      const probes = results.flatMap((r) => r.findings).filter((f) => f.check === "unknown_resource");
      expect(
        results.some((r) => r.title.includes("inferred:")),
        "the links are inferred on the mock too",
      ).toBe(true);
      expect(probes.map((f) => f.title)).toEqual([]);
    } finally {
      await prism.stop();
    }
  }, 90_000);

  it("names each inferred link in the scenario titles; the document's links win over inference", () => {
    const plain = runs.get("without links: conforming")!.results;
    expect(plain.map((r) => r.title)).toContain(
      "links: inferred: createPost 201 body `id` -> getPost `postId`; the " +
        "linked resource is available and unknown ones are not",
    );
    expect(plain.map((r) => r.title)).toContainEqual(
      expect.stringContaining("links: inferred: listPosts 200 body `items/*/id` -> getPost `postId`"),
    );
    const linked = runs.get("with links: conforming")!.results;
    expect(linked.filter((r) => r.title.includes("inferred:"))).toEqual([]);
  });

  it(
    "matches by name and schema: an id of another type feeds " + "nothing; a Location header feeds its last segment",
    () => {
      const dir = tempDir("crud-");
      const names = (doc: Record<string, any>) => {
        const path = join(dir, `doc-${Math.random().toString(36).slice(2)}.json`);
        writeFileSync(path, JSON.stringify(doc));
        return allLinks(specModel(path), true).map((l) => l.link.name);
      };
      expect(names(crudDocument(false))).toHaveLength(8);
      const textIds = crudDocument(false) as Record<string, any>;
      textIds.components.schemas.Post.properties.id = { type: "string" };
      expect(names(textIds), "a text id never feeds an integer postId").toEqual([]);
      const located = crudDocument(false) as Record<string, any>;
      located.components.schemas.Post.properties.id = { type: "string", format: "uuid" };
      located.paths["/posts"].post.responses["201"].headers = { Location: { schema: { type: "string" } } };
      expect(names(located).sort()).toEqual([
        "inferred: createPost 201 header `Location` -> deletePost `postId`",
        "inferred: createPost 201 header `Location` -> getPost `postId`",
        "inferred: createPost 201 header `Location` -> patchPost `postId`",
        "inferred: createPost 201 header `Location` -> updatePost `postId`",
      ]);
      const created = {
        operation: "createPost",
        request: { method: "POST", url: "", path: "/posts", query: {}, headers: {} },
        response: {
          status: 201,
          headers: { location: "https://api.example/posts/12?x=1" },
          contentType: null,
          bodyText: "",
          bodyBytes: 0,
          elapsedMs: 0,
        },
      };
      expect(evaluate("$response.header.Location#last-segment", created)).toBe("12");
    },
  );

  it(
    "is turned off by CONTRACT_INFER_LINKS=false: operations " + "with an identifier then need CONTRACT_PARAMS",
    async () => {
      const { results } = await run("without links", "conforming", { CONTRACT_INFER_LINKS: "false" });
      expect(results.filter((r) => r.title.includes("inferred:"))).toEqual([]);
      expect(results.find((r) => r.id === "getPost/positive")?.skipReason).toMatch(/needs CONTRACT_PARAMS/);
      expect(errorsOf(results)).toEqual([]);
    },
  );
});

describe("a live target is changed only where the suite may", () => {
  it("never writes to an id it did not create: a constant in a link (42) and listed ids are only read", async () => {
    const own = await startCrudServer();
    try {
      const doc = crudDocument(true) as Record<string, any>;
      doc.paths["/posts"].get.responses["200"].links.DeleteFortyTwo = {
        operationId: "deletePost",
        parameters: { postId: 42 },
      };
      const spec = join(tempDir("crud-"), "constant.json");
      writeFileSync(spec, JSON.stringify(doc));
      const { results } = await runContract(
        readSettings({ CONTRACT_SPEC: spec, CONTRACT_BASE_URL: own.baseUrl(), CONTRACT_API_KEY: CRUD_SERVER_KEY }),
      );
      const writes = own.requests().filter((r) => /^(PUT|PATCH|DELETE) /.test(r));
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.filter((r) => r.endsWith("/posts/42"))).toEqual([]);
      expect(results.find((r) => r.id === "listPosts/links/DeleteFortyTwo")?.skipReason).toMatch(
        /only with a resource this run created; 42 is not one/,
      );
      expect(errorsOf(results)).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it(
    "never answers a repeated delete as fresh input: a delete " + "reaches each resource once, except to show it gone",
    () => {
      const { results } = runs.get("without links: conforming")!;
      // A DELETE of an id the run already deleted, sent as valid input, would be a 404 "Valid input rejected".
      expect(results.flatMap((r) => r.findings).filter((f) => f.check === "positive_data_acceptance")).toEqual([]);
    },
  );

  it(
    "probes auth with a resource that exists: a delete that ignores " +
      "the missing key is caught by ignored_auth alone",
    () => {
      const errors = errorsOf(runs.get("without links: delete-ignores-missing-key")!.results);
      expect(errors).toEqual(["ignored_auth"]);
    },
  );

  it("reads a link from a delete to a read as 'gone': the correct 404 is no finding, a kept resource is", () => {
    const conforming = runs.get("with links: conforming")!.results;
    const afterDelete = conforming.find((r) => r.id === "deletePost/links/GetDeletedPost")!;
    expect(afterDelete.status).toBe("passed");
    expect(afterDelete.exchanges).toBeGreaterThan(0);
    const kept = runs.get("with links: delete-keeps")!.results.find((r) => r.id === "deletePost/links/GetDeletedPost")!;
    expect(kept.findings.map((f) => f.check)).toContain("use_after_free");
  });

  it("cites the link a finding relies on by operation, response and name (three links are named GetPost)", () => {
    const model = specModel(writeCrudDocument(tempDir("crud-"), true));
    const named = allLinks(model, true).filter((l) => l.link.name === "GetPost");
    expect(named.map((l) => linkPointer(model, l))).toEqual([
      "#/paths/~1posts/get/responses/200/links/GetPost",
      "#/paths/~1posts/post/responses/201/links/GetPost",
      "#/paths/~1posts~1{postId}/put/responses/200/links/GetPost",
    ]);
    const findings = runs.get("with links: id-read-as-string")!.results.flatMap((r) => r.findings);
    const promises = findings.filter((f) => f.check === "resource_availability").map((f) => f.promise);
    expect(promises.length).toBeGreaterThan(0);
    for (const p of promises) expect(p).toBe("#/paths/~1posts~1{postId}/get/responses/200");
  });
});
