// Who gives feedback: an attendee of the event, named by their attendee id or by the code scanned
// from their ticket (exactly one; core/attendees/ticket-holder.ts). Feedback is taken from a ticket
// that still holds its person: an erased one would link the answer to someone again.
import type { EventRow } from '../../db/schema';
import { checkTicketHolder, type TicketHolderInput, ticketHolderFields, ticketHolderId } from '../attendees';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { problem } from '../platform/problems';

export const respondentFields = ticketHolderFields(
  'The attendee giving it (kept only so each answers once, never shown with the answer, cut when they erase their data)',
);

/** The rule of respondentFields: exactly one of attendeeId or ticketCode. */
export const checkRespondent = (input: Record<string, unknown>, errors: FieldErrors) =>
  checkTicketHolder(input, errors);

/** The attendee id of who gives the feedback, or attendeeNotFound. */
export async function respondentOf(ctx: Ctx, event: EventRow, input: TicketHolderInput): Promise<string> {
  const attendeeId = await ticketHolderId(ctx, event.id, input);
  const attendee = await ctx.db
    .selectFrom('attendees')
    .select(['id', 'erased'])
    .where('id', '=', attendeeId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!attendee) throw problem('attendeeNotFound', `No attendee ${attendeeId} at this event.`);
  if (attendee.erased)
    throw problem('attendeeNotFound', `Attendee ${attendeeId} erased their data; they cannot give feedback.`);
  return attendee.id;
}
