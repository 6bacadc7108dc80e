import { sql } from 'kysely';
import * as v from 'valibot';
import { addressCandidates } from '../../db/attendee-search';
import type { Db } from '../../db/connect';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import {
  applyPlan,
  cursorFields,
  finishPage,
  legacyPageFields,
  legacyPageOf,
  planPage,
  readPage,
} from '../platform/pipeline/paging';
import { canReadPeople } from '../platform/pipeline/personal-data';
import { problem } from '../platform/problems';
import { emailAddress, uuid } from '../platform/schemas';
import { attendeeQuery, attendeeSchema, attendeeView } from './attendee-view';

export const listAttendees = defineOperation({
  name: 'listAttendees',
  title: 'List attendees',
  description:
    "Lists an event's attendees, one per ticket (cancelled included); personal fields need people:read. By name: search_attendees. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  problems: ['peopleScope'],
  input: v.object({
    eventId: uuid('The event id.'),
    ...cursorFields,
    ...legacyPageFields,
    email: v.optional(emailAddress('Only tickets sent here, newest first; needs people:read.')),
    status: v.optional(
      v.pipe(
        v.picklist(['active', 'cancelled']),
        v.description('Only tickets in this status, in every order and paging mode.'),
      ),
    ),
  }),
  output: legacyPageOf(attendeeSchema),
  async handler(ctx, input) {
    if (input.email !== undefined && !canReadPeople(ctx.actor)) {
      throw problem('peopleScope', 'Filtering attendees by email needs the people:read scope.');
    }
    const event = await loadEvent(ctx, input.eventId);
    const email = input.email?.toLowerCase();
    const status = input.status;
    const plan = planPage(ctx, input, {
      list: 'attendees',
      filters: { eventId: event.id, email, status },
      legacy: true,
      defaultSort: email !== undefined ? '-created' : 'changed',
    });
    let query =
      email === undefined
        ? attendeeQuery(ctx.db).where('attendees.event_id', '=', event.id)
        : sentTo(ctx.db, event, email);
    if (status !== undefined) query = query.where('attendees.status', '=', status);
    const read = applyPlan(query, plan, keysetOf('attendees'));
    // An address's few tickets are sorted: read in an index's order, the whole event would be tested.
    const rows = email === undefined ? await readPage(ctx.db, read) : await read.execute();
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      attendeeView(ctx.actor, row, ctx.request.origin),
    );
  },
});

/**
 * The event's tickets sent to `email`: the candidates db/attendee-search.ts names for the address,
 * the address checked exactly on them. No filter on the event besides: with it the store may walk
 * the event newest first, testing each row.
 */
function sentTo(db: Db, event: { id: string; workspace_id: string }, email: string) {
  const candidates = addressCandidates(db, event.workspace_id, event.id, email);
  return attendeeQuery(db)
    .where(sql<boolean>`${sql.ref('attendees.id')} in (${candidates})`)
    .where('attendees.email', '=', email);
}
