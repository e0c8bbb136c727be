/**
 * The rule table of the breaking-change gate: one named rule per kind of change. Each rule has a side
 * (what a request carries, where narrowing the accepted values breaks clients; what a response carries,
 * where widening the returned values breaks them; or neither), a level (breaking fails the gate without a
 * major version, warning asks a person to look, info is safe) and a one-line reason the report prints
 * next to the change. docs/spec-diff.md lists the table and where it parts from oasdiff's.
 */

/** How much a change matters to existing clients. */
export type Level = "breaking" | "warning" | "info";

/**
 * Which message the change is in: the request (the client writes it), the response (the server writes it), or
 * neither.
 */
export type Side = "request" | "response" | "none";

/** One named kind of change. */
export interface Rule {
  id: string;
  side: Side;
  level: Level;
  /** What the report calls the change. */
  title: string;
  /** Why it has this level, in one line. */
  reason: string;
  /** Documentation only (descriptions, examples, x- extensions, info): the changelog's Documentation section. */
  annotation?: boolean;
}

const rules: Rule[] = [];
const add = (id: string, side: Side, level: Level, title: string, reason: string, annotation?: boolean): void => {
  rules.push({ id, side, level, title, reason, ...(annotation ? { annotation } : {}) });
};

// What narrowing and widening mean on each side; most schema rules are one of these two pairs.
const NARROWS = {
  request: ["breaking", "a value clients could send before is now refused"],
  response: ["info", "clients receive only values they already accepted"],
} as const;
const WIDENS = {
  request: ["info", "every value clients sent before is still accepted"],
  response: ["breaking", "clients may receive values the document did not allow before"],
} as const;
type Effect =
  | typeof NARROWS
  | typeof WIDENS
  | { request: readonly [Level, string]; response: readonly [Level, string] };

/** A schema rule on both sides: `request-<kind>` and `response-<kind>`. */
const schema = (kind: string, title: string, effect: Effect): void => {
  for (const side of ["request", "response"] as const)
    add(`${side}-${kind}`, side, effect[side][0], title, effect[side][1]);
};
const both = (level: Level, reason: string): Effect => ({ request: [level, reason], response: [level, reason] });

// Operations and paths.
add("operation-added", "none", "info", "Operation added", "no client calls it yet");
add("operation-removed", "none", "breaking", "Operation removed", "clients calling it fail");
add(
  "deprecated-operation-removed",
  "none",
  "breaking",
  "Deprecated operation removed",
  "deprecation announces a removal, but semver makes it only in a major version: clients still calling it fail",
);
add(
  "operation-deprecated",
  "none",
  "info",
  "Operation deprecated",
  "it still works; the deprecation only announces a future removal",
);
add(
  "operation-reactivated",
  "none",
  "info",
  "Operation no longer deprecated",
  "nothing changes for clients calling it",
);
add(
  "operation-id-changed",
  "none",
  "warning",
  "operationId changed",
  "generated clients name the operation after it, so their code may no longer compile",
);
add(
  "servers-changed",
  "none",
  "warning",
  "Servers changed",
  "clients build request URLs from the servers; whether the old ones still answer is not in the document",
);
add(
  "webhook-changed",
  "none",
  "warning",
  "Webhook or callback changed",
  "the gate compares webhooks and callbacks only as a whole; a person decides",
);
add(
  "openapi-version-changed",
  "none",
  "info",
  "OpenAPI version changed",
  "the gate compares both documents with OpenAPI 3.1 semantics, so this alone changes nothing on the wire",
);

