// The frame of every page the service serves: a header with the ways in (reference, first steps,
// error codes, the OpenAPI document) and a plain, readable style. Element rules apply inside .prose
// only, so a page that hands its body to a renderer (the reference) keeps the renderer's own look.
import { type Html, html, trusted } from './html';

const style = trusted(`
:root{--ink:#1d2330;--muted:#5b6475;--line:#e3e6ec;--accent:#3b5bdb;--soft:#f5f7fb}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink)}
header.top{display:flex;gap:.4rem 1.25rem;align-items:center;padding:.7rem 1.5rem;border-bottom:1px solid var(--line);background:#fff;position:sticky;top:0;z-index:10;flex-wrap:wrap}
header.top .brand{font-weight:700;text-decoration:none;color:var(--ink);margin-right:.5rem}header.top nav{display:flex;gap:.3rem 1rem;flex-wrap:wrap}
header.top nav a{text-decoration:none;color:var(--muted)}header.top nav a[aria-current]{color:var(--ink);font-weight:600}
@media (max-width:600px){header.top{position:static;padding:.6rem 1.25rem}}
.prose a{color:var(--accent)}main.prose{max-width:52rem;margin:2rem auto;padding:0 1.25rem}main.prose h1{font-size:2rem;line-height:1.25;margin:.2em 0 .6em}
main.prose h2{margin-top:2.2rem;border-top:1px solid var(--line);padding-top:1.2rem}
.prose [id],main.prose h2{scroll-margin-top:4.5rem}
.prose code,.prose pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.prose code{background:var(--soft);padding:.1rem .3rem;border-radius:4px;overflow-wrap:break-word}
.prose pre{background:#0f1524;color:#e6e9f0;padding:1rem;border-radius:8px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.prose pre code{background:none;padding:0;color:inherit}
.prose table{border-collapse:collapse;width:100%}.prose td,.prose th{border-bottom:1px solid var(--line);padding:.45rem;text-align:left;vertical-align:top}
.prose :target{background:#fff6d5}.muted{color:var(--muted)}.card{border:1px solid var(--line);border-radius:10px;padding:1rem 1.2rem;margin:1rem 0}
.badge{display:inline-block;font-size:.8rem;padding:.05rem .5rem;border-radius:999px;background:var(--soft);color:var(--muted)}
`);

export type Section = 'reference' | 'start' | 'errors' | 'home' | 'event';

export function page(options: { title: string; section: Section; body: Html; head?: Html }): string {
  const link = (href: string, label: string, section: Section) =>
    html`<a href="${href}"${options.section === section ? trusted(' aria-current="page"') : ''}>${label}</a>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title><link rel="icon" href="data:,"><style>${style}</style>${options.head ?? ''}</head>
<body><header class="top"><a class="brand" href="/">Tessera</a><nav>
${link('/developers', 'API reference', 'reference')}
${link('/developers/start', 'First five minutes', 'start')}
${link('/developers/errors', 'Error codes', 'errors')}
<a href="/api/v1/openapi.json">OpenAPI 3.1</a></nav></header>
${options.body}
</body></html>`.text;
}
