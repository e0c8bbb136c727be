/**
 * Secret header values hidden by name, and URLs made safe, for the client's messages and logs (the key itself is
 * scrubbed by wire/redact.ts).
 */
import { REDACTED, type Scrubber } from "../wire/redact.js";

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** True for header names whose values are secrets (`X-API-Key`, `Authorization`, cookies). */
function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Copies headers to a plain record: secret values hidden by name, the secret scrubbed from the others. */
export function redactHeaders(
  headers: Headers | Record<string, string> | undefined,
  scrubber?: Scrubber,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries)
    out[name] = isSecretHeader(name) ? REDACTED : scrubber ? scrubber.text(value) : value;
  return out;
}

/** Renders headers one per line (`X-API-Key: ***`), for debug logs. */
export function formatHeaders(headers: Headers | Record<string, string> | undefined): string {
  return Object.entries(redactHeaders(headers))
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/** A URL for messages: never user info or a fragment (the query is kept: it holds no secret). */
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
