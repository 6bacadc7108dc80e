// The event's ticket list kept on the phone for offline answers: downloaded page by page, then
// only what changed since the newest row seen (updatedSince).

import { setNetwork } from './answer.js';
import { call, isNetworkError, problemText } from './api.js';
import { $ } from './page.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

export async function syncList() {
  const sinceKey = `since:${settings.eventId}`;
  const since = await store.getMeta(sinceKey);
  let newest = since || '';
  let cursor = null;
  try {
    do {
      const query = new URLSearchParams({ limit: '500' });
      if (since) query.set('updatedSince', since);
      if (cursor) query.set('cursor', cursor);
      const res = await call(`/check-ins/scan-list?${query}`);
      if (res.status !== 200) {
        $('list-state').textContent = `The ticket list could not be downloaded: ${problemText(res)}`;
        return;
      }
      await store.putTickets(settings.eventId, res.body.data);
      for (const row of res.body.data) {
        if (row.updatedUtc > newest) newest = row.updatedUtc;
        // Names come only to a key that may read people: then the name search is worth offering.
        if (row.personalData === 'included') await store.setMeta(`names:${settings.eventId}`, true);
      }
      cursor = res.body.nextCursor;
    } while (cursor);
  } catch (e) {
    if (!isNetworkError(e)) throw e;
    setNetwork(false);
    return;
  }
  if (newest) await store.setMeta(sinceKey, newest);
  const count = await store.ticketCount(settings.eventId);
  $('list-state').textContent =
    `Ticket list on this phone: ${count} ticket(s), checked at ${new Date().toLocaleTimeString()}.`;
  $('list-state').dataset.count = String(count);
}
