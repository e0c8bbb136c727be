/**
 * The typed client: helpers for the document's operations on a lean transport (auth, retries, timeouts,
 * bounded bodies, secret scrubbing), with paths, query styles and success schemas taken from the generated
 * route table. Non-2xx answers are thrown as `ApiError` subclasses (unlike openapi-fetch, which returns
 * them); `client.raw` is openapi-fetch on the same transport, for any operation of the document.
 */
import type { Client } from "openapi-fetch";
import { ROUTES } from "../generated/routes.js";
import { unwrapDataEnvelope } from "./envelope.js";
import { makeApiError } from "./error-factory.js";
import { ArgumentError, ResponseValidationError, type Violation } from "./errors.js";
import { FieldTypeRegistry, type TypedDataSchema } from "./field-types.js";
import { listingQuery, type BrowserRequestFilters } from "./filters.js";
import {
  checkMaxRetries,
  checkTimeoutMs,
  resolveOptions,
  type ClientOptions,
  type ResolvedOptions,
} from "./options.js";
import { BrowserRequestPager } from "./pagination.js";
import { POLICY } from "./policy.js";
import { lazyRawClient } from "./raw.js";
import { createScrubber, scrubbedHeaders, type Scrubber } from "../wire/redact.js";
import { safeUrl } from "./redact.js";
import { buildUrl, type CallParams, type OperationId } from "./routes.js";
import { createTransport, type Transport } from "./transport.js";
import type { Logger, RequestOptions } from "./transport-types.js";
import { decodeUtf8 } from "../wire/decode.js";
import type {
  BrowserRequestPage,
  DataSchemaInput,
  FieldTypeCodes,
  SitemapRequest,
  SitemapResponse,
  paths,
} from "./types.js";
import { loadResponseValidator } from "./validation.js";
import { isObject } from "./values.js";

/** Options of {@link WebautoClient.iterateBrowserRequests}. */
export interface IterateOptions extends RequestOptions {
  /** Fetch the next page while the caller works through the current one (default true). */
  prefetch?: boolean;
}

/** How openapi-fetch serialises array query parameters for `raw`: as the document's array parameters say. */
const ARRAY_EXPLODE = Object.values(ROUTES).some((r) =>
  Object.values(r.query as Record<string, { explode: boolean; schema: { type?: string } }>).some(
    (q) => q.schema.type === "array" && q.explode,
  ),
);

/** A client of the Web Automation Service API v1. Create it with {@link createClient}. */
export class WebautoClient {
  /** The base address requests go to (no `/v1`, no trailing slash). */
  readonly baseUrl: string;
  /**
   * openapi-fetch on the same transport (auth, retries, timeouts, scrubbing), typed from the document; loaded on
   * first use.
   */
  readonly raw: Client<paths>;
  readonly #options: ResolvedOptions;
  readonly #transport: Transport;
  readonly #fieldTypes: FieldTypeRegistry;
  readonly #logger: Logger | undefined;
  readonly #scrubber: Scrubber;

  constructor(options: ClientOptions = {}) {
    const resolved = resolveOptions(options);
    this.#options = resolved;
    this.#logger = options.logger;
    this.baseUrl = resolved.baseUrl;
    this.#scrubber = createScrubber(resolved.apiKey);
    this.#fieldTypes = new FieldTypeRegistry(options.fieldTypeCodes);
    this.#transport = createTransport({
      fetch: resolved.fetch,
      headers: resolved.headers,
      keyHeader: resolved.keyHeader,
      timeoutMs: resolved.timeoutMs,
      maxRetries: resolved.maxRetries,
      maxResponseBytes: resolved.maxResponseBytes,
      allowInsecureHttp: resolved.allowInsecureHttp,
      scrubber: this.#scrubber,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
    this.raw = lazyRawClient(async () => {
      const { default: createFetchClient } = await import("openapi-fetch");
      return createFetchClient<paths>({
        baseUrl: resolved.baseUrl,
        fetch: this.#transport.fetchFor(),
        querySerializer: { array: { style: "form", explode: ARRAY_EXPLODE } },
      });
    });
  }

  /** Integer-to-name field type pairs learned from `updateSchema` round trips (a snapshot). */
  get fieldTypeCodes(): FieldTypeCodes {
    return this.#fieldTypes.snapshot();
  }

