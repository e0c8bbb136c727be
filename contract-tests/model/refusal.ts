/**
 * The status the document names for a refusal, where it names one: 401 (or 403) for a missing or wrong credential
 * of an operation with a security requirement, 404 (or 410) for an identifier that names nothing. Where the
 * operation documents such a status, another 4xx for that case breaks it; where it documents none, any 4xx is the
 * server's free choice.
 */
import { finding } from "./exchange.js";
import { responsePromise, securityPromise } from "./promise.js";
import type { SpecModel } from "./model.js";
import type { Exchange, Finding } from "./types.js";

/** The case a refusal answers. */
type RefusalCase = "credential" | "unknown-id";

/** What the document names for the case: the statuses it documents, those an answer may have, and the promise. */
interface DocumentedRefusal {
  /** The statuses documented for the case, exactly (`4XX` and `default` name none). */
  documented: number[];
  /** The statuses that keep the promise. */
  accepted: ReadonlySet<number>;
  /** The documented response of the first (401 before 403, 404 before 410). */
  promise: string;
}

/** The statuses that name the refusal of each case, in the order the promise prefers them. */
const NAMING: Record<RefusalCase, number[]> = { credential: [401, 403], "unknown-id": [404, 410] };

/**
 * Statuses that say nothing of the case (a request timeout, a rate limit): they never break a documented refusal.
 */
const UNRELATED = new Set([408, 429]);

/** Where the operation's credentials go, as `in:name` (lower-cased names for headers). */
function credentialPlaces(model: SpecModel, operationId: string): Set<string> {
  const places = new Set<string>();
  for (const alt of model.operation(operationId).security)
    for (const s of alt) {
      if (s.type === "apiKey" && s.in && s.name)
        places.add(`${s.in}:${s.in === "header" ? s.name.toLowerCase() : s.name}`);
      else if (s.type === "http" || s.type === "oauth2" || s.type === "openIdConnect")
        places.add("header:authorization");
    }
  return places;
}

/**
 * True when a credential of the operation goes where one of its required parameters goes, as written (an
 * Authorization header parameter, which OpenAPI ignores, is read too).
 */
function carriedInRequiredParameter(model: SpecModel, operationId: string): boolean {
  const places = credentialPlaces(model, operationId);
  const pointer = model.operation(operationId).pointer;
  const lists = [model.at(`${pointer}/parameters`), model.at(`${pointer.replace(/\/[^/]+$/, "")}/parameters`)];
  return lists
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((p) => model.deref(p, "").schema as { in?: unknown; name?: unknown; required?: unknown } | undefined)
    .some(
      (p) =>
        p?.required === true &&
        typeof p.in === "string" &&
        typeof p.name === "string" &&
        places.has(`${p.in}:${p.in === "header" ? p.name.toLowerCase() : p.name}`),
    );
}

/**
 * The documented refusal of `kind` for the operation, or undefined when the document names none (or, for a
 * credential, the operation has no security requirement). A credential's documented 403 alone also accepts 401:
 * it is HTTP's own answer to a missing credential (RFC 9110 15.5.2), and a 403 documented alone may be about
 * permissions.
 */
function documentedRefusal(model: SpecModel, operationId: string, kind: RefusalCase): DocumentedRefusal | undefined {
  if (!model.has(operationId)) return undefined;
  if (kind === "credential" && !securityPromise(model, operationId)) return undefined;
  const listed = new Set(model.documentedStatuses(operationId));
  const documented = NAMING[kind].filter((s) => listed.has(String(s)));
  if (documented.length === 0) return undefined;
  const promise = responsePromise(model, operationId, documented[0]!);
  if (!promise) return undefined;
  const accepted = new Set([...documented, ...UNRELATED]);
  if (kind === "credential" && !accepted.has(401)) accepted.add(401);
  // A credential carried in a required parameter of the operation (an Authorization header it also lists): a request
  // without it lacks a required parameter too, and the document's refusal of invalid input (400, 422) answers it.
  if (kind === "credential" && carriedInRequiredParameter(model, operationId))
    for (const s of [400, 422]) accepted.add(s);
  return { documented, accepted, promise };
}

/**
 * The error for a 4xx answer of `ex` to a case of `kind` whose status is not the refusal the operation documents
 * (the title and the documented text name it as `{named}`); none where the document names no refusal or the status
 * is one it accepts.
 */
export function otherRefusal(
  ex: Exchange,
  model: SpecModel,
  kind: RefusalCase,
  text: { title: string; documented: string },
  extra: Partial<Finding> = {},
): Array<ReturnType<typeof finding>> {
  const refusal = documentedRefusal(model, ex.operation, kind);
  if (!refusal || refusal.accepted.has(ex.response.status)) return [];
  const named = refusal.documented.join(" or ");
  return [
    finding(ex, {
      severity: "error",
      rule: "documented-refusal",
      title: text.title.replace("{named}", named),
      received: `status ${ex.response.status}`,
      documented: text.documented.replace("{named}", named),
      promise: refusal.promise,
      ...extra,
    }),
  ];
}
