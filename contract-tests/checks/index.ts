/** The one registry of checks: the key is the check's id in reports, test names, baselines and self-tests. */
import type { Check, CheckContext, Exchange, Finding, Replay } from "../model/types.js";
import { accountIsolation } from "./account-isolation.js";
import { bodySizeLimit } from "./body-size-limit.js";
import { contentTypeConformance } from "./content-type-conformance.js";
import { hostileInput } from "./hostile-input.js";
import { ignoredAuth } from "./ignored-auth.js";
import { negativeDataRejection } from "./negative-data-rejection.js";
import { notAServerError } from "./not-a-server-error.js";
import { positiveDataAcceptance } from "./positive-data-acceptance.js";
import { resourceAvailability } from "./resource-availability.js";
import { responseEnvelope } from "./response-envelope.js";
import { responseReadable } from "./response-readable.js";
import { responseHeadersConformance } from "./response-headers-conformance.js";
import { responseSchemaConformance } from "./response-schema-conformance.js";
import { serverStoppedAnswering } from "./server-stopped-answering.js";
import { statusCodeConformance } from "./status-code-conformance.js";
import { undocumentedProperties } from "./undocumented-properties.js";
import { unknownResource } from "./unknown-resource.js";
import { unsupportedMethod } from "./unsupported-method.js";
import { updatePersisted } from "./update-persisted.js";
import { useAfterFree } from "./use-after-free.js";
import { listedAfterCreate } from "./listed-after-create.js";
import { refusedCreateLeak } from "./refused-create-leak.js";
import { foreignWrite, misdirectedWrite } from "./foreign-write.js";
import { forgedCredential } from "./forged-credential.js";
import { revokedCredential } from "./revoked-credential.js";
import { credentialsLost } from "./credentials-lost.js";
import { lostWrite } from "./lost-write.js";
import { serverOwnedMember } from "./server-owned-member.js";
import { writeOnlyExposed } from "./write-only-exposed.js";
import { decided } from "./severity.js";

/** A registered check. */
export interface CheckDef {
  fn: Check;
  /**
   * It relates the request to the response (filters, pairing, echo): against the static mock, whose answer
   * does not depend on the request, it runs only on a documented example pair.
   */
  relational?: boolean;
  /**
   * The promise of every finding of the check that names none itself: for a semantic module check, the
   * definite statement of the interface it enforces (see promise.ts).
   */
  promise?: string;
  /** The operation a semantic module's check is about (set when the module's checks are registered). */
  operationId?: string;
}

/** Checks every exchange gets, whatever the operation (Schemathesis's defaults, plus size and envelope). */
const RESPONSE = {
  not_a_server_error: { fn: notAServerError },
  server_stopped_answering: { fn: serverStoppedAnswering },
  credentials_lost: { fn: credentialsLost },
  response_readable: { fn: responseReadable },
  status_code_conformance: { fn: statusCodeConformance },
  content_type_conformance: { fn: contentTypeConformance },
  body_size_limit: { fn: bodySizeLimit },
  response_schema_conformance: { fn: responseSchemaConformance },
  response_headers_conformance: { fn: responseHeadersConformance },
  undocumented_properties: { fn: undocumentedProperties },
  response_envelope: { fn: responseEnvelope },
  write_only_exposed: { fn: writeOnlyExposed },
} satisfies Record<string, CheckDef>;

/** Checks that act only on requests sent with their intent (valid, invalid, unauthenticated, ...). */
const INTENT = {
  positive_data_acceptance: { fn: positiveDataAcceptance },
  negative_data_rejection: { fn: negativeDataRejection },
  ignored_auth: { fn: ignoredAuth },
  unknown_resource: { fn: unknownResource },
  resource_availability: { fn: resourceAvailability },
  update_persisted: { fn: updatePersisted },
  use_after_free: { fn: useAfterFree },
  listed_after_create: { fn: listedAfterCreate },
  refused_create_leak: { fn: refusedCreateLeak },
  foreign_write: { fn: foreignWrite },
  revoked_credential: { fn: revokedCredential },
  forged_credential: { fn: forgedCredential },
  misdirected_write: { fn: misdirectedWrite },
  lost_write: { fn: lostWrite },
  account_isolation: { fn: accountIsolation },
  server_owned_member: { fn: serverOwnedMember },
  unsupported_method: { fn: unsupportedMethod },
  hostile_input: { fn: hostileInput },
} satisfies Record<string, CheckDef>;

/** The checks every exchange gets, whatever the operation, by id. */
const GENERIC_CHECKS: Readonly<Record<string, CheckDef>> = { ...RESPONSE, ...INTENT };

/**
 * Requests the document rules out (invalid input, a missing or wrong credential): a server may read them any
 * way it likes once it has not refused them, so nothing relates them to the answer.
 */
