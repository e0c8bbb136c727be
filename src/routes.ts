/**
 * The operations the client knows, from the generated route table: finding the operation of a request by
 * its method and path (no hand-written path patterns), building URLs from path templates and query styles,
 * and checking argument values against the document's parameter constraints before anything is sent.
 */
import { ROUTES } from "../generated/routes.js";
import { ArgumentError } from "./errors.js";

/** An operationId of the document. */
export type OperationId = keyof typeof ROUTES;

/** The constraints of a parameter (generated from its schema). */
export interface Constraints {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly items?: Constraints;
}

interface Matcher {
  id: OperationId;
  method: string;
  segments: string[];
}

const MATCHERS: Matcher[] = (Object.keys(ROUTES) as OperationId[]).map((id) => ({
  id,
  method: ROUTES[id].method,
  segments: ROUTES[id].path.split("/").slice(1),
}));

/**
 * The operation a request is for: its method and the last segments of its path match a path template (a
 * `{param}` segment matches any one segment), so a base URL with a path prefix still matches.
 */
export function operationFor(method: string, pathname: string): OperationId | undefined {
  const parts = pathname.split("/").slice(1);
  let best: { id: OperationId; literals: number } | undefined;
  for (const m of MATCHERS) {
    if (m.method !== method.toUpperCase() || parts.length < m.segments.length) continue;
    const tail = parts.slice(parts.length - m.segments.length);
    if (!m.segments.every((seg, i) => seg.startsWith("{") || seg === tail[i])) continue;
    const literals = m.segments.filter((seg) => !seg.startsWith("{")).length;
    if (!best || literals > best.literals) best = { id: m.id, literals };
  }
  return best?.id;
}

const PATTERNS = new Map<string, RegExp>();
const compiled = (pattern: string) => {
  let re = PATTERNS.get(pattern);
  if (!re) {
    re = new RegExp(pattern, "u");
    PATTERNS.set(pattern, re);
  }
  return re;
};

/** Checks `value` against a parameter's constraints; throws ArgumentError naming `name` and the rule. */
export function checkValue(name: string, value: unknown, c: Constraints): void {
  if (c.type === "array") {
    if (!Array.isArray(value)) throw new ArgumentError(name, "must be an array");
    if (c.minItems !== undefined && value.length < c.minItems)
      throw new ArgumentError(name, `must have at least ${c.minItems} item(s); omit it instead`);
    if (c.maxItems !== undefined && value.length > c.maxItems)
      throw new ArgumentError(name, `must have at most ${c.maxItems} item(s)`);
    value.forEach((item, i) => {
      if (c.items) checkValue(`${name}[${i}]`, item, c.items);
    });
    return;
  }
  if (c.type === "integer" && !Number.isInteger(value))
    throw new ArgumentError(name, `must be an integer, got ${String(value)}`);
  if (c.type === "string" && typeof value !== "string")
    throw new ArgumentError(name, `must be a string, got ${typeof value}`);
  if (c.enum && !c.enum.includes(value))
    throw new ArgumentError(name, `must be one of ${c.enum.join(", ")}, got ${String(value)}`);
  if (typeof value === "number") {
    if (c.minimum !== undefined && value < c.minimum)
      throw new ArgumentError(name, `must be at least ${c.minimum}, got ${value}`);
    if (c.maximum !== undefined && value > c.maximum)
      throw new ArgumentError(name, `must be at most ${c.maximum}, got ${value}`);
    if (c.exclusiveMinimum !== undefined && value <= c.exclusiveMinimum)
      throw new ArgumentError(name, `must be greater than ${c.exclusiveMinimum}, got ${value}`);
    if (c.exclusiveMaximum !== undefined && value >= c.exclusiveMaximum)
      throw new ArgumentError(name, `must be less than ${c.exclusiveMaximum}, got ${value}`);
  }
  if (typeof value === "string") {
    if (c.minLength !== undefined && value.length < c.minLength)
      throw new ArgumentError(name, `must have at least ${c.minLength} character(s)`);
    if (c.maxLength !== undefined && value.length > c.maxLength)
      throw new ArgumentError(name, `must have at most ${c.maxLength} characters`);
    if (c.pattern !== undefined && !compiled(c.pattern).test(value))
      throw new ArgumentError(name, `must match ${c.pattern}`);
  }
}

/** Values for one call: path parameters and query parameters by their document names. */
export interface CallParams {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
}

function queryPart(name: string, value: unknown, style: string, explode: boolean): string {
  const key = encodeURIComponent(name);
  if (!Array.isArray(value)) return `${key}=${encodeURIComponent(String(value))}`;
  if (explode) return value.map((v) => `${key}=${encodeURIComponent(String(v))}`).join("&");
  const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
  return `${key}=${value.map((v) => encodeURIComponent(String(v))).join(sep)}`;
}

/**
 * The URL of operation `id` under `baseUrl`. Path parameters are checked against the document and must not
 * be `.` or `..` (the URL parser would resolve the dot segment and send the request to another path).
 */
export function buildUrl(
  baseUrl: string,
  id: OperationId,
  params: CallParams = {},
  argNames: Record<string, string> = {},
): string {
  const route = ROUTES[id];
  const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const arg = argNames[name] ?? name;
    const raw = params.path?.[name];
    if (raw === undefined || raw === null) throw new ArgumentError(arg, "is required");
    const value = String(raw);
    const spec = (route.pathParams as Record<string, { schema: Constraints }>)[name];
    checkValue(arg, value, { ...spec?.schema, type: "string" });
    if (value === "." || value === "..")
      throw new ArgumentError(arg, `must not be "${value}": a dot segment would send the request to another path`);
    return encodeURIComponent(value);
  });
  const styles = route.query as Record<string, { style: string; explode: boolean }>;
  const query = Object.entries(params.query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => queryPart(name, v, styles[name]?.style ?? "form", styles[name]?.explode ?? true))
    .join("&");
  return `${baseUrl}${path}${query ? `?${query}` : ""}`;
}