  /**
   * Reads a site's sitemap (`POST /v1/site/map`, 1 credit, up to 60 s). A `{"data": ...}` wrapper is removed.
   * Retries are conservative by default (429 and unreached connections only; `opts.retryMode` overrides):
   * see `RetryMode`.
   */
  async mapSite(input: SitemapRequest, opts: RequestOptions = {}): Promise<SitemapResponse> {
    if (!isObject(input)) throw new ArgumentError("input", "must be an object with a url");
    if (typeof input.url !== "string" || input.url === "")
      throw new ArgumentError("input.url", "must be a non-empty string");
    const age = input.max_cache_age;
    if (age !== undefined && age !== null && !(Number.isInteger(age) && age >= 0 && age <= 2_147_483_647)) {
      throw new ArgumentError("input.max_cache_age", "must be a non-negative int32 number of seconds, or null");
    }
    const body = { url: input.url, ...(age !== undefined ? { max_cache_age: age } : {}) };
    const { value, base, method, path } = await this.#call("createSitemapRequest", {}, body, opts);
    if (!isObject(value))
      throw new ResponseValidationError(method, path, [
        { pointer: base, rule: "type", message: "expected a sitemap object" },
      ]);
    return value as unknown as SitemapResponse;
  }

  /**
   * Updates a data schema (`PUT /v1/schemas/{id}`) and returns it with each field's `typeName` (the name sent)
   * next to the integer `type`, learning the pairs into `fieldTypeCodes`. Type names outside the document's
   * `FieldTypeName` are refused before sending (see `allowUnknownFieldTypes`). A response whose fields do not
   * pair with the sent ones (names, order, nesting, or an integer seen for two names) throws
   * `ResponseValidationError` naming the JSON pointer. A `{"data": ...}` wrapper is removed.
   */
  async updateSchema(id: string, schema: DataSchemaInput, opts: RequestOptions = {}): Promise<TypedDataSchema> {
    if (typeof id !== "string" || id === "") throw new ArgumentError("id", "must be a non-empty string");
    if (!isObject(schema)) throw new ArgumentError("schema", "must be an object");
    // Loaded on the first schema update: clients that never update a schema do not carry it.
    const { checkSchemaInput, pairFields } = await import("./pairing.js");
    checkSchemaInput(schema, this.#options.allowUnknownFieldTypes);
    const { value, base, method, path } = await this.#call("updateDataSchema", { path: { id } }, schema, opts);
    if (!isObject(value))
      throw new ResponseValidationError(method, path, [
        { pointer: base, rule: "type", message: "expected a data schema object" },
      ]);
    const paired = pairFields(this.#fieldTypes, schema.fields, value.fields, `${base}/fields`);
    if ("violations" in paired) throw new ResponseValidationError(method, path, paired.violations);
    return { ...value, fields: paired.fields } as TypedDataSchema;
  }

  /** Lists one page of browser requests (`GET /v1/browser/requests`), `ids` and `states` comma-joined. */
  async listBrowserRequests(
    filters: BrowserRequestFilters = {},
    opts: RequestOptions = {},
  ): Promise<BrowserRequestPage> {
    const { value, method, path } = await this.#call(
      "listBrowserRequests",
      { query: listingQuery(filters) },
      undefined,
      opts,
    );
    const violations = checkListing(value);
    if (violations.length) throw new ResponseValidationError(method, path, violations);
    return (value as { data: BrowserRequestPage }).data;
  }

  /**
   * Every matching browser request across pages, for `for await`: constant memory, the next page fetched
   * while the caller works through the current one (`opts.prefetch: false` turns that off). Stops at
   * `total_pages`, and safely on an empty, short or repeated page (see `stopReason`). `iterPages()` on the
   * result yields whole pages.
   */
  iterateBrowserRequests(filters: BrowserRequestFilters = {}, opts: IterateOptions = {}): BrowserRequestPager {
    listingQuery(filters);
    const { prefetch, ...call } = opts;
    const fetchPage = (page: number, signal: AbortSignal) =>
      this.listBrowserRequests({ ...filters, page }, { ...call, signal: anySignal(call.signal, signal) });
    return new BrowserRequestPager(fetchPage, filters.page ?? 1, prefetch !== false, this.#logger);
  }

  /** A secret-free summary. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      apiKey: "***",
      timeoutMs: this.#options.timeoutMs,
      maxRetries: this.#options.maxRetries,
    };
  }

  /** What `util.inspect` and `console.log` show in Node: the base URL, never the key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `WebautoClient { baseUrl: '${this.baseUrl}', apiKey: '***' }`;
  }

  /**
   * Calls operation `id`: a non-2xx becomes an ApiError; a 2xx body is parsed, scrubbed of the key, unwrapped
   * when the operation's policy tolerates a `{"data": ...}` wrapper, and validated when asked.
   */
  async #call(
    id: OperationId,
    params: CallParams,
    body: unknown,
    opts: RequestOptions,
  ): Promise<{ value: unknown; base: string; method: string; path: string }> {
    checkTimeoutMs("opts.timeoutMs", opts.timeoutMs, 1);
    checkMaxRetries("opts.maxRetries", opts.maxRetries, 0);
    if (opts.retryMode !== undefined && opts.retryMode !== "standard" && opts.retryMode !== "conservative") {
      throw new ArgumentError("opts.retryMode", 'must be "standard" or "conservative"');
    }
    const route = ROUTES[id];
    const url = buildUrl(this.baseUrl, id, params);
    const got = await this.#transport.send(
      {
        method: route.method,
        url,
        operationId: id,
        ...(body !== undefined ? { body: JSON.stringify(body), json: true } : {}),
      },
      opts,
    );
    const { method, path } = got;
    const scrub = this.#scrubber;
    const text = decodeUtf8(got.body);
    if (got.status < 200 || got.status >= 300) {
      const headers = scrubbedHeaders(got.headers, scrub);
      const retry = got.retryAfterMs !== undefined ? { retryAfterMs: got.retryAfterMs } : {};
      throw makeApiError({
        status: got.status,
        statusText: got.statusText,
        body: scrub.text(text),
        headers,
        method,
        path,
        attempts: got.attempts,
        operationId: id,
        ...retry,
      });
    }
    let parsed: unknown;
    try {
      if (text.trim() === "") throw new Error("the body is empty");
      parsed = JSON.parse(text);
    } catch (err) {
      const type = got.headers.get("content-type") ?? "no content type";
      const message = scrub.text(`${got.status} body is not JSON (${type}): ${(err as Error).message}`);
      throw new ResponseValidationError(method, path, [{ pointer: "", rule: "json", message }], scrub.text(text));
    }
    let value = scrub.mayContain(text) ? scrub.value(parsed) : parsed;
    let base = "";
    if (POLICY[id]?.tolerateDataEnvelope && this.#options.unwrapDataEnvelope) {
      const u = unwrapDataEnvelope(value, route.success?.required ?? []);
      if (u.unwrapped) {
        value = u.value;
        base = "/data";
        this.#logger?.debug?.(
          `webauto-api: removed a {"data": ...} wrapper around the ${method} ${path} response (${safeUrl(got.url)})`,
        );
      }
    }
    const schema = route.success?.schema;
    if (this.#options.validateResponses && schema) {
      const validate = await loadResponseValidator();
      const violations: Violation[] = validate(schema, value).map((v) => ({ ...v, pointer: base + v.pointer }));
      if (violations.length) throw new ResponseValidationError(method, path, violations, scrub.text(text));
    }
    return { value, base, method, path };
  }
}

