// /v/{code}: the public page that verifies a certificate: valid or revoked, the event, the kind, the
// day it was issued and the holder (unless they erased their data).

import type { CertificateCheck } from '../../core/certificates';
import { holderWords } from '../../core/platform/holder-name';
import { html, trusted } from './html';
import { page } from './layout';

const kindWords = {
  attendance: 'Certificate of attendance',
  speaker: 'Certificate of speaking',
  crew: 'Certificate of crewing',
} as const;

// Green and red strong enough for 4.5:1 on white and on their own tint.
const head = trusted(
  '<style>.verdict{font-weight:700;padding:.6rem .9rem;border-radius:8px;margin:0 0 1.2rem}.verdict.ok{background:#e6f4ea;color:#17622c}.verdict.revoked{background:#fdecea;color:#a21d12}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1.2rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}@media (max-width:480px){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}</style>',
);

export function certificatePage(check: CertificateCheck): string {
  const verdict = check.valid
    ? html`<p class="verdict ok" role="status">Valid: this certificate was issued by the organiser of the event.</p>`
    : html`<p class="verdict revoked" role="status">Revoked: the organiser withdrew this certificate. It no longer stands.</p>`;
  const holder = holderWords(check.holder, check.erased);
  return page({
    title: `${kindWords[check.kind]}: ${check.event.name}`,
    section: 'event',
    head,
    body: html`<main class="prose"><h1>${kindWords[check.kind]}</h1>
${verdict}
<dl class="facts">
<dt>Holder</dt><dd>${check.holder ? html`<strong>${holder}</strong>` : html`<span class="muted">${holder}</span>`}</dd>
<dt>Event</dt><dd>${check.event.url ? html`<a href="${check.event.url}">${check.event.name}</a>` : check.event.name}</dd>
<dt>When</dt><dd>${check.event.when} <span class="muted">(${check.event.timeZone})</span></dd>
<dt>Issued</dt><dd>${check.issuedOn}</dd>
${check.revokedOn ? html`<dt>Revoked</dt><dd>${check.revokedOn}</dd>` : ''}
</dl></main>`,
  });
}

export function certificateNotFoundPage(): string {
  return page({
    title: 'No such certificate',
    section: 'event',
    body: html`<main class="prose"><h1>No such certificate</h1><p>No certificate has this verification address. Check that it was copied whole.</p></main>`,
  });
}
