// Checking a ticket in or out: by a scanned or typed code (the code itself, or a ticket's address
// ending in /t/{code}), or by the attendee picked from the name search. Without a network, a code
// is decided on the phone (offline-scan.js).

import { setNetwork, show, showProblem } from './answer.js';
import { call, isNetworkError, problemText } from './api.js';
import { refreshCounts } from './counts.js';
import { scanOffline } from './offline-scan.js';
import { nameOf } from './page.js';
import { rememberInside } from './presence.js';
import { settings } from './settings.js';

/** The code in a scan: the code itself (case, spaces, dashes ignored) or an address ending in /t/{code}. */
export function ticketCodeIn(scanned) {
  const text = scanned.trim();
  const fromAddress = /\/t\/([A-Za-z2-7]{26})(?:[/?#.].*)?$/.exec(text);
  const code = (fromAddress ? fromAddress[1] : text.replace(/[\s-]/g, '')).toUpperCase();
  return /^[A-Z2-7]{26}$/.test(code) ? code : null;
}

/** In or out, as the door staff chose. */
const direction = () => document.querySelector('input[name=direction]:checked').value;

const atThisDoor = () => (settings.doorId ? { doorId: settings.doorId } : {});

/** Shows the server's answer to a check-in and keeps what it did to the holder's presence. */
async function answered(body, attendeeId, dir) {
  show(body.result, { name: nameOf(body.attendee), ticketTypeName: body.attendee.ticketTypeName });
  await rememberInside(attendeeId, body.firstCheckInUtc, body.admitted, dir);
  refreshCounts();
}

export async function checkInByCode(scanned) {
  const code = ticketCodeIn(scanned);
  if (!code) return show('notACode');
  const dir = direction();
  try {
    const res = await call('/check-ins/by-code', {
      method: 'POST',
      body: { ticketCode: code, direction: dir, ...atThisDoor() },
    });
    setNetwork(true);
    if (res.status === 200) await answered(res.body, res.body.attendee.attendeeId, dir);
    else if (res.status === 404 && res.body?.code === 'attendeeNotFound') show('unknown');
    else showProblem(problemText(res));
  } catch (e) {
    if (!isNetworkError(e)) throw e;
    setNetwork(false);
    await scanOffline(code, dir);
  }
}

export async function checkInById(attendeeId) {
  const dir = direction();
  const res = await call(`/attendees/${attendeeId}/check-in`, {
    method: 'POST',
    body: { direction: dir, ...atThisDoor() },
  });
  if (res.status !== 200) return showProblem(problemText(res));
  await answered(res.body, attendeeId, dir);
}
