import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseDateTime, parseDuration, WireFormatError } from "../index.js";

describe("parseDuration", () => {
  it.each([
    ["00:00:30", 30_000],
    ["00:00:04.5297660", 4529.766],
    ["00:00:02.5730595", 2573.0595],
    ["1.02:03:04.5", 93_784_500],
    ["12:00:00", 43_200_000],
    ["00:00:00.0000001", 0.0001],
  ])("reads %s as %d ms", (value, ms) => {
    expect(parseDuration(value)).toBeCloseTo(ms, 6);
  });

  it("passes null through", () => {
    expect(parseDuration(null)).toBeNull();
  });

  it.each([
    ["30", /expected \[d\.\]hh:mm:ss/],
    ["24:00:00", /hours above 23/],
    ["00:60:00", /minutes above 59/],
    ["00:00:60", /seconds above 59/],
    ["00:00:01.12345678", /expected/],
    ["-00:00:01", /expected/],
    ["PT30S", /expected/],
  ])("refuses %s naming the rule", (value, rule) => {
    expect(() => parseDuration(value)).toThrow(WireFormatError);
    expect(() => parseDuration(value)).toThrow(rule);
  });

  it("round-trips any duration written in the TimeSpan form", () => {
    fc.assert(
      fc.property(fc.nat(400), fc.nat(23), fc.nat(59), fc.nat(59), fc.nat(9_999_999), (d, h, m, s, ticks) => {
        const pad = (n: number, w = 2) => String(n).padStart(w, "0");
        const text = `${d ? `${d}.` : ""}${pad(h)}:${pad(m)}:${pad(s)}.${pad(ticks, 7)}`;
        const expected = ((d * 24 + h) * 3600 + m * 60 + s) * 1000 + ticks / 10_000;
        return Math.abs(parseDuration(text) - expected) < 1e-6;
      }),
    );
  });
});

describe("parseDateTime", () => {
  it.each([
    ["2024-11-22T16:31:16.6080484+00:00", "2024-11-22T16:31:16.608Z"],
    ["2025-08-22T11:05:43.328175Z", "2025-08-22T11:05:43.328Z"],
    ["2025-08-22T11:05:43Z", "2025-08-22T11:05:43.000Z"],
    ["2025-08-22T13:05:43.5+02:00", "2025-08-22T11:05:43.500Z"],
    ["2025-08-22T00:30:00-01:30", "2025-08-22T02:00:00.000Z"],
    ["0099-01-01T00:00:00Z", "0099-01-01T00:00:00.000Z"],
  ])("reads %s as %s", (value, iso) => {
    expect(parseDateTime(value).toISOString()).toBe(iso);
  });

  it("passes null through", () => {
    expect(parseDateTime(null)).toBeNull();
  });

  it.each([
    ["2024-11-22 16:31:16Z", /RFC 3339/],
    ["2024-11-22T16:31:16", /RFC 3339/],
    ["2024-11-22T16:31:16.12345678Z", /RFC 3339/],
    ["2024-13-01T00:00:00Z", /month outside/],
    ["2023-02-29T00:00:00Z", /day outside 01-28/],
    ["2024-01-01T24:00:00Z", /time outside/],
    ["2024-01-01T00:00:00+24:00", /offset outside/],
  ])("refuses %s naming the rule", (value, rule) => {
    expect(() => parseDateTime(value)).toThrow(rule);
  });

  it("agrees with Date for every millisecond-precision ISO string", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        (d) => {
          return parseDateTime(d.toISOString()).getTime() === d.getTime();
        },
      ),
    );
  });
});
