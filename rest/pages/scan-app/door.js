// The door the page scans at: its name and rules (listDoors, events:read), kept on the phone for
// the offline answers, and what the page says when the key may not read them.
import { call, isNetworkError, problemText } from './api.js';
import { $ } from './page.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

/** The door as listDoors gives it, when the key may read it; else null. */
export let door = null;

/** The door scanned at among the event's doors: the one named, else the main entrance (the server's choice). */
function pickDoor(doors) {
  if (settings.doorId) return doors.find((d) => d.doorId === settings.doorId) || null;
  const entrances = doors.filter((d) => d.kind === 'entrance');
  return entrances.find((d) => d.main) || entrances[0] || null;
}

/** Reads the door (else takes the copy kept on the phone), and shows its name and any note. */
export async function loadDoor() {
  const keptKey = `door:${settings.eventId}:${settings.doorId || 'main'}`;
  let note = '';
  try {
    const res = await call('/doors');
    if (res.status === 200) {
      door = pickDoor(res.body.data);
      await store.setMeta(keptKey, door);
      if (!door)
        note = settings.doorId
          ? 'This event has no such door: scans will be refused. Ask the organiser for a new link.'
          : 'This event has no entrance door: scans will be refused.';
    } else {
      door = (await store.getMeta(keptKey)) || null;
      if (!door)
        note =
          res.status === 403
            ? 'This key may not read the door’s rules (events:read): offline, every valid ticket is let in provisionally.'
            : `The door could not be read: ${problemText(res)}`;
    }
  } catch (e) {
    if (!isNetworkError(e)) throw e;
    door = (await store.getMeta(keptKey)) || null;
  }
  $('where').textContent = door ? door.name : settings.doorId ? 'Door' : 'Main entrance';
  $('door-state').textContent = note;
  $('door-state').hidden = note === '';
}
