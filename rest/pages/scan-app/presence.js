// Where a ticket's holder stands at this door as far as this phone knows (inside, out, never in),
// for the door's rules offline: what the phone saw them do here, kept as the server's answers and
// the phone's own offline answers change it.
import { door } from './door.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

const insideKey = (attendeeId) => `in:${settings.eventId}:${settings.doorId || 'main'}:${attendeeId}`;

/** Whether this door is the main entrance, where a ticket's firstCheckInUtc was taken. */
const atMainEntrance = () => (door ? door.main : !settings.doorId);

/**
 * What this phone saw, else, at the main entrance, in once already (firstCheckInUtc) and taken to
 * be inside still.
 */
export async function presenceOnPhone(attendeeId, firstCheckInUtc) {
  const inside = await store.getMeta(insideKey(attendeeId));
  if (inside !== undefined) return inside ? 'inside' : 'out';
  return firstCheckInUtc && atMainEntrance() ? 'inside' : 'never';
}

/** Keeps what a scan did to the holder's presence at this door, as the server's rules change it. */
export async function rememberInside(attendeeId, firstCheckInUtc, admitted, direction) {
  if (direction === 'out') {
    // Going out of a door one is not inside changes nothing (a later scan in is still a first).
    if ((await presenceOnPhone(attendeeId, firstCheckInUtc)) === 'inside')
      await store.setMeta(insideKey(attendeeId), false);
  } else if (admitted) await store.setMeta(insideKey(attendeeId), true);
}
