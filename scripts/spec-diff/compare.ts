/**
 * The structural comparison of two OpenAPI documents (both read with OpenAPI 3.1 semantics): operations
 * matched by method and path template (a renamed path parameter is the same path), parameters resolved as
 * the specification merges them (an operation's parameter overrides the path item's of the same name and
 * location), request bodies, responses, headers and security requirements compared as sets. Components are
 * reached only through what the operations use, so an unused component is not a change to the API.
 */
import { derefSchema, isMapping, type OpenApiDocument } from "../../openapi/lib/spec.js";
import { pointerSegment } from "../../openapi/lib/document-error.js";
import { documentView } from "../../openapi/lib/views.js";
import { compareSchema, type Finding, type SchemaContext } from "./schema.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const OPERATION_ANNOTATIONS = ["summary", "description", "tags", "externalDocs"];
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const ptr = (...parts: Array<string | number>): string => parts.map((p) => `/${pointerSegment(String(p))}`).join("");
const action = (x: unknown, y: unknown): Finding["action"] =>
  x === undefined ? "add" : y === undefined ? "remove" : "replace";

/** The two documents and their request and response views. */
interface Pair {
  base: OpenApiDocument;
  head: OpenApiDocument;
  request: { base: OpenApiDocument; head: OpenApiDocument };
  response: { base: OpenApiDocument; head: OpenApiDocument };
  emit: (f: Finding) => void;
}

/** Every difference between two documents (both read by loadSpec, so of one OpenAPI version), unclassified. */
export function compareDocuments(base: OpenApiDocument, head: OpenApiDocument): Finding[] {
  const findings: Finding[] = [];
  const pair: Pair = {
    base,
    head,
    request: { base: documentView(base, "request"), head: documentView(head, "request") },
    response: { base: documentView(base, "response"), head: documentView(head, "response") },
    emit: (f) => findings.push(f),
  };
  const note = (rule: string, pointer: string, where: string, before: unknown, after: unknown, operation?: string) =>
    pair.emit({
      rule,
      pointer,
      where,
      action: action(before, after),
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
      ...(operation ? { operation } : {}),
    });

  for (const key of new Set([...Object.keys(base.info ?? {}), ...Object.keys(head.info ?? {})])) {
    if (!same(base.info?.[key], head.info?.[key]))
      note("info-changed", ptr("info", key), `info.${key}`, base.info?.[key], head.info?.[key]);
  }
  for (const key of new Set([...Object.keys(base), ...Object.keys(head)])) {
    if (same(base[key], head[key])) continue;
    if (key === "tags" || key === "externalDocs" || key.startsWith("x-"))
      note("annotation-changed", ptr(key), `top-level ${key}`, base[key], head[key]);
    else if (key === "servers")
      note(serversRule(base[key], head[key]), "/servers", "top-level servers", base[key], head[key]);
    else if (key === "webhooks") compareWebhooks(pair);
  }
  comparePaths(pair);
  return findings;
}

/** A change of servers that only touches their descriptions is documentation. */
const serversRule = (a: unknown, b: unknown): string =>
  JSON.stringify(a, (k, v) => (k === "description" ? undefined : v)) ===
  JSON.stringify(b, (k, v) => (k === "description" ? undefined : v))
    ? "annotation-changed"
    : "servers-changed";

const template = (route: string) => route.replace(/\{[^}]*\}/g, "{}");

function comparePaths(pair: Pair): void {
  const routesA = new Map(Object.keys(pair.base.paths ?? {}).map((r) => [template(r), r]));
  const routesB = new Map(Object.keys(pair.head.paths ?? {}).map((r) => [template(r), r]));
  for (const [key, routeA] of routesA) {
    const routeB = routesB.get(key);
    const itemA = derefSchema(pair.base, pair.base.paths[routeA]).schema ?? {};
    const itemB = routeB === undefined ? {} : (derefSchema(pair.head, pair.head.paths[routeB]).schema ?? {});
    compareItem(pair, routeA, itemA, routeB ?? routeA, itemB);
  }
  for (const [key, routeB] of routesB) {
    if (!routesA.has(key))
      compareItem(pair, routeB, {}, routeB, derefSchema(pair.head, pair.head.paths[routeB]).schema ?? {});
  }
}

