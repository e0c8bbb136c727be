/**
 * Optional response validation (`validateResponses: true`) against the document's component schemas,
 * generated into generated/schemas.ts. ajv and ajv-formats are loaded on first use only, so clients that do not
 * validate never load them (they are optional peer dependencies). ajv compiles schemas with `new Function`:
 * pages with a strict Content-Security-Policy need `'unsafe-eval'` to use this option.
 */
import { ArgumentError, type Violation } from "./errors.js";

/** Validates a value against a named component schema; returns violations (empty when valid). */
export type ResponseValidator = (schema: string, value: unknown) => Violation[];

const DOC_ID = "https://webauto-api.local/components.json";

interface AjvErrorLike {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
}
interface AjvLike {
  addSchema(schema: object, key: string): unknown;
  compile(schema: object): ((value: unknown) => boolean) & { errors?: AjvErrorLike[] | null };
}

let loading: Promise<ResponseValidator> | undefined;

/** Loads ajv and compiles the embedded schemas once per process; a clear error names missing packages. */
export function loadResponseValidator(): Promise<ResponseValidator> {
  loading ??= build().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function build(): Promise<ResponseValidator> {
  let AjvClass: new (opts: object) => AjvLike;
  let addFormats: (ajv: AjvLike) => unknown;
  try {
    const ajvModule = (await import("ajv/dist/2020.js")) as unknown as Record<string, any>;
    const formatsModule = (await import("ajv-formats")) as unknown as Record<string, any>;
    AjvClass = ajvModule.Ajv2020 ?? ajvModule.default?.Ajv2020 ?? ajvModule.default;
    addFormats = formatsModule.default?.default ?? formatsModule.default ?? formatsModule;
  } catch (cause) {
    throw new ArgumentError(
      "validateResponses",
      `needs the optional packages ajv@8 and ajv-formats@3 (npm install ajv ajv-formats): ` +
        `${String((cause as Error)?.message ?? cause)}`,
    );
  }
  const { DOCUMENT_SCHEMAS } = await import("../generated/schemas.js");
  const ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: DOCUMENT_SCHEMAS } }, DOC_ID);
  const compiled = new Map<string, ReturnType<AjvLike["compile"]>>();
  return (name, value) => {
    let fn = compiled.get(name);
    if (!fn) {
      fn = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${name}` });
      compiled.set(name, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => ({
      pointer: e.instancePath,
      rule: `${e.keyword} at ${e.schemaPath.replace(/^https:\/\/webauto-api\.local\/components\.json/, "")}`,
      message: e.message ?? e.keyword,
    }));
  };
}
