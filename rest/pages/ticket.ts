// /t/{code}: a ticket as its holder keeps it, on a phone or printed: the QR code door staff scan
// (only while the ticket can admit), the event, its time in the venue's zone, the holder, the ticket
// type, add-ons and order reference, and a calendar file. Printed, only the ticket shows.
import QRCode from 'qrcode';
import type { PublicTicket } from '../../core/attendees';
import type { DocumentLink } from '../../core/documents';
import { holderWords } from '../../core/platform/holder-name';
import { html, trusted } from './html';
import { page } from './layout';

// Green, amber and red strong enough for 4.5:1 on white and on their own tint.
const head = trusted(
  `<style>
.ticket{max-width:34rem;margin:1.5rem auto;padding:0 1rem}
.ticket h1{font-size:1.7rem;line-height:1.25;margin:.2em 0 .5em}
.state{font-weight:700;padding:.6rem .9rem;border-radius:8px;margin:0 0 1rem}
.state.valid{background:#e6f4ea;color:#17622c}.state.awaitingPayment{background:#fff4d6;color:#7a4b00}.state.cancelled{background:#fdecea;color:#a21d12}
.qr{display:block;width:min(18rem,100%);margin:0 auto 1rem;background:#fff}.qr svg{display:block;width:100%;height:auto}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.05em;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1.2rem;margin:0 0 1.2rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
.ticket ul{margin:0;padding-left:1.1rem}
a:focus-visible{outline:3px solid #3b5bdb;outline-offset:2px}
@media (max-width:480px){dl.facts{grid-template-columns:1fr}dl.facts dt{margin-top:.3rem}}
@media print{header.top,.screen-only{display:none}.ticket{margin:0;max-width:none}.card{border:2px solid #000}.qr{width:7cm}}
</style>`,
);

const stateWords = {
  valid: 'Valid: show this code at the door.',
  awaitingPayment:
    'Awaiting payment: this ticket becomes valid once its order is paid. Its QR code appears here then.',
  cancelled: 'This ticket was cancelled. It does not admit anyone.',
} as const;

/** The holder's name in bold, or in grey the words saying why there is none (holder-name.ts). */
export const holderHtml = (name: string | null, erased: boolean) =>
  name ? html`<strong>${name}</strong>` : html`<span class="muted">${holderWords(name, erased)}</span>`;

/** The code in groups of four, easier to read out and type at a door. */
const grouped = (code: string) => code.match(/.{1,4}/g)!.join(' ');

/** The ticket's address as an inline SVG QR code, labelled for screen readers. */
async function qrCode(address: string): Promise<string> {
  const svg = await QRCode.toString(address, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  return svg.replace('<svg ', '<svg role="img" aria-label="QR code of this ticket" ');
}

/** The buyer's invoices and credit notes, each a download of its PDF. */
function documentList(links: DocumentLink[]) {
  if (links.length === 0) return '';
  const label = (l: DocumentLink) => `${l.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${l.number} (PDF)`;
  return html`<section class="screen-only" aria-labelledby="documents-heading"><h2 id="documents-heading">Your invoices</h2>
<ul>${links.map((l) => html`<li><a href="${l.url}" download>Download ${label(l)}</a></li>`)}</ul></section>`;
}

export async function ticketPage(ticket: PublicTicket, documents: DocumentLink[] = []): Promise<string> {
  const qr = ticket.state === 'valid' ? trusted(await qrCode(ticket.address)) : null;
  const holder = holderHtml(ticket.holder, ticket.erased);
  const addOns = ticket.addOns.length
    ? html`<ul>${ticket.addOns.map((a) => html`<li>${a.name}${a.quantity > 1 ? ` × ${a.quantity}` : ''}</li>`)}</ul>`
    : html`<span class="muted">None</span>`;
  return page({
    title: `Ticket: ${ticket.event.name}`,
    section: 'event',
    head,
    body: html`<main class="ticket prose"><div class="card">
<h1>${ticket.event.name}</h1>
<p class="state ${ticket.state}" role="status">${stateWords[ticket.state]}</p>
${qr ? html`<figure class="qr" data-ticket-qr>${qr}</figure>` : ''}
<dl class="facts">
<dt>Holder</dt><dd>${holder}</dd>
<dt>Ticket</dt><dd>${ticket.ticketType}</dd>
<dt>Add-ons</dt><dd>${addOns}</dd>
<dt>When</dt><dd>${ticket.event.when} <span class="muted">(${ticket.event.timeZone} time)</span></dd>
<dt>Where</dt><dd>${ticket.event.venue}</dd>
<dt>Order</dt><dd>${ticket.orderReference}</dd>
<dt>Code</dt><dd class="code">${grouped(ticket.code)}</dd>
</dl>
<p class="screen-only"><a href="/t/${ticket.code}.ics" download>Add to your calendar (.ics)</a></p>
${documentList(documents)}
<p class="screen-only muted">Keep this address to yourself: anyone who has it can show this ticket. Print this page to carry it on paper.</p>
</div></main>`,
  });
}

/** Every miss looks the same, so the page tells nothing about codes that exist. */
export function ticketNotFoundPage(): string {
  return page({
    title: 'No such ticket',
    section: 'event',
    body: html`<main class="prose"><h1>No such ticket</h1><p>No ticket has this address. Check that it was copied whole, or open the link from your confirmation again.</p></main>`,
  });
}

/** Too many addresses that were not tickets from one place: a pause before more are looked up. */
export function ticketLookupPausedPage(retryAfter: number): string {
  return page({
    title: 'Too many tries',
    section: 'event',
    body: html`<main class="prose"><h1>Too many tries</h1><p>This connection asked for many ticket addresses that do not exist. Try again in ${retryAfter} seconds.</p></main>`,
  });
}

/** A buyer's document link that names none: every miss alike. */
export function documentNotFoundPage(): string {
  return page({
    title: 'No such document',
    section: 'event',
    body: html`<main class="prose"><h1>No such document</h1><p>No invoice or credit note has this address. Check that it was copied whole, or open the link from your e-mail again.</p></main>`,
  });
}
