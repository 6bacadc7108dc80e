// The assistant sign-in pages (OAuth, served by Tessera): first the organiser proves access with
// one of the workspace's API keys (or picks the read-only demonstration workspace), then chooses
// which of that key's scopes the assistant gets, never more than the key holds.
import { type Html, html, trusted } from './html';
import { page } from './layout';

export interface SignInView {
  uid: string;
  clientName: string;
  /** What the assistant asks to reach: the MCP server or the REST API. */
  resource: string;
  problem?: string;
}

const box = (body: Html) => html`<main class="prose"><div class="card">${body}</div></main>`;

export function signInPage(view: SignInView): string {
  return page({
    title: 'Tessera: sign in an assistant',
    section: 'home',
    body: box(html`<h1>Sign in ${view.clientName}</h1>
<p><strong>${view.clientName}</strong> asks to reach <code>${view.resource}</code> for you.</p>
${view.problem ? html`<p role="alert"><strong>${view.problem}</strong></p>` : ''}
<form method="post" action="/oauth/sign-in/${view.uid}/key">
<p><label for="key">An API key of your workspace (it is not given to the assistant; it proves you may)</label><br>
<input id="key" name="key" type="password" autocomplete="off" required size="70" placeholder="abk_…"></p>
<p><button type="submit">Continue</button></p></form>
<form method="post" action="/oauth/sign-in/${view.uid}/demo"><p class="muted">No key? 
<button type="submit">Use the demonstration workspace</button> (read-only)</p></form>
<form method="post" action="/oauth/sign-in/${view.uid}/abort"><p><button type="submit">Cancel</button></p></form>`),
  });
}

export interface ConsentView {
  uid: string;
  clientName: string;
  resource: string;
  workspaceName: string;
  keyName: string;
  /** Every scope the key holds, each with whether the assistant asked for it. */
  scopes: { scope: string; requested: boolean }[];
}

export function consentPage(view: ConsentView): string {
  const rows = view.scopes.map(
    (s) =>
      html`<li><label><input type="checkbox" name="scope" value="${s.scope}"${s.requested ? trusted(' checked') : ''}> <code>${s.scope}</code></label></li>`,
  );
  return page({
    title: 'Tessera: what the assistant may do',
    section: 'home',
    body: box(html`<h1>What may ${view.clientName} do?</h1>
<p>In <strong>${view.workspaceName}</strong>, with the rights of the key <strong>${view.keyName}</strong>, at
<code>${view.resource}</code>. Tick what it may do; it never gets more than the key holds.</p>
<form method="post" action="/oauth/sign-in/${view.uid}/consent"><ul>${rows}</ul>
<p><button type="submit">Allow</button></p></form>
<form method="post" action="/oauth/sign-in/${view.uid}/abort"><p><button type="submit">Deny</button></p></form>`),
  });
}