// Parameters.
add(
  "request-parameter-added-required",
  "request",
  "breaking",
  "Required parameter added",
  "clients that do not send it are refused",
);
add(
  "request-parameter-added-optional",
  "request",
  "info",
  "Optional parameter added",
  "clients that do not send it are still served",
);
add(
  "request-parameter-removed",
  "request",
  "warning",
  "Parameter removed",
  "the server no longer reads it: clients that send it are not refused, but what it did for them is gone",
);
add(
  "request-parameter-became-required",
  "request",
  "breaking",
  "Parameter became required",
  "clients that omit it are refused",
);
add(
  "request-parameter-became-optional",
  "request",
  "info",
  "Parameter became optional",
  "clients that send it are still served",
);
add(
  "request-parameter-serialization-changed",
  "request",
  "breaking",
  "Parameter serialization changed",
  "style, explode, allowReserved or the switch between schema and content changes what the same value looks like " +
    "on the wire",
);
add(
  "request-parameter-default-changed",
  "request",
  "breaking",
  "Default of an optional parameter changed",
  "the server uses the default when a client omits the parameter, so those clients get a different behaviour",
);
add(
  "request-required-parameter-default-changed",
  "request",
  "info",
  "Default of a required parameter changed",
  "a required parameter is always sent, so its default is never used",
);
add(
  "request-parameter-deprecated",
  "request",
  "info",
  "Parameter deprecated",
  "it still works; the deprecation only announces a future removal",
);
add(
  "request-parameter-reactivated",
  "request",
  "info",
  "Parameter no longer deprecated",
  "nothing changes for clients sending it",
);
add(
  "request-parameter-empty-value-refused",
  "request",
  "breaking",
  "Parameter no longer allows an empty value",
  "clients sending an empty value are refused",
);
add(
  "request-parameter-empty-value-allowed",
  "request",
  "info",
  "Parameter allows an empty value",
  "every value accepted before is still accepted",
);

// Request bodies.
add(
  "request-body-added-required",
  "request",
  "breaking",
  "Required request body added",
  "clients that send no body are refused",
);
add(
  "request-body-added-optional",
  "request",
  "info",
  "Optional request body added",
  "clients that send no body are still served",
);
add(
  "request-body-removed",
  "request",
  "breaking",
  "Request body removed",
  "no media type is accepted any more, so clients sending the body may be refused",
);
add(
  "request-body-became-required",
  "request",
  "breaking",
  "Request body became required",
  "clients that send no body are refused",
);
add(
  "request-body-became-optional",
  "request",
  "info",
  "Request body became optional",
  "clients that send one are still served",
);
add(
  "request-media-type-added",
  "request",
  "info",
  "Request media type added",
  "clients keep sending the types accepted before",
);
add(
  "request-media-type-removed",
  "request",
  "breaking",
  "Request media type removed",
  "clients sending it are refused",
);

// Responses.
add(
  "response-success-status-removed",
  "response",
  "breaking",
  "Success status removed",
  "clients expecting it on success no longer get it: the operation answers differently",
);
add(
  "response-status-removed",
  "response",
  "info",
  "Non-success status removed",
  "the server promises not to send it; clients that handled it lose nothing",
);
add(
  "response-status-added",
  "response",
  "info",
  "Response status added",
  "clients treat an unknown status as the x00 of its class (RFC 9110 §15), and a response they cannot read was " +
    "always possible",
);
add(
  "response-media-type-added",
  "response",
  "info",
  "Response media type added",
  "clients receive it only when they ask for it (Accept)",
);
add(
  "response-media-type-removed",
  "response",
  "breaking",
  "Response media type removed",
  "clients asking for it no longer get it",
);
add("response-header-added", "response", "info", "Response header added", "clients that ignore it still work");
add(
  "response-required-header-removed",
  "response",
  "breaking",
  "Required response header removed",
  "clients reading it no longer find it",
);
add(
  "response-optional-header-removed",
  "response",
  "warning",
  "Optional response header removed",
  "clients already coped with its absence, but it will no longer come at all",
);
add(
  "response-header-became-optional",
  "response",
  "breaking",
  "Response header became optional",
  "clients reading it may no longer find it",
);
add(
  "response-header-became-required",
  "response",
  "info",
  "Response header became required",
  "clients receive it every time; they coped with it before",
);
add("response-header-deprecated", "response", "info", "Response header deprecated", "it is still sent");

// Security.
add(
  "security-narrowed",
  "request",
  "breaking",
  "Security tightened",
  "a request that passed before is refused: a requirement it met is gone or needs more (a scheme or a scope)",
);
add("security-widened", "request", "info", "Security loosened", "every request that passed before still passes");
add(
  "security-scheme-changed",
  "request",
  "warning",
  "Security scheme changed",
  "how clients authenticate (type, location, flows or scopes of a used scheme) changed; a person decides",
);

