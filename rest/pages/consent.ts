// The consent page of the assistant sign-in: who asks and where the browser goes back to, then
// the signed-in key's scopes in words, grouped by kind (see, change, personal data) and named by
// area, those to give ticked. What the assistant asked for and the key does not hold is named,
// not offered. The words are core's (scope-descriptions.ts), so every page says the same.
import { type ScopeDescription, scopeKinds } from '../../core/platform/scope-descriptions';
import { html } from './html';
import { page } from './layout';
import { type AssistantView, box, goesBackTo, signInStyle, tokenField } from './sign-in';

export interface ConsentView extends AssistantView {
  workspaceName: string;
  keyName: string;
  choices: {
    /** The key's scopes, each with whether the assistant asked for it and whether it starts ticked. */
    offered: (ScopeDescription & { asked: boolean; ticked: boolean })[];
    /** What the assistant asked for that the key does not hold. */
    unheld: ScopeDescription[];
    /** The assistant named no scope of the API, so the reads without personal data start ticked. */
    askedForNothing: boolean;
  };
}

/** The resources a sign-in is for are {origin}/mcp and {origin}/api/v1. */
const resourceName = (resource: string) => (resource.endsWith('/mcp') ? 'the MCP server' : 'the REST API');

const idOf = (scope: string) => `scope-${scope.replace(':', '-')}`;

function scopeRow(s: ConsentView['choices']['offered'][number]) {
  return html`<li><input type="checkbox" name="scope" value="${s.scope}" id="${idOf(s.scope)}"${s.ticked ? html` checked` : ''}>
<label for="${idOf(s.scope)}"><strong>${s.area}</strong>: ${s.meaning}${s.asked ? html` <span class="badge">asked for</span>` : ''} <code>${s.scope}</code></label></li>`;
}

export function consentPage(view: ConsentView): string {
  const { offered, unheld, askedForNothing } = view.choices;
  const groups = scopeKinds
    .map((k) => ({ ...k, rows: offered.filter((s) => s.kind === k.kind) }))
    .filter((g) => g.rows.length > 0)
    .map(
      (g) => html`<fieldset class="scopes"><legend>${g.heading}</legend><p class="muted">${g.meaning}</p>
<ul>${g.rows.map(scopeRow)}</ul></fieldset>`,
    );
  return page({
    title: 'Tessera: what the assistant may do',
    section: 'home',
    head: signInStyle,
    body: box(html`<h1>What may ${view.clientName} do?</h1>
<dl class="facts">
<dt>Assistant</dt><dd><strong>${view.clientName}</strong></dd>
<dt>Sends you back to</dt><dd>${goesBackTo(view)}</dd>
<dt>Workspace</dt><dd><strong>${view.workspaceName}</strong>, with the rights of the key <strong>${view.keyName}</strong></dd>
<dt>Reaches</dt><dd>${resourceName(view.resource)} at <code>${view.resource}</code></dd>
</dl>
<p>${
      askedForNothing
        ? html`${view.clientName} did not say what it needs, so only what lets it see, without personal data, is ticked.`
        : html`What it asked for is ticked.`
    } Tick what it may do; it never gets more than the key holds.</p>
${
  unheld.length > 0
    ? html`<p class="unheld">It also asked for what the key does not hold, so it cannot be given here:
${unheld.map((s, i) => html`${i > 0 ? ', ' : ''}<strong>${s.area}</strong> (${s.meaning}, <code>${s.scope}</code>)`)}.</p>`
    : ''
}
<form method="post" action="/oauth/sign-in/${view.uid}/consent">${tokenField(view)}${
      offered.length > 0 ? groups : html`<p>The key holds no scope to give.</p>`
    }
<p class="actions"><button type="submit" class="primary">Allow</button>
<button type="submit" formaction="/oauth/sign-in/${view.uid}/abort">Deny</button></p></form>`),
  });
}