const RULED_OUT: ReadonlySet<CheckContext["intent"]> = new Set([
  "rejection",
  "no-key",
  "empty-key",
  "wrong-key",
  "forged-credential",
  "revoked-credential",
  "foreign-write",
]);

/**
 * The checks of a run: the generic ones, and the semantic checks its caller registers for their operations
 * (the modules are registered by the run, so this registry imports none of them).
 */
export class CheckRegistry {
  readonly #defs = new Map<string, CheckDef>(Object.entries(GENERIC_CHECKS));
  /** forOperation's answers, asked for every exchange: computed once per operation until a registration. */
  readonly #byOperation = new Map<string, readonly string[]>();

  /** Registers a module's checks for `operationId`; an id registered twice for another check throws. */
  register(operationId: string, checks: Readonly<Record<string, CheckDef>>): this {
    for (const [id, def] of Object.entries(checks)) {
      if (this.#defs.has(id) && this.#defs.get(id)?.fn !== def.fn) throw new Error(`check ${id} is registered twice`);
      this.#defs.set(id, { ...def, operationId });
    }
    this.#byOperation.clear();
    return this;
  }

  /** Every registered check id. */
  ids(): string[] {
    return [...this.#defs.keys()];
  }

  /** The checks every exchange of `operationId` gets: the generic ones and its module's. */
  forOperation(operationId: string): readonly string[] {
    let ids = this.#byOperation.get(operationId);
    if (!ids) {
      ids = [...this.#defs]
        .filter(([, d]) => d.operationId === undefined || d.operationId === operationId)
        .map(([id]) => id);
      this.#byOperation.set(operationId, ids);
    }
    return ids;
  }

  /**
   * Runs the named checks on one exchange. Relational checks are skipped on the mock unless the exchange is an
   * example pair; relational and semantic checks are skipped on requests the document rules out. Each finding's
   * severity is decided by checks/severity.ts (an error names its promise: its own, else its check's).
   */
  readonly run = (ids: Iterable<string>, exchange: Exchange, ctx: CheckContext): Finding[] => {
    const out: Finding[] = [];
    for (const id of new Set(ids)) {
      const def = this.#defs.get(id);
      if (!def) throw new Error(`unknown check ${id}`);
      if (def.relational && !ctx.live && !exchange.pairedExample) continue;
      // Module checks hold the meaning of an operation: like relational ones, they judge only requests the document
      // allows.
      if ((def.relational || def.operationId !== undefined) && RULED_OUT.has(ctx.intent)) continue;
      const findings = def.fn(exchange, ctx);
      const replay = exchange.documented || findings.length === 0 ? {} : { replay: replayOf(exchange, ctx) };
      // What set the request apart: listed among the finding's inputs (the answer decides its identity).
      const cause = ctx.cause ?? ctx.mutation;
      for (const found of findings) {
        const f = cause && found.cause === undefined ? { ...found, cause } : found;
        const promise = f.promise ?? def.promise;
        out.push({ check: id, ...decided({ ...f, ...(promise ? { promise } : {}) }, ctx.strict), ...replay });
      }
    }
    return out;
  };
}

/** The check ids of `ids` the settings keep (`--checks`). */
export function selectedChecks(ids: readonly string[], checks: readonly string[] | undefined): string[] {
  return checks ? ids.filter((id) => checks.includes(id)) : [...ids];
}

/** The request of an exchange as `--replay` sends it again: the target places the credential and its own headers. */
function replayOf(exchange: Exchange, ctx: CheckContext): Replay {
  const { request } = exchange;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (["accept", "user-agent", "content-type"].includes(name)) continue;
    // The credential (shown as its variable) is placed again by the target; a cookie keeps its other pairs.
    const kept =
      name === "cookie"
        ? value
            .split("; ")
            .filter((pair) => !pair.includes("$CONTRACT_"))
            .join("; ")
        : value.includes("$CONTRACT_")
          ? ""
          : value;
    if (kept) headers[name] = kept;
  }
  const context = Object.fromEntries(
    Object.entries({
      intent: ctx.intent,
      demand: ctx.demand,
      mutation: ctx.mutation,
      linked: ctx.linked,
      linkPromise: ctx.linkPromise,
      linkInferred: ctx.linkInferred,
      deletedBy: ctx.deletedBy,
      unknownIn: ctx.unknownIn,
      wellFormed: ctx.wellFormed,
      unreachableSite: ctx.unreachableSite,
      hostile: ctx.hostile,
    }).filter(([, v]) => v !== undefined),
  ) as Replay["context"];
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    headers,
    ...(request.bodyText !== undefined ? { bodyText: request.bodyText } : {}),
    ...(request.headers["content-type"] ? { contentType: request.headers["content-type"] } : {}),
    key: request.key ?? "valid",
    context,
  };
}
