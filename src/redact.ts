/**
 * Redaction of secrets in anything the client prints: header dumps, error details, log lines.
 * The key itself is never passed here; names decide what is hidden.
 */

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** True for header names whose values are secrets (`X-API-Key`, `Authorization`, cookies). */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Copies headers to a plain record with secret values replaced by `***`. */
export function redactHeaders(headers: Headers | Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries = typeof (headers as Headers).forEach === "function" && headers instanceof Headers
    ? [...headers.entries()]
    : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) out[name] = isSecretHeader(name) ? "***" : value;
  return out;
}

/** Renders headers one per line (`X-API-Key: ***`), for debug logs. */
export function formatHeaders(headers: Headers | Record<string, string> | undefined): string {
  return Object.entries(redactHeaders(headers))
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/** A URL for messages: origin and path only, never user info (the query is kept: it holds no secret). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.hash = "";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
