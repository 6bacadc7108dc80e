// The visitor a booth captures, found at the event by attendee id (a scanned ticket code is turned
// into its attendee id first, by core/attendees/ticket-holder.ts).
import { sharedRow } from '../../db/dialect';
import type { AttendeeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

export type Visitor = Pick<
  AttendeeRow,
  'id' | 'first_name' | 'last_name' | 'company' | 'job_title' | 'email' | 'status' | 'erased'
>;

/**
 * The attendee, refused when not at this event, erased (404) or cancelled (409). Held shared while
 * the lead copies their details (db/dialect.ts sharedRow): an erasure of the person meanwhile is
 * waited for and the visitor then found erased, or waits and then erases the lead with them.
 */
export async function findVisitor(ctx: Ctx, eventId: string, attendeeId: string): Promise<Visitor> {
  const visitor = await sharedRow(
    ctx.db,
    ctx.db
      .selectFrom('attendees')
      .select(['id', 'first_name', 'last_name', 'company', 'job_title', 'email', 'status', 'erased'])
      .where('id', '=', attendeeId)
      .where('event_id', '=', eventId),
  ).executeTakeFirst();
  // A person who erased their data is not captured again: nothing new is kept about them.
  if (!visitor || visitor.erased === 1)
    throw problem('attendeeNotFound', `No attendee ${attendeeId} at this event.`);
  if (visitor.status === 'cancelled')
    throw problem(
      'alreadyCancelled',
      `The ticket of attendee ${attendeeId} is cancelled; a lead needs a visitor with a ticket.`,
    );
  return visitor;
}
