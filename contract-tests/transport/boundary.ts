/**
 * The request boundary: the one check every URL the suite sends passes (target.ts's send, the preflight),
 * whatever fed it: the document's path, the settings, a link's value from a response, an example. The key
 * goes with most requests, so a request must stay on the target: the URL is built as base URL + path
 * (a path written without its leading `/` is joined with one, never glued to the port or host), and it must
 *  - have no dot segment (`.`, `..`, in any spelling: `%2e`, `%2E%2e`, with `/` or `\`), from a path
 *    template or a value, since a server and fetch resolve them to another path;
 *  - keep the target's origin (scheme, host, port) and stay under the base URL's path.
 * Anything else is refused, never sent: the scenario is skipped with a reason naming the operation, the
 * path and what would have left.
 */
/** A request the boundary refused (the target skips the scenario with this reason). */
export class RefusedRequest extends Error {
  override name = "RefusedRequest";
}

/** True for a path segment that resolves as `.` or `..` (percent-encoded dots included). */
function isDotSegment(segment: string): boolean {
  const s = segment.replace(/%2e/gi, ".");
  return s === "." || s === "..";
}

/**
 * The dot segment a path segment or value holds, also once percent-decoded (`..%2F..%2Fadmin` is one
 * segment to a URL parser, but `../../admin` to a server or proxy that decodes before it routes); undefined
 * when none.
 */
export function dotSegmentIn(text: string): string | undefined {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    decoded = text;
  }
  for (const form of [text, decoded])
    for (const segment of form.split(/[/\\]/)) if (isDotSegment(segment)) return segment;
  return undefined;
}

/** The path part of a request path (before `?` or `#`), split as a URL parser splits it (`/` and `\`). */
const segmentsOf = (path: string) => path.split(/[?#]/, 1)[0]!.split(/[/\\]/);

/**
 * The URL to send for `path` (already expanded, values percent-encoded) and `query` (already serialised) on
 * the target at `baseUrl` (no trailing slash). Throws {@link RefusedRequest} naming `what` when the URL would
 * leave the target's origin or base path, or holds a dot segment.
 */
export function requestUrl(baseUrl: string, path: string, query: string, what: string): string {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const joined = path.startsWith("/") ? path : `/${path}`;
  const refuse = (why: string) => {
    throw new RefusedRequest(
      `skipped: refused to send ${what}: ${why}; the suite sends only to ${base.origin}${basePath || "/"} and below`,
    );
  };
  const dot = segmentsOf(joined)
    .map(dotSegmentIn)
    .find((d) => d !== undefined);
  if (dot !== undefined)
    refuse(
      `the path ${JSON.stringify(joined.slice(0, 200))} has the dot segment ${JSON.stringify(dot)} ` +
        `(as written or percent-decoded), which would resolve to another path`,
    );
  const text = `${base.origin}${basePath}${joined}${query ? `${joined.includes("?") ? "&" : "?"}${query}` : ""}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(`the path ${JSON.stringify(joined.slice(0, 200))} does not make a URL`);
  }
  if (url.origin !== base.origin || url.username || url.password)
    refuse(`the path ${JSON.stringify(joined.slice(0, 200))} would send it to ${url.origin}`);
  if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
    refuse(
      `the path ${JSON.stringify(joined.slice(0, 200))} resolves to ${url.pathname}, outside the base path ${basePath}`,
    );
  return text;
}
