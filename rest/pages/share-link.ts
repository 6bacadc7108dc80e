// /s/{slug}/{code} when the link is not there: an unknown or removed code, or an event not published.
import { html } from './html';
import { page } from './layout';

export function shareLinkNotFoundPage(): string {
  return page({
    title: 'No such link',
    section: 'event',
    body: html`<main class="prose"><h1>No such link</h1><p>This share link does not lead to a published event. It may have been removed, or the event is not open yet.</p></main>`,
  });
}
