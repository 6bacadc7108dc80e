// The assistant sign-in page (OAuth, served by Tessera): the organiser proves access with one of
// the workspace's API keys (or picks the read-only demonstration workspace). The consent page that
// follows is consent.ts.
import { formTokenField } from '../../core/platform/form-tokens';
import { type Html, html, trusted } from './html';
import { page } from './layout';

/** Who asks, where the browser goes back to, and what it asks to reach. */
export interface AssistantView {
  uid: string;
  clientName: string;
  /** The host of the request's redirect_uri (or an app's own scheme), with what kind of place it is. */
  redirectTo?: { shown: string; note?: string };
  /** What the assistant asks to reach: the MCP server or the REST API. */
  resource: string;
  /** Proves to this service that it gave out the pages' forms (core/platform/form-tokens.ts). */
  formToken: string;
}

/** The hidden field each form of the sign-in pages carries. */
export const tokenField = (view: AssistantView) =>
  html`<input type="hidden" name="${formTokenField}" value="${view.formToken}">`;

export interface SignInView extends AssistantView {
  problem?: string;
}

/** The sign-in pages' own style: readable form controls at phone and desktop widths. */
export const signInStyle = html`<style>${trusted(`
main.prose .card{overflow-wrap:anywhere}
input[type=password]{max-width:100%;font:inherit;padding:.4rem .5rem;border:1px solid var(--muted);border-radius:6px}
button{font:inherit;padding:.45rem 1.1rem;border:1px solid var(--muted);border-radius:6px;background:#fff;color:var(--ink);cursor:pointer}
p.actions{display:flex;gap:.8rem;flex-wrap:wrap}button.primary{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0 0 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
fieldset.scopes{border:1px solid var(--line);border-radius:8px;margin:1rem 0;padding:.3rem 1rem .6rem}
fieldset.scopes legend{font-weight:700;padding:0 .3rem}fieldset.scopes p{margin:.2rem 0 .5rem}
fieldset.scopes ul{list-style:none;margin:0;padding:0}fieldset.scopes li{display:flex;gap:.6rem;align-items:flex-start;padding:.35rem 0;border-top:1px solid var(--line)}
fieldset.scopes input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}
fieldset.scopes code{font-size:.8em;color:var(--muted)}
p.unheld{border-left:4px solid #b35c00;padding-left:.7rem}
@media (max-width:30rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.4rem}main.prose{padding:0 .6rem}main.prose .card{padding:.8rem}}
`)}</style>`;

export const box = (body: Html) => html`<main class="prose"><div class="card">${body}</div></main>`;

/** "Afterwards you go back to 127.0.0.1:33418 (an app on this computer)." */
export const goesBackTo = (view: AssistantView) =>
  view.redirectTo
    ? html`<code>${view.redirectTo.shown}</code>${view.redirectTo.note ? html` (${view.redirectTo.note})` : ''}`
    : html`the address it registered`;

export function signInPage(view: SignInView): string {
  return page({
    title: 'Tessera: sign in an assistant',
    section: 'home',
    head: signInStyle,
    body: box(html`<h1>Sign in ${view.clientName}</h1>
<p><strong>${view.clientName}</strong> asks to reach <code>${view.resource}</code> for you.
Afterwards you go back to ${goesBackTo(view)}.</p>
${view.problem ? html`<p role="alert"><strong>${view.problem}</strong></p>` : ''}
<form method="post" action="/oauth/sign-in/${view.uid}/key">${tokenField(view)}
<p><label for="key">An API key of your workspace (it is not given to the assistant; it proves you may)</label><br>
<input id="key" name="key" type="password" autocomplete="off" required size="70" placeholder="abk_…"></p>
<p><button type="submit" class="primary">Continue</button></p></form>
<form method="post" action="/oauth/sign-in/${view.uid}/demo">${tokenField(view)}<p class="muted">No key? 
<button type="submit">Use the demonstration workspace</button> (read-only)</p></form>
<form method="post" action="/oauth/sign-in/${view.uid}/abort">${tokenField(view)}<p><button type="submit">Cancel</button></p></form>`),
  });
}
