/**
 * The typed client: three helpers over an openapi-fetch client whose `fetch` is the retrying, timing-out,
 * authenticating transport. Non-2xx answers are thrown as `ApiError` subclasses (unlike openapi-fetch,
 * which returns them); `client.raw` keeps openapi-fetch's `{ data, error, response }` style.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { ArgumentError, ResponseValidationError, makeApiError, type Violation } from "./errors.js";
import { unwrapDataEnvelope, type EnvelopeShape } from "./envelope.js";
import { FieldTypeRegistry, type TypedDataSchema } from "./field-types.js";
import { checkMaxRetries, checkTimeoutMs, resolveOptions, type ClientOptions, type ResolvedOptions } from "./options.js";
import { BrowserRequestPager } from "./pagination.js";
import { safeUrl } from "./redact.js";
import { createTransport, exchangeMeta, type Logger, type RequestOptions } from "./transport.js";
import type { BrowserRequestPage, DataSchemaInput, FieldTypeCodes, SitemapRequest, SitemapResponse, paths } from "./types.js";
import { loadResponseValidator, type ResponseSchemaName } from "./validation.js";
import { checkFilters, type BrowserRequestFilters } from "./filters.js";

interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** A client of the Web Automation Service API v1. Create it with {@link createClient}. */
export class WebautoClient {
  /** The base address requests go to (no `/v1`, no trailing slash). */
  readonly baseUrl: string;
  /** The underlying openapi-fetch client (same transport: auth, retries, timeouts), for anything else. */
  readonly raw: Client<paths>;
  readonly #apiKey: string;
  readonly #options: ResolvedOptions;
  readonly #transport: ReturnType<typeof createTransport>;
  readonly #fieldTypes: FieldTypeRegistry;
  readonly #logger: Logger | undefined;

