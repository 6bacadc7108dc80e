// Who gives feedback: an attendee of the event, named by their attendee id. Tickets carry no code
// yet; when they do, a ticket code is resolved to its attendee here, and answers and ratings take
// either without any other change. Feedback is taken from a ticket that still holds its person: an
// erased one would link the answer to someone again.
import type * as v from 'valibot';
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';

export const respondentFields = {
  attendeeId: uuid(
    'The attendee giving it: kept only so each answers once, never shown with the answer, cut when they erase their data.',
  ),
};

export type RespondentInput = v.InferOutput<v.ObjectSchema<typeof respondentFields, undefined>>;

/** The attendee id of who gives the feedback, or attendeeNotFound. */
export async function respondentOf(ctx: Ctx, event: EventRow, input: RespondentInput): Promise<string> {
  const attendee = await ctx.db
    .selectFrom('attendees')
    .select(['id', 'erased'])
    .where('id', '=', input.attendeeId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!attendee) throw problem('attendeeNotFound', `No attendee ${input.attendeeId} at this event.`);
  if (attendee.erased)
    throw problem(
      'attendeeNotFound',
      `Attendee ${input.attendeeId} erased their data; they cannot give feedback.`,
    );
  return attendee.id;
}
