// The public Sponsor resource: who supports an event, at which level (its name and rank travel
// with the sponsor, so a list can be shown as it is ordered) and its place within that level.
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import { int32, text, uuid } from '../platform/schemas';

/** What a sponsor without a level ranks: below every level (levels rank from 1 up). */
export const noLevelRank = 0;

export const sponsorSchema = v.object({
  sponsorId: uuid('The sponsor id.'),
  eventId: uuid('The event id.'),
  name: text('Name, as the event shows it.'),
  level: v.nullable(text("Its level's name, in the organiser's words; null without a level.")),
  levelId: v.nullable(uuid('Its level; null without a level.')),
  levelRank: int32(`Its level's rank, highest first; ${noLevelRank} without a level (listed last).`),
  website: v.nullable(v.pipe(v.string(), v.url(), v.description('Its website.'))),
  logoUrl: v.nullable(v.pipe(v.string(), v.url(), v.description('Address of its logo.'))),
  description: v.nullable(text('What it does, as the event shows it.')),
  booth: v.nullable(text('Where to find its stand at the venue.')),
  sortOrder: int32('Place within its level.'),
});

export type SponsorView = v.InferOutput<typeof sponsorSchema>;

/** The rank a sponsor is listed by: its level's, or noLevelRank. */
export const levelRank = sql<number>`coalesce(${sql.ref('sponsor_levels.rank')}, ${noLevelRank})`;

/** Sponsors with the name and rank of their level. */
export function sponsorQuery(db: Db) {
  return db
    .selectFrom('sponsors')
    .leftJoin('sponsor_levels', 'sponsor_levels.id', 'sponsors.level_id')
    .selectAll('sponsors')
    .select(['sponsor_levels.name as level_name', levelRank.as('level_rank')]);
}

export type SponsorJoinedRow = Awaited<
  ReturnType<ReturnType<typeof sponsorQuery>['executeTakeFirstOrThrow']>
>;

export function sponsorView(row: SponsorJoinedRow): SponsorView {
  return {
    sponsorId: row.id,
    eventId: row.event_id,
    name: row.name,
    level: row.level_name,
    levelId: row.level_id,
    levelRank: row.level_rank,
    website: row.website,
    logoUrl: row.logo_url,
    description: row.description,
    booth: row.booth,
    sortOrder: row.sort_order,
  };
}