  constructor(options: ClientOptions = {}) {
    const resolved = resolveOptions(options);
    this.#options = resolved;
    this.#apiKey = resolved.apiKey;
    this.#logger = options.logger;
    this.baseUrl = resolved.baseUrl;
    this.#fieldTypes = new FieldTypeRegistry(options.fieldTypeCodes);
    this.#transport = createTransport({
      fetch: resolved.fetch,
      apiKey: () => this.#apiKey,
      headers: resolved.headers,
      timeoutMs: resolved.timeoutMs,
      maxRetries: resolved.maxRetries,
      allowInsecureHttp: resolved.allowInsecureHttp,
      logger: options.logger,
      onRetry: options.onRetry,
      sleep: options.sleep,
    });
    this.raw = createFetchClient<paths>({
      baseUrl: resolved.baseUrl,
      fetch: this.#transport(),
      querySerializer: { array: { style: "form", explode: false } },
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
    if (input === null || typeof input !== "object") throw new ArgumentError("input", "must be an object with a url");
    if (typeof input.url !== "string" || input.url === "") throw new ArgumentError("input.url", "must be a non-empty string");
    const age = input.max_cache_age;
    if (age !== undefined && age !== null && !(Number.isInteger(age) && age >= 0)) {
      throw new ArgumentError("input.max_cache_age", "must be a non-negative integer number of seconds, or null");
    }
    const body = { url: input.url, ...(age !== undefined ? { max_cache_age: age } : {}) } as { url: string; max_cache_age: number | null };
    const result = await this.raw.POST("/v1/site/map", { body, parseAs: "stream", ...this.#init(opts) });
    const { value, base } = await this.#body("POST", "/v1/site/map", result, "SitemapRequestResponse", "sitemap");
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ResponseValidationError("POST", "/v1/site/map", [{ pointer: base, rule: "type", message: "expected a sitemap object" }]);
    }
    return value as SitemapResponse;
  }

  /**
   * Updates a data schema (`PUT /v1/schemas/{id}`) and returns it with each field's `typeName` (the name sent)
   * next to the integer `type`, learning the pairs into `fieldTypeCodes`. A response whose fields do not pair
   * with the sent ones (names, order, nesting, or an integer seen for two names) throws
   * `ResponseValidationError` naming the JSON pointer. A `{"data": ...}` wrapper is removed.
   */
  async updateSchema(id: string, schema: DataSchemaInput, opts: RequestOptions = {}): Promise<TypedDataSchema> {
    if (typeof id !== "string" || id === "") throw new ArgumentError("id", "must be a non-empty string");
    if (schema === null || typeof schema !== "object") throw new ArgumentError("schema", "must be an object");
    const path = `/v1/schemas/${encodeURIComponent(id)}`;
    const result = await this.raw.PUT("/v1/schemas/{id}", { params: { path: { id } }, body: schema, parseAs: "stream", ...this.#init(opts) });
    const { value, base } = await this.#body("PUT", path, result, "DataSchema", "schema");
    const returned = value as Record<string, unknown> | null;
    if (returned === null || typeof returned !== "object" || Array.isArray(returned)) {
      throw new ResponseValidationError("PUT", path, [{ pointer: base, rule: "type", message: "expected a data schema object" }]);
    }
    const paired = this.#fieldTypes.pair(schema.fields, returned.fields, `${base}/fields`);
    if ("violations" in paired) throw new ResponseValidationError("PUT", path, paired.violations);
    return { ...(returned as object), fields: paired.fields } as TypedDataSchema;
  }

  /** Lists one page of browser requests (`GET /v1/browser/requests`), `ids` and `states` comma-joined. */
  async listBrowserRequests(filters: BrowserRequestFilters = {}, opts: RequestOptions = {}): Promise<BrowserRequestPage> {
    const query = checkFilters(filters);
    if (filters.page !== undefined) query.page = filters.page;
    const path = "/v1/browser/requests";
    const result = await this.raw.GET(path, { params: { query }, parseAs: "stream", ...this.#init(opts) });
    const { value } = await this.#body("GET", path, result, "BrowserRequestListResponse", null);
    const violations = checkListing(value);
    if (violations.length) throw new ResponseValidationError("GET", path, violations);
    return (value as { data: BrowserRequestPage }).data;
  }

  /**
   * Every matching browser request across pages, for `for await`: pages are fetched lazily, one at a time,
   * in constant memory. Stops at `total_pages`, and safely on an empty, short or repeated page (see
   * `stopReason`). `iterPages()` on the result yields whole pages.
   */
  iterateBrowserRequests(filters: BrowserRequestFilters = {}, opts: RequestOptions = {}): BrowserRequestPager {
    checkFilters(filters);
    return new BrowserRequestPager((page) => this.listBrowserRequests({ ...filters, page }, opts), filters.page ?? 1, filters.pageSize, this.#logger);
  }

  /** A secret-free summary. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, apiKey: "***", timeoutMs: this.#options.timeoutMs, maxRetries: this.#options.maxRetries };
  }

  /** What `util.inspect` and `console.log` show in Node: the base URL, never the key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `WebautoClient { baseUrl: '${this.baseUrl}', apiKey: '***' }`;
  }

  #init(opts: RequestOptions): { fetch: typeof globalThis.fetch; signal?: AbortSignal } {
    checkTimeoutMs("opts.timeoutMs", opts.timeoutMs, 1);
    checkMaxRetries("opts.maxRetries", opts.maxRetries, 0);
    if (opts.retryMode !== undefined && opts.retryMode !== "standard" && opts.retryMode !== "conservative") {
      throw new ArgumentError("opts.retryMode", 'must be "standard" or "conservative"');
    }
    return { fetch: this.#transport(opts, "meta"), ...(opts.signal ? { signal: opts.signal } : {}) };
  }

  /** Turns a non-2xx into an ApiError; parses, unwraps and (optionally) validates a 2xx body. */
  async #body(method: string, path: string, result: RawResult, schema: ResponseSchemaName, envelope: EnvelopeShape | null): Promise<{ value: unknown; base: string }> {
    const { response } = result;
    const meta = exchangeMeta(response);
    // parseAs "stream" leaves the 2xx body to us: the transport already buffered and decodes it once.
    const text = meta?.bodyText() ?? (typeof result.error === "string" ? result.error : "");
    if (!response.ok) {
      throw makeApiError({ status: response.status, statusText: response.statusText, body: text, headers: meta?.headers() ?? response.headers, method, path, attempts: meta?.attempts ?? 1 });
    }
    let body: unknown;
    try {
      if (text.trim() === "") throw new Error("the body is empty");
      body = JSON.parse(text);
    } catch (err) {
      const type = response.headers.get("content-type") ?? "no content type";
      throw new ResponseValidationError(method, path, [{ pointer: "", rule: "json", message: `${response.status} body is not JSON (${type}): ${(err as Error).message}` }], text);
    }
    let value = body;
    let base = "";
    if (envelope && this.#options.unwrapDataEnvelope) {
      const u = unwrapDataEnvelope(body, envelope);
      if (u.unwrapped) {
        value = u.value;
        base = "/data";
        this.#logger?.debug?.(`webauto-api: removed a {"data": ...} wrapper around the ${method} ${path} response (${safeUrl(response.url || this.baseUrl)})`);
      }
    }
    if (this.#options.validateResponses) {
      const validate = await loadResponseValidator();
      const violations: Violation[] = validate(schema, value).map((v) => ({ ...v, pointer: base + v.pointer }));
      if (violations.length) throw new ResponseValidationError(method, path, violations, text);
    }
    return { value, base };
  }
}

function checkListing(body: unknown): Violation[] {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObj(body)) return [{ pointer: "", rule: "type", message: "expected the listing envelope {data, error}" }];
  if (body.error !== null && body.error !== undefined) return [{ pointer: "/error", rule: "const", message: "must be null on success" }];
  const data = body.data;
  if (!isObj(data)) return [{ pointer: "/data", rule: "type", message: "expected the page object" }];
  const v: Violation[] = [];
  if (!Array.isArray(data.results)) v.push({ pointer: "/data/results", rule: "type", message: "must be an array" });
  else data.results.forEach((r, i) => {
    if (!isObj(r) || typeof r.id !== "string") v.push({ pointer: `/data/results/${i}/id`, rule: "type", message: "each result needs a string id" });
  });
  for (const key of ["total_pages", "page_size", "page", "total_records"]) {
    if (!Number.isInteger(data[key])) v.push({ pointer: `/data/${key}`, rule: "type", message: "must be an integer" });
  }
  return v;
}

/** Creates a client; throws `ArgumentError` naming the option for a missing key or a malformed base URL. */
export function createClient(options: ClientOptions = {}): WebautoClient {
  return new WebautoClient(options);
}