function signature(method: string, route: string, op: any): string {
  return `${method.toUpperCase()} ${route}${typeof op?.operationId === "string" ? ` (${op.operationId})` : ""}`;
}

function compareItem(pair: Pair, routeA: string, itemA: any, routeB: string, itemB: any): void {
  const itemPtrA = ptr("paths", routeA);
  const itemPtrB = ptr("paths", routeB);
  for (const key of new Set([...Object.keys(itemA), ...Object.keys(itemB)])) {
    if ((key === "summary" || key === "description" || key.startsWith("x-")) && !same(itemA[key], itemB[key]))
      pair.emit({
        rule: "annotation-changed",
        pointer: `${itemPtrB}/${key}`,
        where: `path ${routeB}`,
        action: action(itemA[key], itemB[key]),
        before: itemA[key],
        after: itemB[key],
      });
  }
  if (!same(itemA.servers, itemB.servers) && Object.keys(itemA).length > 0 && Object.keys(itemB).length > 0) {
    pair.emit({
      rule: serversRule(itemA.servers, itemB.servers),
      pointer: `${itemPtrB}/servers`,
      where: `path ${routeB}`,
      action: action(itemA.servers, itemB.servers),
      before: itemA.servers,
      after: itemB.servers,
    });
  }
  for (const method of METHODS) {
    const [opA, opB] = [itemA[method], itemB[method]];
    if (!isMapping(opA) && !isMapping(opB)) continue;
    if (!isMapping(opB)) {
      const rule = opA.deprecated === true ? "deprecated-operation-removed" : "operation-removed";
      pair.emit({
        rule,
        pointer: `${itemPtrA}/${method}`,
        where: signature(method, routeA, opA),
        operation: signature(method, routeA, opA),
        action: "remove",
      });
    } else if (!isMapping(opA)) {
      pair.emit({
        rule: "operation-added",
        pointer: `${itemPtrB}/${method}`,
        where: signature(method, routeB, opB),
        operation: signature(method, routeB, opB),
        action: "add",
      });
    } else {
      compareOperation(pair, { method, routeA, routeB, itemA, itemB, opA, opB });
    }
  }
}

interface OperationPair {
  method: string;
  routeA: string;
  routeB: string;
  itemA: any;
  itemB: any;
  opA: any;
  opB: any;
}

function compareOperation(pair: Pair, o: OperationPair): void {
  const operation = signature(o.method, o.routeB, o.opB);
  const opPtrA = ptr("paths", o.routeA, o.method);
  const opPtrB = ptr("paths", o.routeB, o.method);
  const note = (rule: string, pointer: string, where: string, before: unknown, after: unknown) =>
    pair.emit({
      rule,
      pointer,
      where,
      operation,
      action: action(before, after),
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    });

  for (const key of new Set([...Object.keys(o.opA), ...Object.keys(o.opB)])) {
    if (!(OPERATION_ANNOTATIONS.includes(key) || key.startsWith("x-")) || same(o.opA[key], o.opB[key])) continue;
    note("annotation-changed", `${opPtrB}/${pointerSegment(key)}`, `operation ${key}`, o.opA[key], o.opB[key]);
  }
  if (Boolean(o.opA.deprecated) !== Boolean(o.opB.deprecated))
    note(
      o.opB.deprecated ? "operation-deprecated" : "operation-reactivated",
      `${opPtrB}/deprecated`,
      "the operation",
      o.opA.deprecated,
      o.opB.deprecated,
    );
  // An operationId given where there was none names the operation for the first time: nothing that used a name breaks.
  if (!same(o.opA.operationId, o.opB.operationId))
    note(
      o.opA.operationId === undefined ? "annotation-changed" : "operation-id-changed",
      `${opPtrB}/operationId`,
      "the operation",
      o.opA.operationId,
      o.opB.operationId,
    );
  if (!same(o.opA.servers, o.opB.servers))
    note(serversRule(o.opA.servers, o.opB.servers), `${opPtrB}/servers`, "the operation", o.opA.servers, o.opB.servers);
  if (!same(o.opA.callbacks, o.opB.callbacks))
    note("webhook-changed", `${opPtrB}/callbacks`, "callbacks", undefined, undefined);

  compareSecurity(pair, o, operation, opPtrB);
  // Requests and responses are compared in their views of the documents (readOnly and writeOnly applied).
  const inView = (side: "request" | "response"): OperationPair => {
    const { base, head } = pair[side];
    const item = (doc: OpenApiDocument, route: string) => derefSchema(doc, doc.paths?.[route]).schema ?? {};
    const [itemA, itemB] = [item(base, o.routeA), item(head, o.routeB)];
    return { ...o, itemA, itemB, opA: itemA[o.method] ?? {}, opB: itemB[o.method] ?? {} };
  };
  const request = inView("request");
  compareParameters(pair, request, operation);
  compareRequestBody(pair, request, operation, opPtrA, opPtrB);
  compareResponses(pair, inView("response"), operation, opPtrA, opPtrB);
}

