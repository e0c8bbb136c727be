/**
 * The operation table: every operation of an OpenAPI document with what a client or a contract suite needs
 * to call it and to judge the answer (method, path, parameters with schemas, styles and examples, request
 * body, documented responses with media types, schema pointers, examples and links, security). Built from
 * the parsed document, so it holds for any document: `npm run generate` writes it to
 * `generated/operations.json`, and the contract suite builds it at run time from the YAML it is given.
 */
import { derefSchema, toPointer, type OpenApiDocument } from "./spec.js";
import { resolvePointer } from "./document-error.js";
import { refPointer } from "./document-error.js";

/** HTTP methods an OpenAPI path item may hold, in the order the table lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One named example (from `examples` or a lone `example`, then named "example"). */
export interface ExampleEntry {
  name: string;
  value: unknown;
  /**
   * A lone `example` (its name "example" is given, not written): it pairs with nothing and cannot be asked for by
   * name.
   */
  unnamed?: boolean;
}

/** A parameter, merged from the path item and the operation (the operation's wins). */
export interface ParameterEntry {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  style: string;
  explode: boolean;
  /** The parameter's schema as written (local `$ref`s kept). */
  schema: unknown;
  /** JSON pointer of that schema in the document. */
  schemaPointer: string;
  examples: ExampleEntry[];
  /**
   * The media type of a parameter described by `content` (its value is written in it, e.g. as JSON), not by `schema`.
   */
  contentType?: string;
}

/** One media type of a request body or response. */
export interface MediaEntry {
  mediaType: string;
  /** JSON pointer of the schema in the document, when there is one. */
  schemaPointer?: string;
  /** The schema's component name when it is a plain `$ref` to `#/components/schemas/X`. */
  schemaName?: string;
  examples: ExampleEntry[];
  /** A form body's Encoding Object, by property: the media type, style and explode each field is written in. */
  encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>;
}

