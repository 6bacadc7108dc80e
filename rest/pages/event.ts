// /e/{slug}: the small public page of a published event.
import type { PublicEvent, PublishedLink } from '../../core/events';
import { type Html, html } from './html';
import { page } from './layout';

const money = (amount: number, currency: string) =>
  amount === 0 ? 'Free' : new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

const kindWords: Record<string, string> = {
  slides: 'Slides',
  recording: 'Recording',
  article: 'Article',
  photos: 'Photos',
};

const links = (content: PublishedLink[]) =>
  content.map(
    (c) => html`<br><a href="${c.url}" rel="noopener">${kindWords[c.kind] ?? c.kind}: ${c.title}</a>`,
  );

/** The page, with the registration section when the event has one (sign-up-form.ts). */
export function eventPage(event: PublicEvent, register?: Html, head?: Html): string {
  const venue = event.venue
    ? html`<p>${event.venue.name}${[event.venue.address, event.venue.city, event.venue.country]
        .filter(Boolean)
        .map((part) => html`, ${part}`)}</p>`
    : html`<p>Online</p>`;
  const tickets =
    event.tickets.length === 0
      ? html`<p class="muted">No tickets are on sale right now.</p>`
      : html`<table><tbody>${event.tickets.map(
          (t) =>
            html`<tr><td><strong>${t.name}</strong>${t.description ? html`<br><span class="muted">${t.description}</span>` : ''}</td>
<td>${t.soldOut ? html`<span class="badge">Sold out</span>` : money(t.price, t.currency)}</td></tr>`,
        )}</tbody></table>`;
  const programme =
    event.programme.length === 0
      ? ''
      : html`<h2>Programme</h2><table><tbody>${event.programme.map(
          (s) =>
            html`<tr><td class="muted">${s.when}</td><td><strong>${s.title}</strong>${
              s.speakers.length ? html`<br>${s.speakers.join(', ')}` : ''
            }${links(s.content)}</td><td class="muted">${s.room ?? ''}</td></tr>`,
        )}</tbody></table>`;
  return page({
    title: event.name,
    section: 'event',
    head,
    body: html`<main class="prose"><h1>${event.name}</h1>
<p><strong>${event.when}</strong> <span class="muted">(${event.timeZone})</span></p>
${venue}
<h2>Tickets</h2>${tickets}
${register ?? ''}
${programme}
${event.content.length ? html`<h2>Published</h2><p>${links(event.content)}</p>` : ''}</main>`,
  });
}

export function eventNotFoundPage(): string {
  return page({
    title: 'No such event',
    section: 'event',
    body: html`<main class="prose"><h1>No such event</h1><p>There is no published event at this address.</p></main>`,
  });
}