// Security ------------------------------------------------------------------------------------------

type Requirement = Map<string, Set<string>>;

/** The requirements in force: the operation's own, else the document's; an empty list means open. */
function requirements(doc: OpenApiDocument, op: any): Requirement[] {
  const list: unknown[] = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  if (list.length === 0) return [new Map()];
  return list
    .filter(isMapping)
    .map(
      (r) =>
        new Map(
          Object.entries(r).map(([name, scopes]) => [name, new Set(Array.isArray(scopes) ? scopes.map(String) : [])]),
        ),
    );
}

/** Whether a client meeting `met` also meets `needed` (every scheme of `needed`, with all its scopes). */
const satisfies = (met: Requirement, needed: Requirement): boolean =>
  [...needed].every(([name, scopes]) => met.has(name) && [...scopes].every((s) => met.get(name)!.has(s)));

const showRequirements = (list: Requirement[]): string[] =>
  list.map((r) =>
    r.size === 0 ? "none" : [...r].map(([n, s]) => (s.size ? `${n}[${[...s].join(",")}]` : n)).join(" + "),
  );

function compareSecurity(pair: Pair, o: OperationPair, operation: string, opPtrB: string): void {
  const [ra, rb] = [requirements(pair.base, o.opA), requirements(pair.head, o.opB)];
  const pointer = Array.isArray(o.opB.security) || Array.isArray(o.opA.security) ? `${opPtrB}/security` : "/security";
  // A request that met some base requirement must meet some revision requirement.
  const refused = ra.filter((r) => !rb.some((h) => satisfies(r, h)));
  const newWays = rb.filter((h) => !ra.some((r) => satisfies(h, r)));
  const [before, after] = [showRequirements(ra), showRequirements(rb)];
  if (refused.length > 0)
    pair.emit({
      rule: "security-narrowed",
      pointer,
      where: "security requirements",
      operation,
      action: "replace",
      before,
      after,
    });
  else if (newWays.length > 0)
    pair.emit({
      rule: "security-widened",
      pointer,
      where: "security requirements",
      operation,
      action: "replace",
      before,
      after,
    });
  const used = new Set([...ra, ...rb].flatMap((r) => [...r.keys()]));
  for (const name of used) {
    const [sa, sb] = [pair.base.components?.securitySchemes?.[name], pair.head.components?.securitySchemes?.[name]];
    const strip = (s: any) =>
      isMapping(s)
        ? JSON.stringify(s, (k, v) => (k === "description" || k.startsWith("x-") ? undefined : v))
        : undefined;
    const pointerB = ptr("components", "securitySchemes", name);
    if (strip(sa) !== strip(sb) && sa !== undefined && sb !== undefined)
      pair.emit({
        rule: "security-scheme-changed",
        pointer: pointerB,
        where: `security scheme \`${name}\``,
        operation,
        action: "replace",
      });
    else if (sa?.description !== sb?.description)
      pair.emit({
        rule: "annotation-changed",
        pointer: `${pointerB}/description`,
        where: `security scheme \`${name}\``,
        action: action(sa?.description, sb?.description),
        before: sa?.description,
        after: sb?.description,
      });
  }
}

