/** Renders a sent request as a curl command that reproduces it (headers are already redacted). */
import type { SentRequest } from "./types.js";
import { shellQuote } from "./redact.js";

/** A one-line curl command for `request`. */
export function toCurl(request: SentRequest): string {
  const parts = ["curl", "-X", request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) parts.push("-H", shellQuote(`${name}: ${value}`));
  if (request.bodyText !== undefined) parts.push("-d", shellQuote(request.bodyText));
  return parts.join(" ");
}
