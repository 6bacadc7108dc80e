// /developers/errors: every problem code with an anchor of its own, which each operation of the
// reference links to.
import { problemCatalogue } from '../../core/platform/problems';
import { html } from './html';
import { page } from './layout';

export function errorsPage(): string {
  const rows = Object.entries(problemCatalogue).map(
    ([code, e]) =>
      html`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${e.status}</td><td>${e.title}</td><td>${e.detail}</td></tr>`,
  );
  return page({
    title: 'Tessera error codes',
    section: 'errors',
    body: html`<main class="prose"><h1>Error codes</h1>
<p>Every refusal is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>instance</code>, <code>code</code>, <code>traceId</code> and
<code>error</code> (a copy of detail). Branch on <code>code</code>; show <code>detail</code> to people; quote
<code>traceId</code> to support. Some codes carry more: <code>scope</code>, <code>module</code>, <code>errors</code>,
<code>etag</code>, <code>taken</code>, <code>sessions</code>, <code>ticketTypeId</code>, <code>reason</code>,
<code>retryAfter</code>.</p>
<p>Retry 429 after <code>Retry-After</code> seconds, and 500, 502, 503, 504 a few times with growing waits (with the
same <code>Idempotency-Key</code> for a POST). Fix the request before sending it again for any other status; a 409
<code>idempotencyKeyInUse</code> is the exception: wait, then resend.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>When</th></tr></thead><tbody>${rows}</tbody></table></main>`,
  });
}
