/**
 * Parsers for the service's wire formats: .NET TimeSpan durations (`[d.]hh:mm:ss[.fffffff]`) and RFC 3339
 * date-times with 0 to 7 fraction digits (which `Date.parse` does not promise to accept).
 */

/** A wire value that does not follow its format; the message names the rule. */
export class WireFormatError extends Error {
  override name = "WireFormatError";
  constructor(
    readonly value: string,
    readonly rule: string,
  ) {
    super(`${JSON.stringify(value.slice(0, 60))} ${rule}`);
  }
}

const DURATION = /^(?:(\d+)\.)?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function fractionMs(digits: string | undefined): number {
  // Seven digits are 100 ns ticks: "5297660" is 529.766 ms.
  return digits ? Number(digits.padEnd(7, "0")) / 10_000 : 0;
}

/** Parses a `[d.]hh:mm:ss[.fffffff]` duration to milliseconds (sub-millisecond ticks kept as a fraction). */
export function parseDuration(value: string): number;
/** Parses a duration, passing `null` through (many duration members are nullable). */
export function parseDuration(value: string | null): number | null;
export function parseDuration(value: string | null): number | null {
  if (value === null) return null;
  if (typeof value !== "string") throw new TypeError("parseDuration: value must be a string or null");
  const m = DURATION.exec(value);
  if (!m)
    throw new WireFormatError(value, "is not a duration: expected [d.]hh:mm:ss[.fffffff] (e.g. 00:00:04.5297660)");
  const [, days, hh, mm, ss, frac] = m;
  if (Number(hh) > 23) throw new WireFormatError(value, "has hours above 23: use the d. day prefix");
  if (Number(mm) > 59) throw new WireFormatError(value, "has minutes above 59");
  if (Number(ss) > 59) throw new WireFormatError(value, "has seconds above 59");
  const seconds = Number(days ?? 0) * 86_400 + Number(hh) * 3_600 + Number(mm) * 60 + Number(ss);
  return seconds * 1000 + fractionMs(frac);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses an RFC 3339 date-time (`Z` or `±hh:mm`, 0-7 fraction digits) to a `Date` (ms precision). */
export function parseDateTime(value: string): Date;
/** Parses a date-time, passing `null` through (e.g. `completed_at` of a running request). */
export function parseDateTime(value: string | null): Date | null;
export function parseDateTime(value: string | null): Date | null {
  if (value === null) return null;
  if (typeof value !== "string") throw new TypeError("parseDateTime: value must be a string or null");
  const m = DATE_TIME.exec(value);
  if (!m)
    throw new WireFormatError(value, "is not an RFC 3339 date-time: expected YYYY-MM-DDThh:mm:ss[.f{1,7}](Z|±hh:mm)");
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12) throw new WireFormatError(value, "has a month outside 01-12");
  if (d < 1 || d > daysInMonth(y, mo))
    throw new WireFormatError(value, `has a day outside 01-${daysInMonth(y, mo)} for that month`);
  if (h > 23 || mi > 59 || s > 59) throw new WireFormatError(value, "has a time outside 00:00:00-23:59:59");
  let offsetMin = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) throw new WireFormatError(value, "has an offset outside ±23:59");
    offsetMin = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const local = new Date(0);
  local.setUTCFullYear(y, mo - 1, d); // not Date.UTC: it maps years 0-99 to 1900-1999
  local.setUTCHours(h, mi, s, 0);
  return new Date(local.getTime() - offsetMin * 60_000 + Math.floor(fractionMs(m[7])));
}