// Parameters ----------------------------------------------------------------------------------------

interface Param {
  key: string;
  param: any;
  pointer: string;
}

/**
 * The operation's parameters as the specification merges them, keyed by location and name (path ones by position in
 * the template).
 */
function parameters(doc: OpenApiDocument, route: string, item: any, op: any, opPtr: string): Map<string, Param> {
  const slots = [...route.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const merged = new Map<string, Param>();
  const read = (list: unknown, at: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const { schema: param, pointer } = derefSchema(doc, raw, `${at}/${i}`);
      if (!isMapping(param) || typeof param.name !== "string") return;
      // OpenAPI ignores header parameters named Accept, Content-Type or Authorization (the media types and security
      // say those).
      if (param.in === "header" && IGNORED_HEADERS.has(param.name.toLowerCase())) return;
      const slot = param.in === "path" ? slots.indexOf(param.name) : -1;
      const key =
        slot >= 0 ? `path#${slot}` : `${param.in}:${param.in === "header" ? param.name.toLowerCase() : param.name}`;
      merged.set(key, { key, param, pointer });
    });
  };
  read(item.parameters, ptr("paths", route, "parameters"));
  read(op.parameters, `${opPtr}/parameters`);
  return merged;
}

const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

const SERIALIZATION = (p: any) => {
  const style = p.style ?? (p.in === "query" || p.in === "cookie" ? "form" : "simple");
  return {
    style,
    explode: p.explode ?? style === "form",
    allowReserved: Boolean(p.allowReserved),
    content: isMapping(p.content) ? Object.keys(p.content).sort() : undefined,
  };
};

function compareParameters(pair: Pair, o: OperationPair, operation: string): void {
  const { base, head } = pair.request;
  const pa = parameters(base, o.routeA, o.itemA, o.opA, ptr("paths", o.routeA, o.method));
  const pb = parameters(head, o.routeB, o.itemB, o.opB, ptr("paths", o.routeB, o.method));
  const label = (p: any) => `${p.in} parameter \`${p.name}\``;
  const emit = (rule: string, p: Param, before?: unknown, after?: unknown, key?: string) =>
    pair.emit({
      rule,
      pointer: key ? `${p.pointer}/${key}` : p.pointer,
      where: label(p.param),
      operation,
      action: action(before, after),
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    });
  for (const [key, a] of pa)
    if (!pb.has(key))
      pair.emit({
        rule: "request-parameter-removed",
        pointer: a.pointer,
        where: label(a.param),
        operation,
        action: "remove",
      });
  for (const [key, b] of pb) {
    const a = pa.get(key);
    const required = (p: any) => p.in === "path" || p.required === true;
    if (!a) {
      pair.emit({
        rule: required(b.param) ? "request-parameter-added-required" : "request-parameter-added-optional",
        pointer: b.pointer,
        where: label(b.param),
        operation,
        action: "add",
      });
      continue;
    }
    const [x, y] = [a.param, b.param];
    // A flag of the parameter turned on or off: the rule for each way (values reported as the documents write them).
    const flags: Array<[key: string, get: (p: any) => unknown, on: string, off: string]> = [
      ["required", required, "request-parameter-became-required", "request-parameter-became-optional"],
      ["deprecated", (p) => p.deprecated, "request-parameter-deprecated", "request-parameter-reactivated"],
      [
        "allowEmptyValue",
        (p) => p.allowEmptyValue,
        "request-parameter-empty-value-allowed",
        "request-parameter-empty-value-refused",
      ],
    ];
    for (const [flag, get, on, off] of flags)
      if (Boolean(get(x)) !== Boolean(get(y))) emit(get(y) ? on : off, b, get(x), get(y), flag);
    if (!same(SERIALIZATION(x), SERIALIZATION(y)))
      emit("request-parameter-serialization-changed", b, SERIALIZATION(x), SERIALIZATION(y));
    for (const k of ["description", "example", "examples"])
      if (!same(x[k], y[k]))
        pair.emit({
          rule: "annotation-changed",
          pointer: `${b.pointer}/${k}`,
          where: label(y),
          operation,
          action: action(x[k], y[k]),
          before: x[k],
          after: y[k],
        });
    const ctx: SchemaContext = {
      side: "request",
      base,
      head,
      where: label(y),
      operation,
      text: !isMapping(y.content),
      emit: pair.emit,
      ownDefault: true,
    };
    if (isMapping(x.schema) || isMapping(y.schema)) {
      const [sa, sb] = [derefSchema(base, x.schema ?? {}).schema ?? {}, derefSchema(head, y.schema ?? {}).schema ?? {}];
      if (!same(sa.default, sb.default))
        emit(
          required(y) ? "request-required-parameter-default-changed" : "request-parameter-default-changed",
          b,
          sa.default,
          sb.default,
          "schema/default",
        );
      compareSchema(x.schema, `${a.pointer}/schema`, y.schema, `${b.pointer}/schema`, ctx);
    }
    if (isMapping(x.content) && isMapping(y.content)) {
      for (const media of Object.keys(y.content)) {
        if (media in x.content)
          compareSchema(
            x.content[media]?.schema,
            `${a.pointer}/content/${pointerSegment(media)}/schema`,
            y.content[media]?.schema,
            `${b.pointer}/content/${pointerSegment(media)}/schema`,
            { ...ctx, text: false },
          );
      }
    }
  }
}

