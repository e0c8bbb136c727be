/** Keeps the API key out of every report, curl command, log line and error message. */

/** The placeholder printed instead of a secret. */
export const REDACTED = "***";

/** Replaces every occurrence of `secret` in `text` with `***` (no-op for an empty secret). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join(REDACTED);
}

/** Quotes a string for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