// Schemas: request and response.
schema("type-narrowed", "Type narrowed", NARROWS);
schema("type-widened", "Type widened", WIDENS);
schema("type-changed", "Type changed", both("breaking", "old and new types each allow values the other refuses"));
schema(
  "type-rewritten",
  "Type written differently",
  both("info", "the same values are allowed (on the wire, an unconstrained text type takes every number and boolean)"),
);
schema("became-nullable", "Became nullable", WIDENS);
schema("became-not-nullable", "No longer nullable", NARROWS);
schema("became-enum", "Became an enum", NARROWS);
schema("enum-removed", "No longer an enum", WIDENS);
schema("enum-value-added", "Enum value added", WIDENS);
schema("enum-value-removed", "Enum value removed", NARROWS);
schema("const-added", "Const added", NARROWS);
schema("const-removed", "Const removed", WIDENS);
schema("const-changed", "Const changed", both("breaking", "the one allowed value is another"));
schema(
  "extensible-enum-value-added",
  "x-extensible-enum value added",
  both("info", "x-extensible-enum is open: clients must already expect values they do not know"),
);
schema("extensible-enum-value-removed", "x-extensible-enum value removed", {
  request: [
    "warning",
    "the value is no longer listed, but x-extensible-enum is not a validation keyword, so nothing says it is refused",
  ],
  response: ["info", "clients receive fewer of the listed values"],
});
for (const [kw, name] of [
  ["minimum", "Minimum"],
  ["min-length", "minLength"],
  ["min-items", "minItems"],
  ["min-properties", "minProperties"],
] as const) {
  schema(`${kw}-increased`, `${name} increased or set`, NARROWS);
  schema(`${kw}-decreased`, `${name} decreased or removed`, WIDENS);
}
for (const [kw, name] of [
  ["maximum", "Maximum"],
  ["max-length", "maxLength"],
  ["max-items", "maxItems"],
  ["max-properties", "maxProperties"],
] as const) {
  schema(`${kw}-decreased`, `${name} decreased or set`, NARROWS);
  schema(`${kw}-increased`, `${name} increased or removed`, WIDENS);
}
schema("multiple-of-narrowed", "multipleOf set or made stricter", NARROWS);
schema("multiple-of-widened", "multipleOf removed or made looser", WIDENS);
schema(
  "multiple-of-changed",
  "multipleOf changed",
  both("breaking", "old and new multipleOf each allow values the other refuses"),
);
schema("unique-items-added", "uniqueItems set", NARROWS);
schema("unique-items-removed", "uniqueItems removed", WIDENS);
schema("pattern-added", "Pattern added", NARROWS);
schema("pattern-removed", "Pattern removed", WIDENS);
schema(
  "pattern-changed",
  "Pattern changed",
  both("warning", "two regular expressions cannot be compared in general; a person decides"),
);
schema("format-added", "Format added", {
  request: [
    "warning",
    "a value clients sent may not match it; format asserts only where the validator checks it (JSON Schema " +
      "2020-12 §7.2)",
  ],
  response: ["info", "clients receive only values they already accepted"],
});
schema("format-removed", "Format removed", {
  request: ["info", "every value clients sent before is still accepted"],
  response: [
    "warning",
    "clients may receive values of another format; format asserts only where the validator checks it (JSON " +
      "Schema 2020-12 §7.2)",
  ],
});
schema(
  "format-changed",
  "Format changed",
  both("warning", "formats are names, not value sets the gate can compare; a person decides"),
);
schema("property-added-required", "Required property added", {
  request: ["breaking", "clients that do not send it are refused"],
  response: ["info", "clients that do not read it still work"],
});
schema("property-added-optional", "Optional property added", both("info", "clients that ignore it still work"));
add(
  "request-property-removed",
  "request",
  "warning",
  "Property removed",
  "the server no longer reads it: clients that send it are not refused, but what it did for them is gone",
);
add(
  "response-required-property-removed",
  "response",
  "breaking",
  "Required property removed",
  "clients reading it no longer find it",
);
add(
  "response-optional-property-removed",
  "response",
  "warning",
  "Optional property removed",
  "clients already coped with its absence, but it will no longer come at all",
);
schema("property-became-required", "Property became required", {
  request: ["breaking", "clients that omit it are refused"],
  response: ["info", "clients receive it every time; they coped with it before"],
});
schema("property-became-optional", "Property became optional", {
  request: ["info", "clients that send it are still served"],
  response: ["breaking", "clients reading it may no longer find it"],
});
schema("additional-properties-narrowed", "Additional properties restricted", NARROWS);
schema("additional-properties-widened", "Additional properties allowed", WIDENS);
schema("alternative-added", "oneOf/anyOf alternative added", WIDENS);
schema("alternative-removed", "oneOf/anyOf alternative removed", NARROWS);
schema("all-of-added", "allOf member added", NARROWS);
schema("all-of-removed", "allOf member removed", {
  request: [
    "warning",
    "every value sent before is accepted, but properties that member described may no longer be read",
  ],
  response: ["breaking", "clients may receive values that member did not allow"],
});
schema("subschema-added", "Subschema added", NARROWS);
schema("subschema-removed", "Subschema removed", WIDENS);
schema("default-changed", "Default changed", {
  request: ["warning", "what the server assumes when a client omits the value may change"],
  response: ["info", "a default in a response only documents what is usual"],
});
schema(
  "access-changed",
  "readOnly or writeOnly changed",
  both("info", "the property moves between request and response; each side is compared on what it carries"),
);
schema(
  "property-deprecated",
  "Deprecation changed",
  both("info", "it still works; the deprecation only announces a future change"),
);
schema(
  "discriminator-changed",
  "Discriminator changed",
  both("info", "the discriminator only helps pick an alternative; the values allowed are set by the alternatives"),
);
schema(
  "keyword-without-effect",
  "Keyword without effect changed",
  both("info", "JSON Schema applies it only to values of its type, and the schema allows none of that type"),
);
schema(
  "schema-changed",
  "Schema keyword changed",
  both("warning", "the gate has no rule for this keyword; a person decides"),
);

