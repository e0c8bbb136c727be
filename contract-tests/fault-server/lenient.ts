/**
 * Lenient, conforming variants of the fault server: each keeps every promise of the document and the interface,
 * and takes one freedom they leave. The suite must pass each with no error finding (self-tests/conforming-servers.test.ts).
 * `lenient` alone takes every freedom at once.
 */

/** Variant name -> the freedom it takes, and where the document or the interface leaves it. */
export const LENIENT = {
  "lenient-keeps-fields":
    "an update without fields keeps the stored fields and returns them (interface " +
    "4.2: whether omitted fields are kept or cleared is not shown)",
  "lenient-ignores-ill-typed":
    "an optional body member of the wrong JSON type is ignored, as if not sent (no error response " +
    "is documented for the schema update; the sitemap documents 200, 408 and 503 only)",
  "lenient-empty-filters":
    "an empty ids= or status= reads as no filter (an empty value cannot be told apart from a parameter left out)",
  "lenient-text-plain":
    "a JSON body sent as text/plain is read as JSON (neither body operation documents a 415 or 400)",
  "lenient-formats":
    "a value outside a format (a url that is not a URI, a max_cache_age beyond int32) " +
    "is accepted (a format names a value, it does not promise a refusal)",
  "lenient-extra-output":
    "undocumented response headers and members, at the top and inside " +
    "records (the schemas do not forbid other members)",
  "lenient-null-counts":
    "a sitemap answer with link_count null beside its links (link_count is " +
    "nullable in the interface: null is not given, not a claim)",
  "lenient-date-times":
    "date-times with other offsets and fraction lengths (+02:00, -05:30, none to 7 " +
    "digits), all valid RFC 3339 in the document's DateTime pattern",
  "lenient-compressed":
    "a body compressed with gzip when the request accepts it (Accept-Encoding), correctly encoded (RFC 9110 8.4.1.3)",
} as const;

/** A lenient variant's name. */
export type Lenient = keyof typeof LENIENT;

/** True when the variant `faults` takes the freedom `name` (itself, or `lenient`: all of them). */
export function takes(faults: ReadonlySet<string>, name: Lenient): boolean {
  return faults.has(name) || faults.has("lenient");
}

/** Response headers the document does not name. */
export const EXTRA_HEADERS: Readonly<Record<string, string>> = {
  "x-request-id": "req_lenient_0001",
  "x-ratelimit-remaining": "99",
  "server-timing": "app;dur=3",
};

/** `value` with an undocumented member added to every object, at any depth (bounded). */
export function withExtraMembers<T>(value: T, depth = 0): T {
  if (depth > 50) return value;
  if (Array.isArray(value)) return value.map((v) => withExtraMembers(v, depth + 1)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out = Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withExtraMembers(v, depth + 1)]),
  );
  return { ...out, served_by: "lenient-node-7" } as T;
}

const OFFSETS = ["+02:00", "-05:30", "+00:00", "Z"];
const FRACTIONS = ["", ".5", ".1234567", ".328"];

/** `iso` (a `...Z` date-time) written with another offset and fraction length, the same instant to the second. */
function otherDateTime(iso: string, n: number): string {
  const offset = OFFSETS[n % OFFSETS.length]!;
  const fraction = FRACTIONS[n % FRACTIONS.length]!;
  const d = new Date(iso);
  const minutes =
    offset === "Z"
      ? 0
      : (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(d.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  return `${local}${fraction}${offset}`;
}

/**
 * Every string member named like a date-time (`*_at`, `timestamp`) rewritten by {@link otherDateTime}, at any depth.
 */
export function withOtherDateTimes<T>(value: T, n = 0): T {
  if (Array.isArray(value)) return value.map((v, i) => withOtherDateTimes(v, n + i)) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v], i) => [
      k,
      typeof v === "string" && (/_at$/.test(k) || k === "timestamp") && !Number.isNaN(Date.parse(v))
        ? otherDateTime(v, n + i)
        : withOtherDateTimes(v, n + i),
    ]),
  ) as T;
}
