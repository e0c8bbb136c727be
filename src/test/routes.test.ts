/** Parameter checks from the document's constraints, before anything is sent: each rule named in the error. */
import { describe, expect, it } from "vitest";
import { ArgumentError } from "../errors.js";
import { checkValue, type Constraints } from "../routes.js";

const refused = (value: unknown, c: Constraints) => {
  try {
    checkValue("p", value, c);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ArgumentError);
    return (err as ArgumentError).rule;
  }
};

describe("checkValue", () => {
  it("applies inclusive and exclusive bounds (a 3.0 boolean bound arrives as the 3.1 number)", () => {
    expect(refused(0, { type: "integer", exclusiveMinimum: 0 })).toBe("must be greater than 0, got 0");
    expect(refused(1, { type: "integer", exclusiveMinimum: 0 })).toBeUndefined();
    expect(refused(10, { type: "integer", exclusiveMaximum: 10 })).toBe("must be less than 10, got 10");
    expect(refused(9.5, { type: "number", exclusiveMaximum: 10 })).toBeUndefined();
    expect(refused(11, { type: "integer", maximum: 10 })).toBe("must be at most 10, got 11");
    expect(refused(10, { type: "integer", maximum: 10 })).toBeUndefined();
  });

  it("names the array item that breaks a rule", () => {
    expect(() =>
      checkValue("ids", ["brq_1", "x"], { type: "array", items: { type: "string", pattern: "^brq_" } }),
    ).toThrow("ids[1]: must match ^brq_");
  });
});