/** An OpenAPI link: values from this response feed parameters of another operation. */
export interface LinkEntry {
  name: string;
  operationId: string;
  /** Parameter name (optionally `in.name`) to a runtime expression or a constant. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
}

/** A documented response header (`Content-Type` is left out: OpenAPI ignores it there). */
export interface HeaderEntry {
  name: string;
  required: boolean;
  /** JSON pointer of the header's schema in the document, when it has one. */
  schemaPointer?: string;
}

/** A documented response. */
export interface ResponseEntry {
  /** `200`, `4XX` or `default`, as written. */
  status: string;
  description: string;
  content: MediaEntry[];
  links: LinkEntry[];
  headers: HeaderEntry[];
}

/** A security scheme an operation may be called with. */
export interface SecurityEntry {
  scheme: string;
  type: string;
  /** For apiKey schemes: where the key goes and under which name. */
  in?: string;
  name?: string;
  /** For http schemes: the scheme, lower-cased (`bearer`, `basic`...). */
  httpScheme?: string;
  /** For oauth2 schemes: the token URL of each flow that has one (password, clientCredentials), as written. */
  tokenUrls?: { password?: string; clientCredentials?: string };
  /** The scheme's description, as written (it may say how the credential is written: `Token <jwt>`). */
  description?: string;
}

/** One operation of the document. */
export interface OperationEntry {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  path: string;
  /** JSON pointer of the operation object in the document. */
  pointer: string;
  summary?: string;
  tags: string[];
  /** GET, HEAD, OPTIONS and TRACE change nothing on the server. */
  safe: boolean;
  parameters: ParameterEntry[];
  requestBody?: { required: boolean; content: MediaEntry[] };
  responses: ResponseEntry[];
  /** Alternatives: one of these requirements must be met (empty: no authentication). */
  security: SecurityEntry[][];
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

function examplesOf(doc: OpenApiDocument, holder: any): ExampleEntry[] {
  if (!holder || typeof holder !== "object") return [];
  if (holder.examples && typeof holder.examples === "object" && !Array.isArray(holder.examples)) {
    return Object.entries(holder.examples as Record<string, any>).flatMap(([name, ex]) => {
      const resolved = ex && typeof ex.$ref === "string" ? resolvePointer(doc, refPointer(ex.$ref)) : ex;
      return resolved && typeof resolved === "object" && "value" in resolved
        ? [{ name, value: (resolved as { value: unknown }).value }]
        : [];
    });
  }
  return "example" in holder ? [{ name: "example", value: holder.example, unnamed: true }] : [];
}

function deref(doc: OpenApiDocument, value: any, pointer: string): { value: any; pointer: string } {
  const { schema, pointer: at } = derefSchema(doc, value, pointer);
  return { value: schema, pointer: at };
}

function mediaEntries(doc: OpenApiDocument, content: unknown, pointer: string): MediaEntry[] {
  if (!content || typeof content !== "object") return [];
  return Object.entries(content as Record<string, any>).map(([mediaType, media]) => {
    const at = `${pointer}/${toPointer([mediaType]).slice(1)}`;
    const entry: MediaEntry = { mediaType, examples: examplesOf(doc, media) };
    if (media?.schema !== undefined) {
      entry.schemaPointer = `${at}/schema`;
      const ref = media.schema?.$ref;
      const m = typeof ref === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(ref) : null;
      if (m) entry.schemaName = m[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
    }
    if (media?.encoding && typeof media.encoding === "object" && !Array.isArray(media.encoding)) {
      entry.encoding = Object.fromEntries(
        Object.entries(media.encoding as Record<string, any>).map(([name, e]) => [
          name,
          {
            ...(typeof e?.contentType === "string" ? { contentType: e.contentType } : {}),
            ...(typeof e?.style === "string" ? { style: e.style } : {}),
            ...(typeof e?.explode === "boolean" ? { explode: e.explode } : {}),
          },
        ]),
      );
    }
    return entry;
  });
}

function parameterEntries(doc: OpenApiDocument, pathItemPointer: string, opPointer: string): ParameterEntry[] {
  const byKey = new Map<string, ParameterEntry>();
  for (const base of [pathItemPointer, opPointer]) {
    const list = resolvePointer(doc, `${base}/parameters`);
    if (!Array.isArray(list)) continue;
    list.forEach((raw, i) => {
      const { value: p, pointer } = deref(doc, raw, `${base}/parameters/${i}`);
      if (!p || typeof p.name !== "string" || typeof p.in !== "string") return;
      // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
      if (p.in === "header" && /^(accept|content-type|authorization)$/i.test(p.name)) return;
      // A parameter described by `content` (one media type) instead of `schema` takes that media type's schema.
      const contentSchema =
        p.schema === undefined && p.content && typeof p.content === "object" ? Object.keys(p.content)[0] : undefined;
      const schemaPointer =
        contentSchema !== undefined
          ? `${pointer}/content/${toPointer([contentSchema]).slice(1)}/schema`
          : `${pointer}/schema`;
      const style = typeof p.style === "string" ? p.style : p.in === "query" || p.in === "cookie" ? "form" : "simple";
      byKey.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: p.in === "path" ? true : p.required === true,
        style,
        explode: typeof p.explode === "boolean" ? p.explode : style === "form",
        schema: p.schema ?? (contentSchema !== undefined ? p.content[contentSchema]?.schema : undefined) ?? {},
        schemaPointer,
        examples: examplesOf(doc, p),
        ...(contentSchema !== undefined ? { contentType: contentSchema } : {}),
      });
    });
  }
  return [...byKey.values()];
}

function headerEntries(doc: OpenApiDocument, headers: unknown, pointer: string): HeaderEntry[] {
  if (!headers || typeof headers !== "object") return [];
  return Object.entries(headers as Record<string, unknown>)
    .filter(([name]) => name.toLowerCase() !== "content-type")
    .map(([name, raw]) => {
      const { value: h, pointer: at } = deref(doc, raw, `${pointer}/${toPointer([name]).slice(1)}`);
      return {
        name,
        required: h?.required === true,
        ...(h?.schema !== undefined ? { schemaPointer: `${at}/schema` } : {}),
      };
    });
}

function linkEntries(
  doc: OpenApiDocument,
  links: unknown,
  pointer: string,
  operationIdOf: (ref: string) => string | undefined,
): LinkEntry[] {
  if (!links || typeof links !== "object") return [];
  return Object.entries(links as Record<string, any>).flatMap(([name, raw]) => {
    const { value: link } = deref(doc, raw, `${pointer}/${name}`);
    const operationId =
      typeof link?.operationId === "string"
        ? link.operationId
        : typeof link?.operationRef === "string"
          ? operationIdOf(link.operationRef)
          : undefined;
    if (!operationId) return [];
    return [
      {
        name,
        operationId,
        parameters: { ...(link.parameters ?? {}) },
        ...(link.requestBody !== undefined ? { requestBody: link.requestBody } : {}),
      },
    ];
  });
}

/** The token URLs of an oauth2 scheme's password and client-credentials flows, when it writes them. */
function tokenUrlsOf(flows: unknown): Pick<SecurityEntry, "tokenUrls"> {
  const f = (flows ?? {}) as Record<string, { tokenUrl?: unknown } | undefined>;
  const url = (flow: { tokenUrl?: unknown } | undefined) =>
    typeof flow?.tokenUrl === "string" ? flow.tokenUrl : undefined;
  const password = url(f.password);
  const clientCredentials = url(f.clientCredentials);
  return password || clientCredentials
    ? { tokenUrls: { ...(password ? { password } : {}), ...(clientCredentials ? { clientCredentials } : {}) } }
    : {};
}

function securityEntries(doc: OpenApiDocument, requirements: unknown): SecurityEntry[][] {
  if (!Array.isArray(requirements)) return [];
  return requirements.map((req: Record<string, unknown>) =>
    Object.keys(req ?? {}).map((scheme) => {
      const s = (resolvePointer(doc, `/components/securitySchemes/${scheme}`) ?? {}) as Record<string, unknown>;
      return {
        scheme,
        type: String(s.type ?? "unknown"),
        ...(typeof s.in === "string" ? { in: s.in } : {}),
        ...(typeof s.name === "string" ? { name: s.name } : {}),
        ...(typeof s.scheme === "string" ? { httpScheme: s.scheme.toLowerCase() } : {}),
        ...tokenUrlsOf(s.flows),
        ...(typeof s.description === "string" && s.description ? { description: s.description } : {}),
      };
    }),
  );
}

/** Builds the table of every operation of `doc`, in document order. */
export function buildOperationTable(doc: OpenApiDocument): OperationEntry[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, any>>;
  const operationIdOf = (ref: string) => {
    const op = resolvePointer(doc, refPointer(ref)) as { operationId?: string } | undefined;
    return op?.operationId;
  };
  const out: OperationEntry[] = [];
  for (const [path, written] of Object.entries(paths)) {
    // A path item may be a $ref (to components/pathItems in 3.1): its operations are read where it points.
    const { value: item, pointer: itemPointer } = deref(doc, written, toPointer(["paths", path]));
    for (const method of HTTP_METHODS) {
      const op = item?.[method];
      if (!op || typeof op !== "object") continue;
      const pointer = `${itemPointer}/${method}`;
      const upper = method.toUpperCase();
      const entry: OperationEntry = {
        operationId:
          typeof op.operationId === "string" ? op.operationId : `${method}${path.replace(/[^A-Za-z0-9]+/g, "_")}`,
        method: upper,
        path,
        pointer,
        ...(typeof op.summary === "string" ? { summary: op.summary } : {}),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        safe: SAFE.has(upper),
        parameters: parameterEntries(doc, itemPointer, pointer),
        responses: Object.entries((op.responses ?? {}) as Record<string, unknown>).map(([status, raw]) => {
          const { value: r, pointer: at } = deref(doc, raw, `${pointer}/responses/${status}`);
          return {
            status,
            description: String(r?.description ?? ""),
            content: mediaEntries(doc, r?.content, `${at}/content`),
            links: linkEntries(doc, r?.links, `${at}/links`, operationIdOf),
            headers: headerEntries(doc, r?.headers, `${at}/headers`),
          };
        }),
        security: securityEntries(doc, op.security ?? doc.security),
      };
      if (op.requestBody) {
        const { value: body, pointer: at } = deref(doc, op.requestBody, `${pointer}/requestBody`);
        entry.requestBody = {
          required: body?.required === true,
          content: mediaEntries(doc, body?.content, `${at}/content`),
        };
      }
      out.push(entry);
    }
  }
  return out;
}

/** Which of the documented status keys answers `status`: exact, then its `NXX` range, then `default`. */
export function documentedStatusKey(documented: readonly string[], status: number): string | undefined {
  const s = String(status);
  return (
    documented.find((d) => d === s) ??
    documented.find((d) => d.toUpperCase() === `${s[0]}XX`) ??
    documented.find((d) => d === "default")
  );
}

/** The documented response for `status`: exact, then its `NXX` range, then `default`. */
export function documentedResponse(op: OperationEntry, status: number): ResponseEntry | undefined {
  const key = documentedStatusKey(
    op.responses.map((r) => r.status),
    status,
  );
  return op.responses.find((r) => r.status === key);
}

/** The first documented 2xx response (exact codes before ranges), the one a successful call returns. */
export function successResponse(op: OperationEntry): ResponseEntry | undefined {
  return (
    op.responses.find((r) => /^2\d\d$/.test(r.status)) ?? op.responses.find((r) => r.status.toUpperCase() === "2XX")
  );
}

/** A JSON media type (`application/json`, `application/problem+json`, `text/json`...), parameters allowed. */
export function isJsonMedia(mediaType: string): boolean {
  return /^application\/([\w.+-]+\+)?json\b|^[^/]+\/[^;]*\bjson\b/i.test(mediaType.trim());
}

/** The media type without parameters, lower-cased (`application/json; charset=utf-8` is `application/json`). */
export function essence(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

/** Whether `received` falls in the documented media range (`application/json`, `text/*`, `*\/*`). */
function inMediaRange(range: string, received: string): boolean {
  const [rt = "", rs = ""] = essence(range).split("/");
  const [t = "", s = ""] = essence(received).split("/");
  if (!t || !s) return false;
  return (rt === "*" || rt === t) && (rs === "*" || rs === s);
}

/** The documented media entry a received Content-Type matches: an exact one before a range. */
export function matchingMedia(media: MediaEntry[], received: string | null): MediaEntry | undefined {
  if (!received) return undefined;
  return (
    media.find((m) => essence(m.mediaType) === essence(received)) ??
    media.find((m) => inMediaRange(m.mediaType, received))
  );
}