// Documentation.
add(
  "annotation-changed",
  "none",
  "info",
  "Annotation changed",
  "descriptions, summaries, examples, tags and x- extensions do not change what is sent",
  true,
);
add(
  "info-changed",
  "none",
  "info",
  "Document info changed",
  "title, version, contact and license do not change what is sent",
  true,
);

/** Every rule by id. */
export const RULES: ReadonlyMap<string, Rule> = new Map(rules.map((r) => [r.id, r]));

/** The rule with this id; throws for an unknown id (a bug in the comparison). */
export function rule(id: string): Rule {
  const found = RULES.get(id);
  if (!found) throw new Error(`spec-diff: no rule named ${id}`);
  return found;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|");

/**
 * The rule table as docs/spec-diff.md shows it: rules that exist on both sides (`request-X`, `response-X`)
 * in one row with each side's level and reason, the others one row each.
 */
export function ruleTableMarkdown(): string {
  const paired = [...RULES.values()].filter(
    (r) => r.side === "request" && RULES.get(`response-${r.id.slice("request-".length)}`),
  );
  const kinds = new Set(paired.map((r) => r.id.slice("request-".length)));
  const single = [...RULES.values()].filter(
    (r) => !kinds.has(r.id.replace(/^(request|response)-/, "")) || r.side === "none",
  );
  const one = [
    "| rule | side | level | reason |",
    "| --- | --- | --- | --- |",
    ...single.map(
      (r) => `| \`${r.id}\` | ${r.side} | ${r.level}${r.annotation ? " (annotation)" : ""} | ${cell(r.reason)} |`,
    ),
  ];
  const both = ["| rule (`request-` / `response-` …) | in a request | in a response |", "| --- | --- | --- |"];
  for (const kind of kinds) {
    const [q, s] = [rule(`request-${kind}`), rule(`response-${kind}`)];
    both.push(`| \`${kind}\` | **${q.level}**: ${cell(q.reason)} | **${s.level}**: ${cell(s.reason)} |`);
  }
  return `${one.join("\n")}\n\nRules that exist on both sides (mostly schema rules):\n\n${both.join("\n")}\n`;
}
