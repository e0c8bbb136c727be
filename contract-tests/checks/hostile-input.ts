/**
 * hostile_input: a hostile string (a quote, SQL, a template marker, a control character) that a write carried in a
 * body member reads back exactly as written, in the write's own answer and in a read of the resource. A 5xx and a
 * body that does not parse are other checks' (not_a_server_error, content_type_conformance), never this one's.
 */
import { resolvePointer } from "../../openapi/lib/document-error.js";
import { isMapping, toPointer } from "../../openapi/lib/spec.js";
import { bounded, finding, isEnveloped, isSuccess, payload, responseBodySchema, show } from "../model/exchange.js";
import type { SpecModel } from "../model/model.js";
import type { Check, CheckContext, Exchange, Leniency } from "../model/types.js";

/** How deep the response schema is walked (through allOf/anyOf/oneOf, properties and items) to find the member. */
const MAX_DEPTH = 12;

/** The unescaped readings a store may have made of a string: backslashes, HTML entities, doubled SQL quotes. */
const UNESCAPES: ReadonlyArray<(s: string) => string> = [
  (s) => s.replace(/\\(['"\\])/g, "$1"),
  (s) =>
    s
      .replace(/&#0*39;|&#x0*27;|&apos;/gi, "'")
      .replace(/&quot;|&#0*34;|&#x0*22;/gi, '"')
      .replace(/&lt;/gi, "<")
      .replace(/&gt;/gi, ">")
      .replace(/&amp;/gi, "&"),
  (s) => s.replace(/''/g, "'"),
];

/** True when `short` is what is left of `long` with some characters taken out. */
function isSubsequence(short: string, long: string): boolean {
  const a = [...short];
  let i = 0;
  for (const c of long) if (i < a.length && c === a[i]) i++;
  return i === a.length;
}

/**
 * How a string read back differs from the one written, in a few words (the finding's title), or undefined for a
 * value of another type (response_schema_conformance's, where the schema says string).
 */
function howChanged(sent: string, read: unknown): string | undefined {
  if (read === null) return "dropped to null";
  if (typeof read !== "string") return undefined;
  if (read === "") return "emptied";
  if (read.length < sent.length && sent.startsWith(read)) return "truncated";
  if (/7\s*\*\s*7/.test(sent) && read.includes("49") && !sent.includes("49")) return "evaluated";
  if (UNESCAPES.some((f) => f(read) === sent)) return "re-escaped";
  if (Buffer.from(sent, "utf8").toString("latin1") === read) return "mis-decoded (its UTF-8 read as Latin-1)";
  if (["?", "\uFFFD"].some((c) => sent.replace(/[^\u0000-\u007f]/gu, c) === read))
    return "with its text outside ASCII replaced";
  if (read.length < sent.length && isSubsequence(read, sent)) return "stripped of characters";
  return "changed";
}

/** The pointer of `member`'s schema in the object the schema at `pointer` describes at `segments`, if declared. */
function memberSchema(
  model: SpecModel,
  pointer: string,
  segments: readonly string[],
  member: string,
  depth = 0,
): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { schema, pointer: at } = model.deref({ $ref: `#${pointer}` }, pointer);
  if (!isMapping(schema)) return undefined;
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const branches = schema[k];
    if (!Array.isArray(branches)) continue;
    for (let i = 0; i < branches.length; i++) {
      const found = memberSchema(model, `${at}/${k}/${i}`, segments, member, depth + 1);
      if (found) return found;
    }
  }
  const properties = isMapping(schema.properties) ? schema.properties : {};
  const [first, ...rest] = segments;
  if (first === undefined)
    return Object.hasOwn(properties, member) ? `${at}/properties${toPointer([member])}` : undefined;
  if (/^\d+$/.test(first) && isMapping(schema.items))
    return memberSchema(model, `${at}/items`, rest, member, depth + 1);
  return Object.hasOwn(properties, first)
    ? memberSchema(model, `${at}/properties${toPointer([first])}`, rest, member, depth + 1)
    : undefined;
}

/** What an answer shows of the member: its value, and the pointer of its schema in the response (if declared). */
interface Shown {
  value: unknown;
  /** Undefined: the response schema does not declare the member (nothing promises it back). */
  schema: string | undefined;
  /** Where the answer shows it (an instance path). */
  at: string;
}

/**
 * The member as the answer shows it, in the resource's object (`hostile.object`, else the body itself; inside a
 * `{"data": ...}` envelope the document does not show, its payload); undefined when the answer does not show it.
 */
export function shownMember(
  model: SpecModel,
  ex: Exchange,
  hostile: Pick<NonNullable<CheckContext["hostile"]>, "member" | "object">,
): Shown | undefined {
  const body = responseBodySchema(model, ex);
  if (!body || body.asText) return undefined;
  const enveloped = isEnveloped(model, ex);
  const root = enveloped ? payload(model, ex) : ex.response.json;
  const pointer = enveloped ? hostile.object.replace(/^\/data(?=\/|$)/, "") : hostile.object;
  const at = resolvePointer(root, pointer);
  // The object where the pointer names one, else the body itself (a read without the create's wrapping object).
  const found = isMapping(at) ? pointer : "";
  const object = isMapping(at) ? at : isMapping(root) ? root : undefined;
  if (!object || !Object.hasOwn(object, hostile.member)) return undefined;
  const segments = found
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  return {
    value: object[hostile.member],
    schema: memberSchema(model, body.pointer, segments, hostile.member),
    at: `${enveloped ? "/data" : ""}${found}${toPointer([hostile.member])}`,
  };
}

/**
 * After a 2xx answer to a write that carried a hostile string in a body member (and to the read after it), the
 * member, where the response schema declares it and the answer shows it, is exactly the string written: evaluated,
 * truncated, re-escaped or dropped to null is an error whose promise is the request schema that let it through. A
 * write that carried strings in several members (`others`) has each judged alike, one finding per member.
 */
export const hostileInput: Check = (ex, ctx) => {
  const { intent, hostile } = ctx;
  if (!hostile || (intent !== "conforming" && intent !== "acceptance") || !isSuccess(ex)) return [];
  const { others = [], ...first } = hostile;
  return [
    first,
    ...others.map((o) => ({ ...o, object: hostile.object, ...(hostile.read ? { read: true } : {}) })),
  ].flatMap((h) => memberFinding(ex, ctx, h));
};

/** The finding of one member's string, if it reads back otherwise than written. */
function memberFinding(
  ex: Exchange,
  { model, inDoubt }: CheckContext,
  hostile: Omit<NonNullable<CheckContext["hostile"]>, "others">,
) {
  const shown = shownMember(model, ex, hostile);
  if (!shown?.schema || shown.value === hostile.sent) return [];
  // The value the resource held before an update: the write did not take (update_persisted's), nothing was mangled.
  if (Object.hasOwn(hostile, "before") && JSON.stringify(shown.value) === JSON.stringify(hostile.before)) return [];
  const how = howChanged(hostile.sent, shown.value);
  if (!how) return [];
  const where = hostile.read ? "the read of the resource" : "the write's own answer";
  const kind = hostile.what ? ` (${hostile.what})` : "";
  const [unheld] = model.validator.validate(shown.schema, hostile.sent);
  const lenient: Leniency | undefined = inDoubt
    ? { because: "in-doubt", why: inDoubt }
    : unheld
      ? {
          because: "in-doubt",
          why:
            `the response schema (#${shown.schema}) does not let the string through (${unheld.keyword}), ` +
            "so the document does not promise it back as written",
        }
      : undefined;
  return [
    finding(ex, {
      severity: "error",
      title: `A hostile string${kind} written to body member ${hostile.member} reads back ${how}`,
      received: `${where}: written ${show(hostile.sent, 120)}, read ${show(shown.value, 120)}`,
      documented:
        `the member as written: the request schema lets this string through, so the server takes it as data ` +
        `and gives it back exactly`,
      instancePath: shown.at,
      value: bounded(shown.value),
      promise: `#${hostile.pointer}`,
      ...(lenient ? { lenient } : {}),
    }),
  ];
}
