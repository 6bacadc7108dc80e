// The readable developer pages: /developers (reference from the route table) and
// /developers/errors (every problem code with an anchor of its own).
import { problemCatalogue } from '../core/platform/problems';
import { apiBase, openApiPath } from './route-table';
import { routes } from './routes';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .25rem;border-radius:3px}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}:target{background:#fff6d5}</style>
</head><body>${body}</body></html>`;
}

export function referencePage(): string {
  const rows = routes
    .map(
      (
        r,
      ) => `<tr id="${r.operation.name}"><td><code>${r.method}</code></td><td><code>${apiBase}${escapeHtml(openApiPath(r.path))}</code></td>
<td><code>${escapeHtml(r.operation.scope)}</code></td><td><strong>${escapeHtml(r.operation.title)}</strong><br>${escapeHtml(r.operation.description)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Tessera API reference',
    `<h1>Tessera API reference</h1>
<p>Base address <code>${apiBase}</code>. Send the API key as <code>Authorization: Bearer abk_…</code> (or <code>X-Api-Key</code>).
The machine-readable description is <a href="${apiBase}/openapi.json">openapi.json</a> (OpenAPI 3.1).
Refusals are <code>application/problem+json</code>: see the <a href="/developers/errors">error codes</a>.
Assistants reach the same operations as MCP tools at <code>/mcp</code> (Streamable HTTP).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Scope</th><th>What it does</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

export function errorsPage(): string {
  const rows = Object.entries(problemCatalogue)
    .map(
      ([code, e]) =>
        `<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${e.status}</td><td>${escapeHtml(e.title)}</td><td>${escapeHtml(e.detail)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Tessera error codes',
    `<h1>Error codes</h1><p>Every refusal carries <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>,
<code>instance</code>, <code>code</code>, <code>traceId</code> and <code>error</code> (a copy of detail). Branch on <code>code</code>; show <code>detail</code> to people.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>When</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}
