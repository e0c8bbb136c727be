/** What an HTTP header value may hold (the client's options and the contract suite's settings check keys so). */

/**
 * Why `value` cannot be sent as an HTTP header value (a control character, a character outside Latin-1,
 * surrounding spaces), naming the position but never the value; undefined when it can.
 */
export function headerValueProblem(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f)
      return `must not contain control characters (found one at position ${i}): it could not be sent as a header`;
    if (c > 0xff)
      return (
        `must contain only Latin-1 characters (found one above U+00FF at ` +
        `position ${i}): it could not be sent as a header`
      );
  }
  return value.trim() === value ? undefined : "must not start or end with spaces";
}