function checkListing(body: unknown): Violation[] {
  if (!isObject(body)) return [{ pointer: "", rule: "type", message: "expected the listing envelope {data, error}" }];
  if (body.error !== null && body.error !== undefined)
    return [{ pointer: "/error", rule: "const", message: "must be null on success" }];
  const data = body.data;
  if (!isObject(data)) return [{ pointer: "/data", rule: "type", message: "expected the page object" }];
  const v: Violation[] = [];
  if (!Array.isArray(data.results)) v.push({ pointer: "/data/results", rule: "type", message: "must be an array" });
  else
    data.results.forEach((r, i) => {
      if (!isObject(r) || typeof r.id !== "string")
        v.push({ pointer: `/data/results/${i}/id`, rule: "type", message: "each result needs a string id" });
    });
  for (const key of ["total_pages", "page_size", "page", "total_records"]) {
    if (!Number.isInteger(data[key])) v.push({ pointer: `/data/${key}`, rule: "type", message: "must be an integer" });
  }
  return v;
}

/** Aborts when either signal does (AbortSignal.any where the runtime has it). */
function anySignal(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  if (!a) return b;
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (any) return any([a, b]);
  const controller = new AbortController();
  const abort = (s: AbortSignal) => () => controller.abort(s.reason);
  for (const s of [a, b])
    s.aborted ? controller.abort(s.reason) : s.addEventListener("abort", abort(s), { once: true });
  return controller.signal;
}

/** Creates a client; throws `ArgumentError` naming the option for a missing key or a malformed base URL. */
export function createClient(options: ClientOptions = {}): WebautoClient {
  return new WebautoClient(options);
}
