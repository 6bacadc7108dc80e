import { type Expression, sql } from 'kysely';
import * as v from 'valibot';
import {
  countsCandidatesCheaply,
  fewNewestCandidates,
  newestCandidates,
  searchCandidates,
} from '../../db/attendee-search';
import type { Db } from '../../db/connect';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { oneLine, uuid } from '../platform/schemas';
import { type AttendeesRead, attendeeQuery, attendeeSchema, attendeeView } from './attendee-view';

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
      oneLine,
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
    const limit = input.limit ?? 25;
    // Read aside on SQLite: a search can take milliseconds the server's thread answers others in.
    const db = ctx.services.readsAside ?? ctx.db;
    const rows = await search(db, event.id, input.q, limit);
    return { data: rows.map((row) => attendeeView(ctx.actor, row, ctx.request.origin)) };
  },
});

/**
 * Candidates few enough to be read from the index at once, whatever the event's size: counting and
 * ordering them costs about 1.2 µs each on SQLite (6 ms at 5,000), no more than reading the newest
 * rows (about 4 ms for 1,000), which in a large event would not hold a page of so rare a q anyway.
 */
const fewCandidates = 5000;

/**
 * A q that many attendees hold is answered by the newest rows; the index answers the rest
 * (db/attendee-search.ts). Both apply the same rule, so the answer is the same either way. Where
 * the index counts cheaply, a q it names few attendees for skips the newest rows.
 */
async function search(db: Db, eventId: string, q: string, limit: number) {
  if (countsCandidatesCheaply(db)) {
    const few = await fewNewestCandidates(db, eventId, q, fewCandidates, limit * 2);
    if (few !== 'many') return throughIndex(db, eventId, q, limit, few);
  }
  const newest = await matching(attendeeQuery(db, newestWindow(db, eventId)), q, limit);
  if (newest.length === limit) return newest;
  return throughIndex(db, eventId, q, limit);
}

/**
 * The answer from the index: its newest candidates first, twice the page (`known` when the count
 * gave them already), read and checked by the rule. Only when those were as many as asked and too
 * many failed the rule (an erased attendee named by an order reference, say) are all the
 * candidates read.
 */
async function throughIndex(db: Db, eventId: string, q: string, limit: number, known?: string[]) {
  const most = limit * 2;
  const newest = known ?? (await newestCandidates(db, eventId, q, most));
  if (newest === null || newest.length === 0) return [];
  const ids = sql.join(newest.map((id) => sql`${id}`));
  const rows = await matching(named(db, ids), q, limit);
  if (rows.length === limit || newest.length < most) return rows;
  const all = await searchCandidates(db, eventId, q);
  return all === null ? [] : matching(named(db, all), q, limit);
}

/** How many of the event's newest attendees a search reads before it asks the index. */
const windowSize = 1000;

/**
 * The event's newest attendees, as many as windowSize, newest first. Read in that order, a search
 * stops at its page's last match: a q many hold costs a few rows, not the window's (and not a sort).
 */
function newestWindow(db: Db, eventId: string): AttendeesRead {
  return db
    .selectFrom('attendees')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('created_utc', 'desc')
    .orderBy('id', 'desc')
    .limit(windowSize)
    .as('attendees');
}

/**
 * The event's attendees `among` names. A filter on the event here would let the store walk the
 * whole event newest first, testing each row against `among`, instead of reading `among`.
 */
function named(db: Db, among: Expression<unknown>) {
  return attendeeQuery(db).where(sql<boolean>`${sql.ref('attendees.id')} in (${among})`);
}

/**
 * The search's rule over the attendees `read` reads (those of one event): q in a name, email,
 * company or order reference (case ignored; %, _ and \\ as themselves), not erased, newest first.
 */
async function matching(read: ReturnType<typeof attendeeQuery>, q: string, limit: number) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return read
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
    .limit(limit)
    .execute();
}