// Request bodies --------------------------------------------------------------------------------------

function compareRequestBody(pair: Pair, o: OperationPair, operation: string, opPtrA: string, opPtrB: string): void {
  const { base, head } = pair.request;
  const ra =
    o.opA.requestBody === undefined ? undefined : derefSchema(base, o.opA.requestBody, `${opPtrA}/requestBody`);
  const rb =
    o.opB.requestBody === undefined ? undefined : derefSchema(head, o.opB.requestBody, `${opPtrB}/requestBody`);
  const where = "request body";
  if (!ra && !rb) return;
  if (!rb) {
    pair.emit({ rule: "request-body-removed", pointer: ra!.pointer, where, operation, action: "remove" });
    return;
  }
  if (!ra) {
    pair.emit({
      rule: rb.schema?.required ? "request-body-added-required" : "request-body-added-optional",
      pointer: rb.pointer,
      where,
      operation,
      action: "add",
    });
    return;
  }
  const [a, b] = [ra.schema ?? {}, rb.schema ?? {}];
  if (Boolean(a.required) !== Boolean(b.required))
    pair.emit({
      rule: b.required ? "request-body-became-required" : "request-body-became-optional",
      pointer: `${rb.pointer}/required`,
      where,
      operation,
      action: "replace",
      before: Boolean(a.required),
      after: Boolean(b.required),
    });
  if (!same(a.description, b.description))
    pair.emit({
      rule: "annotation-changed",
      pointer: `${rb.pointer}/description`,
      where,
      operation,
      action: action(a.description, b.description),
      before: a.description,
      after: b.description,
    });
  compareContent(pair, "request", a.content, ra.pointer, b.content, rb.pointer, where, operation);
}

/** Media types of a body: removed, added, and the schemas of the common ones. */
/** A media type's essence: `type/subtype`, lowercased, without parameters (RFC 9110 §8.3.1). */
const essence = (media: string): string => media.split(";")[0]!.trim().toLowerCase();

