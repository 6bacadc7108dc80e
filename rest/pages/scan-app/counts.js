// The door's counts (inside, capacity, admitted, refused), from the check-in summary.
import { call, isNetworkError } from './api.js';
import { door } from './door.js';
import { $ } from './page.js';
import { settings } from './settings.js';

export async function refreshCounts() {
  try {
    const res = await call('/check-ins/summary');
    if (res.status !== 200) {
      $('counts').hidden = true;
      return;
    }
    const doorId = settings.doorId || door?.doorId;
    const counts = res.body.doors.find((d) => d.doorId === doorId) || res.body.doors[0];
    if (!counts) return;
    $('inside').textContent = String(counts.inside);
    $('capacity').textContent = counts.capacity === null ? 'No limit' : String(counts.capacity);
    $('capacity').classList.toggle('words', counts.capacity === null);
    $('admitted').textContent = String(counts.admitted);
    $('refused').textContent = String(counts.refused);
  } catch (e) {
    if (!isNetworkError(e)) throw e;
  }
}
