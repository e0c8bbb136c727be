/**
 * `npm run generate`: writes every artifact derived from `openapi/openapi.yaml` into `generated/`:
 *   - `schema.d.ts`     TypeScript types (openapi-typescript), for the client's typed paths;
 *   - `operations.json` the operation table (openapi/lib/operations.ts), for tools and readers;
 *   - `routes.ts`       the slice of that table the client needs at run time (method, path, query styles,
 *                       the success schema and its required members, the API-key header);
 *   - `schemas.ts`      the component schemas without annotations, for the client's optional validation.
 * `--check` (`npm run check-generated`) writes nothing and exits 1 naming each stale file, with a diff.
 * `--spec FILE` and `--out DIR` override the two paths (tests use them on copies).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createPatch } from "diff";
import { buildOperationTable, successResponse, type OperationEntry } from "../openapi/lib/operations.js";
import { projectComponentSchemas } from "../openapi/lib/projection.js";
import { derefSchema, loadSpec, SPEC_PATH, type OpenApiDocument } from "../openapi/lib/spec.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const banner = (what: string, comment: "ts" | "none") =>
  comment === "none"
    ? ""
    : `/**\n * DO NOT EDIT. ${what}, generated from openapi/openapi.yaml by \`npm run generate\`;\n ` +
      `* \`npm run check-generated\` fails when this file is stale.\n */\n`;

/** The constraints of a parameter schema the client checks before sending ($refs resolved, annotations dropped). */
function constraints(doc: OpenApiDocument, schema: unknown, depth = 0): Record<string, unknown> {
  const s = derefSchema(doc, schema).schema as Record<string, unknown> | undefined;
  if (!s || typeof s !== "object" || depth > 4) return {};
  const out: Record<string, unknown> = {};
  for (const key of [
    "type",
    "enum",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
  ])
    if (s[key] !== undefined) out[key] = s[key];
  if (s.items !== undefined) out.items = constraints(doc, s.items, depth + 1);
  return out;
}

/** The client's run-time view of one operation. */
function route(doc: OpenApiDocument, op: OperationEntry) {
  const ok = successResponse(op);
  const json = ok?.content.find((m) => /json/i.test(m.mediaType));
  const schema = json?.schemaPointer ? derefSchema(doc, { $ref: `#${json.schemaPointer}` }).schema : undefined;
  return {
    method: op.method,
    path: op.path,
    pathParams: Object.fromEntries(
      op.parameters.filter((p) => p.in === "path").map((p) => [p.name, { schema: constraints(doc, p.schema) }]),
    ),
    query: Object.fromEntries(
      op.parameters
        .filter((p) => p.in === "query")
        .map((p) => [p.name, { style: p.style, explode: p.explode, schema: constraints(doc, p.schema) }]),
    ),
    success: ok
      ? {
          status: ok.status,
          schema: json?.schemaName ?? null,
          required: Array.isArray(schema?.required) ? schema.required : [],
        }
      : null,
  };
}

/** The header of the document's apiKey scheme (the first one found in `security`), or null. */
function apiKeyHeader(ops: OperationEntry[]): string | null {
  for (const op of ops)
    for (const alt of op.security)
      for (const s of alt) if (s.type === "apiKey" && s.in === "header" && s.name) return s.name;
  return null;
}

/** The `enum` of every component schema that has one. */
function enums(doc: OpenApiDocument): Record<string, unknown[]> {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, { enum?: unknown[] }>;
  return Object.fromEntries(
    Object.entries(schemas)
      .filter(([, s]) => Array.isArray(s?.enum))
      .map(([name, s]) => [name, s.enum!]),
  );
}

/** Renders every artifact for the document at `specPath`: file name to content. */
export async function renderAll(specPath: string): Promise<Record<string, string>> {
  const doc = loadSpec(specPath);
  const ops = buildOperationTable(doc);
  // defaultNonNullable off: a property with a default (max_cache_age) stays optional in request types.
  // The document as read (a Swagger 2.0 or OpenAPI 3.0 one upgraded to 3.1), so every artefact sees the same document.
  // Loaded once the document has been read: a file that is not a document fails fast, without this heavy import.
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: false, defaultNonNullable: false });
  const routes = Object.fromEntries(ops.map((op) => [op.operationId, route(doc, op)]));
  return {
    "schema.d.ts": `${banner("TypeScript types made by openapi-typescript", "ts")}\n${astToString(ast)}`,
    "operations.json": `${JSON.stringify({ "//": "DO NOT EDIT: generated from openapi/openapi.yaml by npm run generate", title: doc.info?.title, version: doc.info?.version, operations: ops }, null, 2)}\n`,
    "routes.ts": `${banner("The client's run-time view of each operation", "ts")}
/** Each operation by operationId: method, path template, query parameter styles, the success response. */
export const ROUTES = ${JSON.stringify(routes, null, 2)} as const;

/** Every string or integer enum of the document's component schemas, by schema name. */
export const ENUMS = ${JSON.stringify(enums(doc))} as const;

/** The header the document's API-key scheme sends. */
export const API_KEY_HEADER = ${JSON.stringify(apiKeyHeader(ops))};

/** The version of the document (info.version). */
export const DOCUMENT_VERSION = ${JSON.stringify(String(doc.info?.version ?? ""))};
`,
    "schemas.ts": `${banner("The document's component schemas without annotations (for validateResponses)", "ts")}
/** Every component schema by name. */
export const DOCUMENT_SCHEMAS: Record<string, unknown> = ${JSON.stringify(projectComponentSchemas(doc), null, 2)};
`,
  };
}

function argPath(flag: string, fallback: string): string {
  const i = process.argv.indexOf(flag);
  return i >= 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]!) : fallback;
}

async function main(): Promise<number> {
  const specPath = argPath("--spec", SPEC_PATH);
  const outDir = argPath("--out", join(ROOT, "generated"));
  const files = await renderAll(specPath);
  if (process.argv.includes("--check")) {
    let stale = 0;
    for (const [name, content] of Object.entries(files)) {
      const path = join(outDir, name);
      const current = await readFile(path, "utf8").catch(() => "");
      if (current === content) continue;
      stale++;
      const patch = createPatch(`generated/${name}`, current, content, "committed", "from the document", {
        context: 2,
      });
      const lines = patch.split("\n");
      console.error(
        `${path} is stale:\n${lines.slice(0, 80).join("\n")}${lines.length > 80 ? `\n… (${lines.length - 80} more diff lines)` : ""}`,
      );
    }
    if (stale > 0) {
      console.error(`${stale} generated file(s) are stale: run \`npm run generate\` and commit the result.`);
      return 1;
    }
    console.log(`generated/ is up to date (${Object.keys(files).join(", ")}).`);
    return 0;
  }
  await mkdir(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(outDir, name), content);
  console.log(
    `wrote ${Object.keys(files)
      .map((n) => join(outDir, n))
      .join(", ")}`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // A document that cannot be read or typed ends with one line naming the file and the reason, not a stack.
  process.exitCode = await main().catch((err: unknown) => {
    console.error(
      `npm run generate: cannot generate from ${argPath("--spec", SPEC_PATH)}: ` +
        `${err instanceof Error ? err.message : String(err)}`,
    );
    return 1;
  });
}
