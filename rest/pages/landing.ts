// /: where a person (or a browser pointed at the service) starts: the ways into the API.
import { html } from './html';
import { page } from './layout';

export function landingPage(origin: string): string {
  return page({
    title: 'Tessera',
    section: 'home',
    body: html`<main class="prose"><h1>Tessera</h1>
<p>Self-hosted event management: a JSON REST API for one workspace's events, and the same work for AI assistants
through an MCP server.</p>
<div class="card"><h3>For developers</h3><p><a href="/developers/start">The first five minutes</a>: a key, a first
call, paging and safe retries. Then <a href="/developers">the API reference</a>,
<a href="/developers/errors">the error codes</a> and <a href="/api/v1/openapi.json">the OpenAPI document</a>.</p>
<p>The API is at <code>${origin}/api/v1</code>.</p></div>
<div class="card"><h3>For assistants</h3><p>Point an MCP client at <code>${origin}/mcp</code> (Streamable HTTP) with an API
key as <code>Authorization: Bearer …</code>.</p></div>
</main>`,
  });
}