function compareContent(
  pair: Pair,
  side: "request" | "response",
  ca: unknown,
  pa: string,
  cb: unknown,
  pb: string,
  where: string,
  operation: string,
): void {
  const [a, b] = [isMapping(ca) ? ca : {}, isMapping(cb) ? cb : {}];
  const { base, head } = pair[side];
  // Media types pair by key, then what is left by essence (`application/json` and `application/json; charset=utf-8`).
  const pairs: Array<[string, string]> = Object.keys(b)
    .filter((m) => m in a)
    .map((m) => [m, m]);
  const leftA = Object.keys(a).filter((m) => !(m in b));
  const leftB = Object.keys(b).filter((m) => !(m in a));
  for (const mb of [...leftB]) {
    const ma = leftA.find((m) => essence(m) === essence(mb));
    if (ma === undefined) continue;
    pairs.push([ma, mb]);
    leftA.splice(leftA.indexOf(ma), 1);
    leftB.splice(leftB.indexOf(mb), 1);
  }
  for (const media of leftA)
    pair.emit({
      rule: `${side}-media-type-removed`,
      pointer: `${pa}/content/${pointerSegment(media)}`,
      where: `${where} (${media})`,
      operation,
      action: "remove",
      before: media,
    });
  for (const media of leftB)
    pair.emit({
      rule: `${side}-media-type-added`,
      pointer: `${pb}/content/${pointerSegment(media)}`,
      where: `${where} (${media})`,
      operation,
      action: "add",
      after: media,
    });
  for (const [mediaA, media] of pairs) {
    const at = `${pb}/content/${pointerSegment(media)}`;
    const [ma, mb] = [a[mediaA] ?? {}, b[media] ?? {}];
    for (const k of ["example", "examples"])
      if (!same(ma[k], mb[k]))
        pair.emit({
          rule: "annotation-changed",
          pointer: `${at}/${k}`,
          where: `${where} (${media})`,
          operation,
          action: action(ma[k], mb[k]),
        });
    if (ma.schema === undefined && mb.schema === undefined) continue;
    // Form fields travel as text, as parameters do.
    const text = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(media);
    compareSchema(ma.schema, `${pa}/content/${pointerSegment(mediaA)}/schema`, mb.schema, `${at}/schema`, {
      side,
      base,
      head,
      where: `${where} (${media})`,
      operation,
      text,
      emit: pair.emit,
    });
  }
}

// Responses -------------------------------------------------------------------------------------------

function compareResponses(pair: Pair, o: OperationPair, operation: string, opPtrA: string, opPtrB: string): void {
  const { base, head } = pair.response;
  // Status keys as the specification reads them: "2xx" and "2XX" are one range; pointers keep the key as written.
  const byStatus = (r: unknown, opPtr: string) =>
    new Map(
      Object.entries(isMapping(r) ? r : {}).map(([k, v]) => [
        k.toUpperCase(),
        { value: v, pointer: `${opPtr}/responses/${pointerSegment(k)}` },
      ]),
    );
  const [a, b] = [byStatus(o.opA.responses, opPtrA), byStatus(o.opB.responses, opPtrB)];
  for (const [status, { pointer }] of a) {
    if (b.has(status)) continue;
    const rule = /^2/.test(status) ? "response-success-status-removed" : "response-status-removed";
    pair.emit({ rule, pointer, where: `response ${status}`, operation, action: "remove", before: status });
  }
  for (const [status, now] of b) {
    const old = a.get(status);
    if (!old) {
      pair.emit({
        rule: "response-status-added",
        pointer: now.pointer,
        where: `response ${status}`,
        operation,
        action: "add",
        after: status,
      });
      continue;
    }
    const ra = derefSchema(base, old.value, old.pointer);
    const rb = derefSchema(head, now.value, now.pointer);
    const [x, y] = [ra.schema ?? {}, rb.schema ?? {}];
    const where = `response ${status}`;
    for (const k of ["description", "links"])
      if (!same(x[k], y[k]))
        pair.emit({
          rule: "annotation-changed",
          pointer: `${rb.pointer}/${k}`,
          where,
          operation,
          action: action(x[k], y[k]),
          before: x[k],
          after: y[k],
        });
    compareHeaders(pair, x.headers, ra.pointer, y.headers, rb.pointer, where, operation);
    compareContent(pair, "response", x.content, ra.pointer, y.content, rb.pointer, `${where} body`, operation);
  }
}

