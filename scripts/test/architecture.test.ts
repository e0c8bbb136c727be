/**
 * The import graph keeps its shape: dependencies point one way (openapi/lib -> generated -> src, and
 * openapi/lib -> contract-tests), the HTTP code the client and the suite share is wire/, which imports nothing
 * else of the project, the suite imports nothing of the client, and neither has an import cycle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts") && !d.name.endsWith(".d.ts"))
    .map((d) => relative(ROOT, join(d.parentPath, d.name)));
}

/** Every relative import of every TypeScript file in the project (static, dynamic and type-only). */
function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of ["openapi", "generated", "src", "wire", "contract-tests", "scripts"].flatMap(files)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)/gm)) {
      const spec = m[3] ?? m[4]!;
      const to = relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, ".ts");
      out.push({ from: file, to, typeOnly: Boolean(m[2]) });
    }
  }
  return out;
}

const isTest = (f: string) => /(^|\/)(test|self-tests|fixtures|fault-server)\//.test(f) || f.endsWith(".test.ts");
const top = (f: string) => (f.startsWith("openapi/lib/") ? "openapi/lib" : f.split("/")[0]!);

/** What production code of each top-level folder may import. */
const ALLOWED: Record<string, (to: string) => boolean> = {
  "openapi/lib": (to) => to.startsWith("openapi/lib/"),
  generated: () => false,
  // The HTTP steps both sends share (deadline, bounded body read, decoding, Retry-After, the key scrubber, what a
  // failed connection means): below the client and the suite, so it can depend on neither.
  wire: (to) => to.startsWith("wire/"),
  src: (to) => to.startsWith("src/") || to.startsWith("generated/") || to.startsWith("wire/"),
  // The oracle stays independent of the client it could test: it shares wire/ with it, nothing of src/.
  "contract-tests": (to) => to.startsWith("contract-tests/") || to.startsWith("openapi/lib/") || to.startsWith("wire/"),
  scripts: () => true,
};

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const walk = (node: string, path: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "visiting") return void found.push([...path.slice(path.indexOf(node)), node]);
    state.set(node, "visiting");
    for (const next of graph.get(node) ?? []) walk(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

/**
 * The contract suite's layers, lowest first: a production file imports only from its own layer or a lower
 * one (type-only imports included). See contract-tests/README.md, "Architecture".
 */
const LAYERS = ["model", "config", "transport", "checks", "engine", "modules", "report", "cli"];
const layerOf = (f: string): number | undefined => {
  const m = /^contract-tests\/([^/]+)\//.exec(f);
  const i = m ? LAYERS.indexOf(m[1]!) : -1;
  return i < 0 ? undefined : i;
};

const graphOf = (list: Edge[]) => {
  const g = new Map<string, string[]>();
  for (const e of list) g.set(e.from, [...(g.get(e.from) ?? []), e.to]);
  return g;
};

describe("the import graph", () => {
  const all = edges();

  it("is read (a sanity check of the parser)", () => {
    expect(all.some((e) => e.from === "src/client.ts" && e.to === "generated/routes.ts")).toBe(true);
    expect(all.some((e) => e.from === "contract-tests/cli/contract-run.ts" && e.to === "wire/connection.ts")).toBe(
      true,
    );
    expect(all.some((e) => e.from === "src/transport.ts" && e.to === "wire/body.ts")).toBe(true);
  });

  it("points one way: no production folder imports from a folder above it", () => {
    const wrong = all.filter((e) => !isTest(e.from) && ALLOWED[top(e.from)] && !ALLOWED[top(e.from)]!(e.to));
    expect(wrong.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("has no cycle in src/ (type-only imports included)", () => {
    expect(
      cycles(graphOf(all.filter((e) => e.from.startsWith("src/") && !isTest(e.from) && e.to.startsWith("src/")))),
    ).toEqual([]);
  });

  it("has no cycle anywhere in production code (type-only imports included)", () => {
    expect(cycles(graphOf(all.filter((e) => !isTest(e.from) && !isTest(e.to))))).toEqual([]);
  });

  it("keeps the contract suite's layers: no file imports from a layer above its own", () => {
    const production = all.filter((e) => e.from.startsWith("contract-tests/") && !isTest(e.from));
    expect(
      production.every((e) => layerOf(e.from) !== undefined),
      "every production file is in a layer folder",
    ).toBe(true);
    const upward = production.filter((e) => (layerOf(e.to) ?? -1) > layerOf(e.from)!);
    expect(upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("has no cycle of value imports in the contract suite", () => {
    expect(
      cycles(
        graphOf(
          all.filter(
            (e) =>
              e.from.startsWith("contract-tests/") &&
              !e.typeOnly &&
              !isTest(e.from) &&
              e.to.startsWith("contract-tests/"),
          ),
        ),
      ),
    ).toEqual([]);
  });

  it("would see a cycle and a wrong direction (the checks are live)", () => {
    expect(
      cycles(
        graphOf([
          { from: "a", to: "b", typeOnly: false },
          { from: "b", to: "a", typeOnly: false },
        ]),
      ),
    ).toHaveLength(1);
    expect(ALLOWED.src!("contract-tests/transport/target.ts")).toBe(false);
    expect(ALLOWED["contract-tests"]!("src/client.ts")).toBe(false);
    expect(ALLOWED["contract-tests"]!("src/redact.ts")).toBe(false);
    expect(ALLOWED.wire!("src/errors.ts")).toBe(false);
    expect(ALLOWED.wire!("openapi/lib/operations.ts")).toBe(false);
  });
});
