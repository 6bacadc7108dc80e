// /developers/start: the first five minutes — a key, a first call, paging, a change made safely,
// what a refusal looks like, running the event's other areas, and the same work for an assistant.
import { demoKey } from '../../core/admin';
import { html } from './html';
import { page } from './layout';
import { runTheEvent } from './start-run-event';

export function startPage(origin: string): string {
  const api = `${origin}/api/v1`;
  const curl = 'curl --cacert data/tls/localhost-cert.pem';
  return page({
    title: 'Tessera: the first five minutes',
    section: 'start',
    body: html`<main class="prose">
<h1>The first five minutes</h1>
<p class="muted">Everything below runs against this service at <code>${api}</code>. The whole reference is at
<a href="/developers">/developers</a>.</p>

<h2>1. Get a key</h2>
<p>Read the demonstration workspace at once with its published key (read-only; every write answers
<code>403 demoWorkspace</code>):</p>
<pre><code>${demoKey.key}</code></pre>
<p>For a workspace of your own for your events, where you can make changes, run on the server:</p>
<pre><code>npx tessera workspace create --name "My events"
npx tessera key create --workspace &lt;workspaceId&gt; --name "My key" --preset everything</code></pre>
<p>To try things out first, make another workspace filled with sample data. Its people are made up, so
it sends no e-mail: build real events in a workspace made without <code>--sample</code>.</p>
<pre><code>npx tessera workspace create --name "Try-out" --sample</code></pre>
<p>The key is printed once (only a hash of it is kept). Presets: <code>dashboard</code> (read events, tickets, orders,
check-ins, programme), <code>automation</code>, <code>assistant</code> (every read, personal data included) and
<code>everything</code>; or choose <code>--scopes</code> yourself.</p>

<h2>2. Make the first call</h2>
<p>Send the key as a Bearer token (or in <code>X-Api-Key</code>). With the self-signed certificate a fresh service makes,
tell curl to trust it:</p>
<pre><code>${curl} \\
  -H "Authorization: Bearer ${demoKey.key}" \\
  ${api}/me</code></pre>
<p>The answer names the workspace, the key's scopes, its expiry and its call limit. Every answer carries
<code>RateLimit</code> and <code>RateLimit-Policy</code> headers and an <code>X-Trace-Id</code>.</p>

<h2>3. Read lists page by page</h2>
<pre><code>${curl} -H "Authorization: Bearer $KEY" \\
  "${api}/events?limit=2"</code></pre>
<p>Lists answer <code>{ data, nextCursor, hasMore }</code>, oldest change first. Pass <code>nextCursor</code> back as
<code>cursor</code> (with the same filters) until it is <code>null</code>. To stay in sync, keep the newest
<code>updatedUtc</code> you have seen and ask again with <code>updatedSince</code>: a cursor never skips or repeats a row.</p>

<h2>4. Change something safely</h2>
<p>Writes take JSON. Send an <code>Idempotency-Key</code> on a POST: if the connection breaks, send the same request with
the same key again, and you get the first answer instead of a second event.</p>
<pre><code>${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"name":"Frontend meetup","timeZone":"Europe/Oslo","currency":"NOK",
       "startsLocal":"2027-03-11T18:00","endsLocal":"2027-03-11T21:00",
       "venue":{"name":"Kode Hub","city":"Oslo","country":"NO"}}' \\
  ${api}/events</code></pre>
<p>Then add a ticket type (<code>POST /events/{eventId}/ticket-types</code>), a door
(<code>POST /events/{eventId}/doors</code>), publish it (<code>PUT /events/{eventId}/status</code>) and register people
(<code>POST /events/{eventId}/attendees</code>).</p>

<h2>5. Read a refusal</h2>
<p>Every refusal is a problem: branch on <code>code</code>, show <code>detail</code> to people.</p>
<pre><code>{
  "type": "${origin}/developers/errors#missingScope",
  "title": "Missing scope",
  "status": 403,
  "detail": "This call needs the attendees:write scope, which the key does not have.",
  "instance": "/api/v1/events/…/attendees",
  "code": "missingScope",
  "scope": "attendees:write",
  "traceId": "4bf92f3577b34da6a3ce929d0e0e4736",
  "error": "This call needs the attendees:write scope, which the key does not have."
}</code></pre>
<p>A wrong or missing field answers <code>400 invalidRequest</code> (or <code>invalidBody</code> for a wrong type) with
every field problem at once in <code>errors</code>. A field or query parameter the operation does not take is refused too,
never silently dropped, with the one you probably meant:
<code>{ "field": "capcity", "message": "Not a field; did you mean capacity?" }</code>.</p>
<p>Every code is explained in <a href="/developers/errors">the error catalogue</a>.</p>

${runTheEvent(api, curl)}

<h2>Assistants</h2>
<p>The same operations are tools of the MCP server at <code>${origin}/mcp</code> (Streamable HTTP). Give the assistant's
MCP client the URL and the key as <code>Authorization: Bearer …</code>; it shares the key's call limit with REST.</p>
</main>`,
  });
}
