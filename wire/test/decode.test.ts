/** Decoding a body: the UTF-8 a body declared so owes, and how deep a JSON text nests. */
import { describe, expect, it } from "vitest";
import { isJsonMedia } from "../../openapi/lib/operations.js";
import { charsetFailure as utf8Failure, decodeUtf8, jsonDepth, parseJson } from "../decode.js";

/** JSON media are UTF-8 unless they say otherwise (the contract suite's reading of media types). */
const charsetFailure = (contentType: string | null, bytes: Uint8Array) => utf8Failure(contentType, bytes, isJsonMedia);

describe("what is declared UTF-8 and is not", () => {
  const bytes = (...parts: Array<string | number[]>) =>
    new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p)))));

  it("passes valid UTF-8 of every length (a BOM, é, U+FFFF, an emoji) and what is declared in another charset", () => {
    const valid = bytes([0xef, 0xbb, 0xbf], '{"a":"é￿😀"}');
    expect(charsetFailure("application/json", valid)).toBeUndefined();
    expect(charsetFailure("text/plain; charset=utf-8", valid)).toBeUndefined();
    expect(charsetFailure("text/plain; charset=iso-8859-1", bytes("caf", [0xe9]))).toBeUndefined();
    expect(charsetFailure("application/json; charset=windows-1252", bytes("caf", [0xe9]))).toBeUndefined();
    expect(charsetFailure("text/html", bytes("caf", [0xe9]))).toBeUndefined();
    expect(charsetFailure(null, bytes("caf", [0xe9]))).toBeUndefined();
  });

  it.each([
    ["a Latin-1 byte", [0xe9, 0x22], 0],
    ["an overlong encoding", [0xc0, 0x80], 0],
    ["a surrogate", [0xed, 0xa0, 0x80], 0],
    ["a code point past U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a sequence cut at the end", [0xe2, 0x82], 0],
    ["a continuation byte alone", [0x80], 0],
  ])("finds %s in JSON (UTF-8 by RFC 8259) and in charset=utf-8, naming the byte and where", (_name, bad, at) => {
    const body = bytes('{"a":"', bad as number[]);
    for (const type of ["application/json", "application/problem+json", "text/plain; charset=UTF-8"]) {
      const found = charsetFailure(type, body);
      expect(found?.kind, type).toBe("charset");
      expect(found?.detail).toContain(`at byte ${6 + (at as number)} of ${body.length}`);
    }
  });
});

describe("jsonDepth", () => {
  it("counts nesting of arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('["[[[{{{", "\\"]]]"]')).toBe(1);
    expect(jsonDepth(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toBe(100_000);
  });
});

describe("parseJson", () => {
  it("parses JSON no deeper than the limit, and leaves text that is not JSON, empty or too deep unparsed", () => {
    expect(parseJson('{"a":[1]}', 2)).toEqual({ json: { a: [1] }, depth: 2 });
    expect(parseJson('{"a":[1]}', 1)).toEqual({ json: undefined, depth: 2 });
    expect(parseJson("not json", 5)).toEqual({ json: undefined, depth: 0 });
    expect(parseJson("", 5)).toEqual({ json: undefined, depth: 0 });
    expect(parseJson('"é"', 0)).toEqual({ json: "é", depth: 0 });
  });

  it("decodes UTF-8, a bad byte as U+FFFD", () => {
    expect(decodeUtf8(new Uint8Array([0x63, 0x61, 0x66, 0xc3, 0xa9, 0xff]))).toBe("café\ufffd");
  });
});
