// Check-in by what a door's scanner read: the ticket's code or its whole address /t/{code}. The
// same scan as check-in by attendee id (same rules, same answer, same checkin.created).
import * as v from 'valibot';
import { codeInScan, scannedTicketSchema } from '../attendees';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { ticketCodeIn } from '../platform/ticket-codes';
import { checkInResultSchema, scanAtDoor } from './check-in-attendee';
import { doorAndTicket, doorAndTicketReads } from './door-and-ticket';
import { doorRemovedMeanwhile } from './load-door';

// Also exported here, where check-in by code first had them.
export { codeInScan, scannedTicketSchema };

export const checkInByCode = defineOperation({
  name: 'checkInByCode',
  title: 'Check a ticket in by its code',
  description:
    "Scans a ticket at a door by its code or whole address (what its QR code holds): answers as check-in by attendee id does (a refused scan is an answer with admitted false). Another event's code is not found. Needs checkins:write.",
  extension: true,
  scope: 'checkins:write',
  effect: 'write',
  activity: { none: 'A scan is kept in the list of check-ins, with its door and time.' },
  module: 'checkin',
  doors: true,
  problems: ['invalidRequest', 'attendeeNotFound', 'noDoor'],
  idempotent: true,
  ticketCodes: true,
  input: v.object({
    eventId: uuid('The event id.'),
    ticketCode: scannedTicketSchema,
    doorId: v.optional(uuid('Default: the main entrance.')),
    direction: v.optional(v.pipe(v.picklist(['in', 'out']), v.description('in (default) or out.'))),
  }),
  output: checkInResultSchema,
  // A scan that is not a code is refused by the handler, after the event's rules (no reads then).
  readsWithEvent: (input) => {
    const code = ticketCodeIn(input.ticketCode);
    return code === null ? undefined : doorAndTicketReads(input.doorId, { ticketCode: code });
  },
  namedRowGone: (ctx, input) => doorRemovedMeanwhile(ctx, input.eventId, input.doorId),
  async handler(ctx, input, { event, rows }) {
    const code = codeInScan(input.ticketCode, 'ticketCode');
    // readsWithEvent declared the reads of every code: none were read only for a scan refused above.
    if (!rows) throw new Error('The door and ticket of a code are read with its event.');
    const { door, attendee } = doorAndTicket(ctx, rows, input.doorId, { ticketCode: code });
    return scanAtDoor(ctx, event, door, attendee, input.direction ?? 'in');
  },
});
