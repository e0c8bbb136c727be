/**
 * The pure parts of the docs site (`npm run docs`): the landing page, the changelog page, and the one
 * post-processing step applied to every Redoc page. No file or process access here, so each piece is
 * unit-tested without a build.
 */
import { Marked, type Tokens } from "marked";

/** One page of a released version, as listed on the landing page. */
export interface VersionEntry {
  version: string;
  /** Directory of the version's page, relative to the site root (`v1.0.0`). */
  dir: string;
  /** Where the document came from: a commit (full sha), or the working tree when no commit has it. */
  source: { kind: "commit"; sha: string; date: string } | { kind: "working-tree" };
}

/** What the landing page shows. */
export interface LandingPage {
  title: string;
  version: string;
  summary?: string;
  /** Directory of the current document's Redoc page, relative to the site root. */
  referenceDir: string;
  /** Newest version first. */
  versions: VersionEntry[];
  /** Relative link of the changelog page, or undefined when CHANGELOG.md did not exist at build time. */
  changelogHref?: string;
  /** Ids of the changelog's version headings (`v1.0.0`), for links from the version list. */
  changelogAnchors?: ReadonlySet<string>;
}

/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Shared stylesheet of the static pages: inline, system fonts, no external resource. */
const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #fff; --line: #d1d9e0; --link: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --link: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 2.5rem 1.25rem 4rem; }
h1 { font-size: 1.9rem; margin: 0 0 .25rem; line-height: 1.2; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
a { color: var(--link); }
.muted, footer { color: var(--muted); }
.version { font-size: 1.05rem; margin: 0 0 1rem; }
ul { padding-left: 1.25rem; }
li { margin: .3rem 0; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { overflow-x: auto; padding: .75rem; border: 1px solid var(--line); border-radius: 6px; }
.tag { font-size: .8rem; border: 1px solid var(--line); border-radius: 1rem; padding: 0 .5rem; margin-left: .35rem; color: var(--muted); }
footer { margin-top: 3rem; font-size: .85rem; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The landing page (`index.html`): plain HTML and CSS, no script, no external resource. */
export function landingPage(p: LandingPage): string {
  const e = escapeHtml;
  const versionItems = p.versions
    .map((v) => {
      const from =
        v.source.kind === "commit"
          ? `<span class="muted">${e(v.source.date.slice(0, 10))}, commit <code>${e(v.source.sha.slice(0, 12))}</code></span>`
          : `<span class="muted">working tree (not committed yet)</span>`;
      const current = v.version === p.version ? `<span class="tag">current</span>` : "";
      const notes =
        p.changelogHref && p.changelogAnchors?.has(`v${v.version}`)
          ? ` · <a href="${e(`${p.changelogHref}#v${v.version}`)}">changes</a>`
          : "";
      return (
        `<li><a href="${e(`${v.dir}/index.html`)}">${e(v.version)}</a>${current} · <a ` +
        `href="${e(`${v.dir}/openapi.yaml`)}">openapi.yaml</a>${notes} ` +
        `· ${from}</li>`
      );
    })
    .join("\n");
  const changelog = p.changelogHref
    ? `<li><a href="${e(p.changelogHref)}">Changelog</a></li>`
    : `<li class="muted">No changelog: <code>CHANGELOG.md</code> did not exist when this site was built.</li>`;
  return page(
    `${p.title} ${p.version}`,
    `<h1>${e(p.title)}</h1>
<p class="version">Version <strong>${e(p.version)}</strong> (current document)</p>
${p.summary ? `<p>${e(p.summary)}</p>` : ""}
<h2>Documentation</h2>
<ul>
<li><a href="${e(`${p.referenceDir}/index.html`)}">API reference</a> of the current document</li>
${changelog}
</ul>
<h2>Download the document</h2>
<ul>
<li><a href="openapi.yaml" download>openapi.yaml</a> (the source, OpenAPI 3.1)</li>
<li><a href="openapi.json" download>openapi.json</a> (the same document as JSON)</li>
</ul>
<h2>Released versions</h2>
<ul>
${versionItems}
</ul>
<p class="muted">A released version is a distinct <code>info.version</code> of <code>openapi/openapi.yaml</code> in the git history; its page shows the newest commit that has it.</p>
<footer>Built by <code>npm run docs</code>. Every page of this site works offline.</footer>`,
  );
}

const VERSION_HEADING = /^\[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)\]?(?:\s|$)/;
const SAFE_HREF = /^(?:https?:|mailto:|#|[^:]*$)/i;

/**
 * Renders CHANGELOG.md to HTML with marked, made safe for an offline page: raw HTML is shown as text,
 * an image that is not a relative file becomes a plain link (so nothing is fetched), links with another
 * scheme than http(s)/mailto become text, and a heading that starts with a version (`## [1.0.0] - date`)
 * gets the id `v1.0.0`. Returns the HTML and the ids it gave.
 */
export function renderChangelog(markdown: string): { html: string; anchors: Set<string> } {
  const anchors = new Set<string>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(text);
      },
      heading({ tokens, depth }: Tokens.Heading): string {
        const inner = this.parser.parseInline(tokens);
        const plain = this.parser.parseInline(tokens, this.parser.textRenderer);
        const m = VERSION_HEADING.exec(plain.trim());
        let id = "";
        if (m && !anchors.has(`v${m[1]}`)) {
          anchors.add(`v${m[1]}`);
          id = ` id="${escapeHtml(`v${m[1]}`)}"`;
        }
        return `<h${depth}${id}>${inner}</h${depth}>\n`;
      },
      image({ href, title, text }: Tokens.Image): string {
        if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) {
          return SAFE_HREF.test(href)
            ? `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`
            : escapeHtml(text);
        }
        return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ""}>`;
      },
      link({ href, title, tokens }: Tokens.Link): string {
        const inner = this.parser.parseInline(tokens);
        if (!SAFE_HREF.test(href)) return inner;
        return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ""}>${inner}</a>`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { html, anchors };
}

/** The changelog page (`changelog.html`) from CHANGELOG.md. */
export function changelogPage(title: string, markdown: string): { html: string; anchors: Set<string> } {
  const { html, anchors } = renderChangelog(markdown);
  return {
    html: page(
      `${title}: changelog`,
      `<p><a href="index.html">← ${escapeHtml(title)}</a></p>\n${html}\n<footer>Rendered from ` +
        `<code>CHANGELOG.md</code> by <code>npm run docs</code>.</footer>`,
    ),
    anchors,
  };
}

/**
 * The footer of every Redoc page ("API docs by" + Redocly logo) loads its image from Redocly's CDN, and
 * no Redoc or CLI option turns that off. These are the exact URLs in Redoc's inlined bundle.
 */
export const REDOC_LOGO_URLS = [
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg",
  "https://cdn.redoc.ly/redoc/logo-mini.svg",
] as const;

/** The stand-in image: the word "Redocly" as an inline SVG (a `data:` URL, so nothing is fetched). */
export const LOCAL_LOGO =
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12.5" ` +
      `font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#ef4523">Redocly</text></svg>`,
  );

