// Check-in by what a door's scanner read: the ticket's code or its whole address /t/{code}. The
// same scan as check-in by attendee id (same rules, same answer, same checkin.created).
import * as v from 'valibot';
import { loadAttendeeByCode } from '../attendees/load-attendee';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { ticketCodeIn } from '../platform/ticket-codes';
import { checkInResultSchema, scanAtDoor } from './check-in-attendee';
import { loadDoor } from './load-door';

export const scannedTicketSchema = v.pipe(
  v.string(),
  v.maxLength(500),
  v.description(
    "What the scanner read: a ticket's code (26 letters and digits 2-7; case, spaces and dashes ignored) or its address ending in /t/{code}, as its QR code holds it.",
  ),
);

/** The code in a scan, or a field error naming where it came from. */
export function codeInScan(scanned: string, field: string): string {
  const code = ticketCodeIn(scanned);
  if (code === null)
    new FieldErrors()
      .add(field, "This is not a ticket's code (26 letters and digits 2-7) or a ticket's address.")
      .throwIfAny();
  return code as string;
}

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
  input: v.object({
    eventId: uuid('The event id.'),
    ticketCode: scannedTicketSchema,
    doorId: v.optional(uuid('Default: the main entrance.')),
    direction: v.optional(v.pipe(v.picklist(['in', 'out']), v.description('in (default) or out.'))),
  }),
  output: checkInResultSchema,
  async handler(ctx, input) {
    const code = codeInScan(input.ticketCode, 'ticketCode');
    const event = await loadEvent(ctx, input.eventId);
    const door = await loadDoor(ctx, event.id, input.doorId);
    const attendee = await loadAttendeeByCode(ctx, event.id, code);
    return scanAtDoor(ctx, event, door, attendee, input.direction ?? 'in');
  },
});
