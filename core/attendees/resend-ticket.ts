// An organiser resends a ticket to someone who lost the e-mail: a new confirmation, with the
// ticket's link and calendar entry, queued like the first (a cause of its own, so it is sent even
// though the first was). A retry with the same Idempotency-Key answers the same e-mail.
import * as v from 'valibot';
import { emailSchema, emailView, mailRefusal, queueTicketConfirmations } from '../mail';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { isValidTicket } from '../sales';
import { loadAttendee } from './load-attendee';

export const resendTicket = defineOperation({
  name: 'resendTicket',
  title: 'Resend a ticket by e-mail',
  description:
    "Sends an attendee their ticket again (link, QR code page and calendar entry) to the ticket's address, as a new e-mail of the event's log. Needs attendees:write.",
  scope: 'attendees:write',
  effect: 'write',
  extension: true,
  activity: { resourceType: 'attendee', resourceId: (input) => input.attendeeId },
  problems: ['attendeeNotFound', 'alreadyCancelled', 'emailNotSent'],
  idempotent: true,
  input: v.object({ eventId: uuid('The event id.'), attendeeId: uuid('The attendee id.') }),
  output: emailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const attendee = await loadAttendee(ctx, event.id, input.attendeeId);
    if (attendee.status === 'cancelled')
      throw problem('alreadyCancelled', `The ticket was cancelled at ${attendee.cancelled_utc}.`);
    const refusal = await mailRefusal(ctx.db, ctx.services.mail, event);
    if (refusal) throw problem('emailNotSent', refusal);
    if (attendee.email === null) throw problem('emailNotSent', 'The person erased their data.');
    if (!isValidTicket(attendee.status, attendee.order_status))
      throw problem('emailNotSent', `The ticket is not issued yet: its order is ${attendee.order_status}.`);
    const resendId = newId();
    await queueTicketConfirmations(ctx, event.id, [attendee.id], resendId);
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('cause_kind', '=', 'ticketResent')
      .where('cause_id', '=', resendId)
      .executeTakeFirstOrThrow();
    return emailView(ctx, row);
  },
});
