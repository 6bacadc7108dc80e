// /c/{slug}: the small public page of a published community.
import type { PublicCommunity } from '../../core/communities';
import { html } from './html';
import { page } from './layout';

export function communityPage(community: PublicCommunity): string {
  const meetups =
    community.meetups.length === 0
      ? html`<p class="muted">No meetups are announced right now.</p>`
      : html`<table><tbody>${community.meetups.map(
          (m) =>
            html`<tr><td><a href="/e/${m.slug}"><strong>${m.name}</strong></a></td><td class="muted">${m.when}</td></tr>`,
        )}</tbody></table>`;
  return page({
    title: community.name,
    section: 'event',
    body: html`<main class="prose"><h1>${community.name}</h1>
${community.summary ? html`<p>${community.summary}</p>` : ''}
<p><strong>${community.where}</strong> · ${community.members} ${community.members === 1 ? 'member' : 'members'} · ${
      community.joinPolicy === 'open' ? 'anyone may join' : 'the organisers approve new members'
    }</p>
<h2>Upcoming meetups</h2>${meetups}</main>`,
  });
}

export function communityNotFoundPage(): string {
  return page({
    title: 'No such community',
    section: 'event',
    body: html`<main class="prose"><h1>No such community</h1><p>There is no published community at this address.</p></main>`,
  });
}
