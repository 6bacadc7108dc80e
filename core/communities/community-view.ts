// The public Community resource: a list item (with member and meetup counts) and the detail. A
// community's meetups are its events; upcoming ones are published and not yet started.
import * as v from 'valibot';
import type { CommunityRow } from '../../db/schema';
import { communityStatuses, joinPolicies } from '../../db/values';
import type { Ctx } from '../platform/context';
import type { RowLock } from '../platform/pipeline/load-event-row';
import { loadWorkspaceRow } from '../platform/pipeline/load-workspace-row';
import { dateTime, int32, text, uuid } from '../platform/schemas';

const common = {
  communityId: uuid('The community id.'),
  slug: text('Its address after /c/.'),
  name: text('Its name.'),
  status: v.pipe(v.picklist(communityStatuses), v.description('draft or published.')),
  city: v.nullable(text('Where it meets, when it meets in one city.')),
  online: v.pipe(v.boolean(), v.description('It meets online.')),
  timeZone: text('IANA time zone of its meetups.'),
  url: v.pipe(v.string(), v.url(), v.description('Its public page (/c/{slug}).')),
};

export const communityListItemSchema = v.object({
  ...common,
  members: int32('Active members.'),
  pendingMembers: int32('Members waiting for approval.'),
  upcomingMeetups: int32('Published meetups not yet started.'),
  nextMeetup: v.nullable(
    v.object({
      name: v.nullable(text('Its name.')),
      startsUtc: v.nullable(dateTime('When it starts.')),
    }),
  ),
});

export const communitySchema = v.object({
  ...common,
  summary: v.nullable(text('One line about it.')),
  description: v.nullable(text('Markdown.')),
  languages: v.pipe(v.array(v.string()), v.description('Languages it meets in.')),
  joinPolicy: v.pipe(
    v.picklist(joinPolicies),
    v.description('open (anyone joins at once) or approval (the organiser approves each member).'),
  ),
  createdUtc: dateTime('When it was made.'),
  updatedUtc: dateTime('Last change.'),
});

export type CommunityListItem = v.InferOutput<typeof communityListItemSchema>;
export type CommunityView = v.InferOutput<typeof communitySchema>;

/** The community; `lock` as loadWorkspaceRow's (reference: a member will name it). */
export function loadCommunity(ctx: Ctx, communityId: string, lock?: RowLock): Promise<CommunityRow> {
  return loadWorkspaceRow(ctx, 'communities', communityId, 'community', lock);
}

function commonView(ctx: Ctx, row: CommunityRow) {
  return {
    communityId: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status,
    city: row.city,
    online: row.online === 1,
    timeZone: row.time_zone,
    url: `${ctx.request.origin}/c/${row.slug}`,
  };
}

export function communityView(ctx: Ctx, row: CommunityRow): CommunityView {
  return {
    ...commonView(ctx, row),
    summary: row.summary,
    description: row.description,
    languages: JSON.parse(row.languages) as string[],
    joinPolicy: row.join_policy,
    createdUtc: row.created_utc,
    updatedUtc: row.updated_utc,
  };
}

/** List items for a page of communities: members counted by status, meetups still to come. */
export async function communityListItems(ctx: Ctx, rows: CommunityRow[]): Promise<CommunityListItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await ctx.db
    .selectFrom('community_members')
    .select(['community_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('community_id', 'in', ids)
    .groupBy(['community_id', 'status'])
    .execute();
  const now = ctx.clock.now().toISOString();
  const meetups = await ctx.db
    .selectFrom('events')
    .select(['community_id', 'name', 'starts_utc'])
    .where('community_id', 'in', ids)
    .where('status', '=', 'published')
    .where('starts_utc', '>', now)
    .orderBy('starts_utc')
    .orderBy('id')
    .execute();
  const count = (id: string, status: string) =>
    counts.find((c) => c.community_id === id && c.status === status)?.n ?? 0;
  return rows.map((row) => {
    const upcoming = meetups.filter((m) => m.community_id === row.id);
    const next = upcoming[0];
    return {
      ...commonView(ctx, row),
      members: Number(count(row.id, 'active')),
      pendingMembers: Number(count(row.id, 'pending')),
      upcomingMeetups: upcoming.length,
      nextMeetup: next ? { name: next.name, startsUtc: next.starts_utc } : null,
    };
  });
}
