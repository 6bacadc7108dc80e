// A scan made without a network: decided on the phone by the door's own rules (the server's file,
// core/checkin/door-rules.js) against the ticket list kept here and who this phone saw come and
// go, shown as provisional, and queued for upload. Only the door's count is left out (full is
// known to the server alone). A door whose rules the key may not read admits every valid ticket
// here, and the page says so (door.js).
import { entryAtDoor, refusalAtDoor } from '../../../core/checkin/door-rules.js';
import { show, showProblem } from './answer.js';
import { door } from './door.js';
import { renderQueue } from './offline-queue.js';
import { nameOf } from './page.js';
import { presenceOnPhone, rememberInside } from './presence.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

async function decideOffline(ticket, direction) {
  if (direction === 'out') return 'out';
  const rules = door || { ticketTypeIds: [], addOnIds: [], reentry: true };
  const refusal = refusalAtDoor(rules, ticket);
  if (refusal) return refusal;
  const entry = entryAtDoor(rules, await presenceOnPhone(ticket.attendeeId, ticket.firstCheckInUtc));
  return { firstIn: 'welcome', backIn: 'again' }[entry] || entry;
}

export async function scanOffline(code, direction) {
  const ticket = await store.ticketByHash(settings.eventId, await store.sha256Hex(code));
  if (!ticket) {
    const known = await store.ticketCount(settings.eventId);
    return showProblem(
      known > 0
        ? 'Offline: this code is not in the ticket list on this phone. Not let in; try again when online.'
        : 'Offline, and no ticket list on this phone yet: connect once to download it.',
    );
  }
  const result = await decideOffline(ticket, direction);
  const admitted = ['welcome', 'again'].includes(result);
  await rememberInside(ticket.attendeeId, ticket.firstCheckInUtc, admitted, direction);
  await store.putScan({
    scanId: crypto.randomUUID(),
    eventId: settings.eventId,
    attendeeId: ticket.attendeeId,
    doorId: settings.doorId,
    direction,
    scannedUtc: new Date().toISOString(),
    name: nameOf(ticket),
    ticketTypeName: ticket.ticketTypeName,
    provisional: result,
    answer: null,
  });
  show(result, { name: nameOf(ticket), ticketTypeName: ticket.ticketTypeName, provisional: true });
  await renderQueue();
}
