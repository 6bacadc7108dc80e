// Finding a ticket by its holder's name, offered only to a key that may read people, and checking
// it in from the list.

import { showProblem } from './answer.js';
import { call, problemText } from './api.js';
import { checkInById } from './check-in.js';
import { $, nameOf } from './page.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

/** Shows the search where the key may search attendees and the ticket list came with names. */
export async function offerSearch() {
  try {
    const res = await call('/attendees/search?q=zz&limit=1');
    const mayReadNames = (await store.getMeta(`names:${settings.eventId}`)) === true;
    $('search-form').hidden = !(res.status === 200 && mayReadNames);
  } catch {
    $('search-form').hidden = true;
  }
}

export async function search(q) {
  const list = $('search-results');
  list.replaceChildren();
  const res = await call(`/attendees/search?${new URLSearchParams({ q, limit: '10' })}`);
  if (res.status !== 200) return showProblem(problemText(res));
  if (res.body.data.length === 0) {
    const none = document.createElement('li');
    none.textContent = 'Nobody found by that name.';
    list.append(none);
  }
  for (const person of res.body.data) {
    const item = document.createElement('li');
    item.textContent = `${nameOf(person) || 'Name withheld'} · ${person.ticketTypeName}`;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Check in';
    button.setAttribute('aria-label', `Check in ${nameOf(person) || 'this ticket'}`);
    button.addEventListener('click', () => checkInById(person.attendeeId));
    item.append(button);
    list.append(item);
  }
}
