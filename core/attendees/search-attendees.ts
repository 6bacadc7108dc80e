import { sql } from 'kysely';
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { attendeeQuery, attendeeSchema, attendeeView } from './attendee-view';

export const searchAttendees = defineOperation({
  name: 'searchAttendees',
  title: 'Search attendees',
  description:
    'Finds attendees whose name, email, company or order reference contains q, newest first; not paged. Needs attendees:read and people:read.',
  scope: 'attendees:read',
  effect: 'read',
  aboutPeople: 'Searching attendees by name or address needs the people:read scope.',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(200),
      v.description('At least 2 characters; case ignored.'),
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(100),
        v.description('Default 25, at most 100.'),
      ),
    ),
  }),
  output: v.object({ data: v.array(attendeeSchema) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const pattern = `%${input.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await attendeeQuery(ctx.db)
      .where('attendees.event_id', '=', event.id)
      .where('attendees.erased', '=', 0)
      .where((eb) =>
        eb.or(
          (
            [
              'attendees.first_name',
              'attendees.last_name',
              'attendees.email',
              'attendees.company',
              'orders.reference',
            ] as const
          ).map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`),
        ),
      )
      .orderBy('attendees.created_utc', 'desc')
      .orderBy('attendees.id', 'desc')
      .limit(input.limit ?? 25)
      .execute();
    return { data: rows.map((row) => attendeeView(ctx.actor, row)) };
  },
});
