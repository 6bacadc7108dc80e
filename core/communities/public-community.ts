// What the public sees of a community at its address /c/{slug}: a published community only, with
// what it is, where it meets, how to join, and its published meetups still to come (with links to
// their pages). Member names are never shown. Slugs are unique across the deployment.
import type { Db } from '../../db/connect';
import type { Clock } from '../platform/clock';
import { venueTimeRange } from '../platform/time';

export interface PublicCommunity {
  name: string;
  summary: string | null;
  where: string;
  joinPolicy: 'open' | 'approval';
  members: number;
  meetups: { name: string; slug: string; when: string }[];
}

export async function publicCommunity(db: Db, clock: Clock, slug: string): Promise<PublicCommunity | null> {
  const community = await db
    .selectFrom('communities')
    .selectAll()
    .where('slug', '=', slug)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (!community) return null;
  const { members } = await db
    .selectFrom('community_members')
    .select((eb) => eb.fn.countAll<number>().as('members'))
    .where('community_id', '=', community.id)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  const meetups = await db
    .selectFrom('events')
    .select(['name', 'slug', 'starts_utc', 'ends_utc', 'time_zone'])
    .where('community_id', '=', community.id)
    .where('status', '=', 'published')
    .where('starts_utc', '>', clock.now().toISOString())
    .orderBy('starts_utc')
    .execute();
  return {
    name: community.name,
    summary: community.summary,
    where: community.online === 1 ? 'Online' : (community.city ?? ''),
    joinPolicy: community.join_policy,
    members: Number(members),
    meetups: meetups.map((m) => ({
      name: m.name,
      slug: m.slug,
      when: venueTimeRange(m.starts_utc, m.ends_utc, m.time_zone),
    })),
  };
}