/**
 * Makes one page written by `redocly build-docs --inlineBundle` private and offline, or throws when the
 * page is not what this step expects (so a Redoc upgrade that moves things fails the build, not the
 * privacy):
 * - each footer logo URL (REDOC_LOGO_URLS) must occur exactly once, and is replaced by LOCAL_LOGO;
 * - the page's Redoc options must say `"disableTelemetry":true` (the CLI writes that when its own
 *   telemetry is off: REDOCLY_TELEMETRY=off or `telemetry: off` in redocly.yaml);
 * - Redoc must be inlined (no `import ... from "https://..."` of the bundle).
 */
export function makeRedocPageOffline(html: string): string {
  let out = html;
  for (const url of REDOC_LOGO_URLS) {
    const count = out.split(url).length - 1;
    if (count !== 1) {
      throw new Error(
        `Redoc page: expected the footer logo URL ${url} exactly once in the inlined bundle, found ${count}. ` +
          `Redoc changed; update REDOC_LOGO_URLS in scripts/docs/pages.ts so the page fetches nothing.`,
      );
    }
    out = out.replace(url, () => LOCAL_LOGO);
  }
  const options = /const __redoc_options = (\{.*?\});/.exec(out)?.[1];
  if (!options)
    throw new Error("Redoc page: no `const __redoc_options = {...};` found; cannot check that telemetry is off.");
  if (!/"disableTelemetry":true/.test(options)) {
    throw new Error(
      `Redoc page: telemetry is not disabled in the page's options (${options}); build with REDOCLY_TELEMETRY=off.`,
    );
  }
  if (/\bfrom\s*["']https?:\/\//.test(out) || /<link[^>]+modulepreload[^>]+https?:/.test(out)) {
    throw new Error("Redoc page: Redoc is loaded from a CDN; build with --inlineBundle.");
  }
  return out;
}
