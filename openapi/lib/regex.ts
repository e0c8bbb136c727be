/**
 * The regular expressions of a document (`pattern`, `patternProperties`) run in linear time: with re2js (a
 * pure JavaScript port of RE2), never with the backtracking RegExp, so a catastrophic pattern such as
 * `^(a+)+$` or `^(.*)(.*)…#$` cannot hang ajv's validation or the negative generator (the work is
 * synchronous: no timeout could stop it). A pattern RE2 cannot run (lookaround, backreferences, a repeat
 * count over 1000) is not checked at all: it is reported once, and matches everything, since a miss costs
 * less than a hang or a false alarm.
 */
import { RE2JS } from "re2js";

/** What ajv and the generator need of a regular expression. */
export interface LinearRegExp {
  test(text: string): boolean;
  /** ajv keys its compiled patterns by this text: one per pattern. */
  toString(): string;
  /** Why the pattern is not checked (RE2 cannot run it); undefined when it is. */
  unchecked?: string;
}

const compiled = new Map<string, LinearRegExp>();
/** Patterns RE2 could not compile, with why (each reported once per process). */
const uncheckedPatterns = new Map<string, string>();

/** Reports a pattern that is not checked (once per pattern); replaceable by a caller that collects them. */
let onUncheckedPattern = (pattern: string, reason: string): void => {
  process.emitWarning(`the pattern ${JSON.stringify(pattern).slice(0, 200)} is not checked: ${reason}`, {
    code: "WEBAUTO_UNCHECKED_PATTERN",
  });
};

/** Replaces the report of unchecked patterns (tests and callers that list them elsewhere). */
export function setUncheckedPatternHandler(handler: (pattern: string, reason: string) => void): void {
  onUncheckedPattern = handler;
}

/** A linear-time matcher of an ECMA-262 `pattern` (searched anywhere in the text, as JSON Schema says). */
export function linearRegExp(pattern: string, flags = ""): LinearRegExp {
  const key = `${flags}/${pattern}`;
  let re = compiled.get(key);
  if (re) return re;
  try {
    const program = RE2JS.compile(RE2JS.translateRegExp(pattern), flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0);
    re = { test: (text: string) => program.matcher(text).find(), toString: () => `/${pattern}/${flags}` };
  } catch (err) {
    const reason = `RE2 cannot run it in linear time (${(err instanceof Error ? err.message : String(err)).slice(0, 120)})`;
    re = { test: () => true, unchecked: reason, toString: () => `/${pattern}/${flags} (unchecked)` };
    if (!uncheckedPatterns.has(pattern)) {
      uncheckedPatterns.set(pattern, reason);
      onUncheckedPattern(pattern, reason);
    }
  }
  compiled.set(key, re);
  return re;
}

/** ajv's `code.regExp` engine: every `pattern` and `patternProperties` of a compiled schema runs on RE2. */
export const ajvRegExp = Object.assign((pattern: string, flags: string) => linearRegExp(pattern, flags), {
  code: "linearRegExp",
});
