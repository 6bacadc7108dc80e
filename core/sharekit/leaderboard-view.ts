// The share-kit leaderboard: who shares the event with their personal links, how many clicks those
// links had and how many registrations they brought, counted from the click and registration rows
// on every call (never kept totals). A registration counts while its ticket is not cancelled.
// Ranked by registrations, then clicks; sharers equal on both share a rank (1, 2, 2, 4).
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import { sharerKinds } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, int32, personalDataSchema, text, uuid } from '../platform/schemas';

/** A sharer's name is personal data; the email is kept only to find them when they erase their data. */
export const sharerPersonal = declarePersonal({
  resource: 'sharer',
  idField: 'sharerId',
  table: 'sharers',
  fields: { name: 'name' },
  storedOnly: ['email'],
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
});

export const leaderboardEntrySchema = v.object({
  rank: int32('Place on the board from 1; sharers with equal registrations and clicks share a place.'),
  sharerId: uuid('The sharer id.'),
  kind: v.pipe(
    v.picklist(sharerKinds),
    v.description('attendee, speaker or sponsor: who shares their personal link.'),
  ),
  name: v.nullable(text('Who shares. Personal data: null without people:read.')),
  attendeeId: v.nullable(uuid("The sharer's own ticket, for an attendee.")),
  speakerId: v.nullable(uuid('The speaker, for a speaker.')),
  sponsorId: v.nullable(uuid('The sponsor, for a sponsor.')),
  clicks: int32('Clicks on their links.'),
  registrations: int32('Tickets registered through their links and not cancelled.'),
  lastSharedUtc: v.nullable(dateTime('When they last shared a link; null: not yet.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type LeaderboardEntry = v.InferOutput<typeof leaderboardEntrySchema>;

/** The event's sharers with their counts and rank, as a table to page through (board.*). */
export function leaderboardQuery(db: Db, eventId: string) {
  const tallies = db
    .selectFrom('sharers')
    .selectAll('sharers')
    .select((eb) => [
      eb
        .selectFrom('share_clicks')
        .innerJoin('share_links', 'share_links.id', 'share_clicks.link_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('share_links.sharer_id', '=', 'sharers.id')
        .as('clicks'),
      eb
        .selectFrom('share_registrations')
        .innerJoin('share_links', 'share_links.id', 'share_registrations.link_id')
        .innerJoin('attendees', 'attendees.id', 'share_registrations.attendee_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('share_links.sharer_id', '=', 'sharers.id')
        .where('attendees.status', '=', 'active')
        .as('registrations'),
      eb
        .selectFrom('share_links')
        .select((e) => e.fn.max('share_links.shared_utc').as('last'))
        .whereRef('share_links.sharer_id', '=', 'sharers.id')
        .as('last_shared_utc'),
    ])
    .where('sharers.event_id', '=', eventId);
  // Ranked over every sharer of the event before a page is cut out of them.
  const ranked = db
    .selectFrom(tallies.as('t'))
    .selectAll('t')
    .select(
      sql<number>`rank() over (order by ${sql.ref('t.registrations')} desc, ${sql.ref('t.clicks')} desc)`.as(
        'rank',
      ),
    );
  return db.selectFrom(ranked.as('board')).selectAll('board');
}

export type LeaderboardRow = Awaited<
  ReturnType<ReturnType<typeof leaderboardQuery>['executeTakeFirstOrThrow']>
>;

export function leaderboardEntryView(reader: Reader, row: LeaderboardRow): LeaderboardEntry {
  return applyPersonalData(
    reader,
    {
      rank: Number(row.rank),
      sharerId: row.id,
      kind: row.kind,
      name: row.name,
      attendeeId: row.attendee_id,
      speakerId: row.speaker_id,
      sponsorId: row.sponsor_id,
      clicks: Number(row.clicks ?? 0),
      registrations: Number(row.registrations ?? 0),
      lastSharedUtc: (row.last_shared_utc as string | null) ?? null,
    },
    sharerPersonal,
    row.erased === 1,
  );
}