function compareHeaders(
  pair: Pair,
  ha: unknown,
  pa: string,
  hb: unknown,
  pb: string,
  where: string,
  operation: string,
): void {
  const { base, head } = pair.response;
  const lower = (h: unknown) =>
    new Map(Object.entries(isMapping(h) ? h : {}).map(([n, v]) => [n.toLowerCase(), { name: n, value: v }]));
  const [a, b] = [lower(ha), lower(hb)];
  for (const [key, { name, value }] of a) {
    if (b.has(key)) continue;
    const header = derefSchema(base, value).schema ?? {};
    pair.emit({
      rule: header.required ? "response-required-header-removed" : "response-optional-header-removed",
      pointer: `${pa}/headers/${pointerSegment(name)}`,
      where: `${where} header \`${name}\``,
      operation,
      action: "remove",
    });
  }
  for (const [key, { name, value }] of b) {
    const label = `${where} header \`${name}\``;
    const rb = derefSchema(head, value, `${pb}/headers/${pointerSegment(name)}`);
    const old = a.get(key);
    if (!old) {
      pair.emit({ rule: "response-header-added", pointer: rb.pointer, where: label, operation, action: "add" });
      continue;
    }
    const ra = derefSchema(base, old.value, `${pa}/headers/${pointerSegment(old.name)}`);
    const [x, y] = [ra.schema ?? {}, rb.schema ?? {}];
    if (Boolean(x.required) !== Boolean(y.required))
      pair.emit({
        rule: y.required ? "response-header-became-required" : "response-header-became-optional",
        pointer: `${rb.pointer}/required`,
        where: label,
        operation,
        action: "replace",
        before: Boolean(x.required),
        after: Boolean(y.required),
      });
    if (Boolean(x.deprecated) !== Boolean(y.deprecated) && y.deprecated)
      pair.emit({
        rule: "response-header-deprecated",
        pointer: `${rb.pointer}/deprecated`,
        where: label,
        operation,
        action: "add",
        after: true,
      });
    if (!same(x.description, y.description))
      pair.emit({
        rule: "annotation-changed",
        pointer: `${rb.pointer}/description`,
        where: label,
        operation,
        action: action(x.description, y.description),
        before: x.description,
        after: y.description,
      });
    const ctx: SchemaContext = {
      side: "response",
      base,
      head,
      where: label,
      operation,
      text: !isMapping(y.content),
      emit: pair.emit,
    };
    if (isMapping(x.schema) || isMapping(y.schema))
      compareSchema(x.schema, `${ra.pointer}/schema`, y.schema, `${rb.pointer}/schema`, ctx);
  }
}

// Webhooks ----------------------------------------------------------------------------------------------

/**
 * Webhooks: the API sends their requests. Added and removed ones are judged like operations; other changes are left
 * to a person.
 */
function compareWebhooks(pair: Pair): void {
  const [a, b] = [
    isMapping(pair.base.webhooks) ? pair.base.webhooks : {},
    isMapping(pair.head.webhooks) ? pair.head.webhooks : {},
  ];
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [ia, ib] = [derefSchema(pair.base, a[name]).schema ?? {}, derefSchema(pair.head, b[name]).schema ?? {}];
    for (const method of METHODS) {
      const [opA, opB] = [ia[method], ib[method]];
      const label = `webhook ${name} ${method.toUpperCase()}`;
      const pointer = ptr("webhooks", name, method);
      if (isMapping(opA) && !isMapping(opB))
        pair.emit({
          rule: opA.deprecated === true ? "deprecated-operation-removed" : "operation-removed",
          pointer,
          where: label,
          operation: label,
          action: "remove",
        });
      else if (!isMapping(opA) && isMapping(opB))
        pair.emit({ rule: "operation-added", pointer, where: label, operation: label, action: "add" });
      else if (isMapping(opA) && !same(opA, opB))
        pair.emit({ rule: "webhook-changed", pointer, where: label, operation: label, action: "replace" });
    }
  }
}
