// A person joins a community once: one membership that is not over (active or waiting for
// approval) per community and email address, held by a unique index so two joins at the same
// moment cannot both win. Someone who left may join again (a new membership beside the old one).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Data the index would refuse is put right first: until now only an import could add a second
  // membership of one address; the earliest joined stays, the others are recorded as left.
  await sql`
    update community_members set status = 'left', left_utc = updated_utc
    where status <> 'left' and email is not null and exists (
      select 1 from community_members other
      where other.community_id = community_members.community_id and other.email = community_members.email
        and other.status <> 'left'
        and (other.joined_utc < community_members.joined_utc
          or (other.joined_utc = community_members.joined_utc and other.id < community_members.id)))`.execute(
    db,
  );
  await sql`
    create unique index community_members_one_per_email on community_members (community_id, email)
    where status <> 'left'`.execute(db);
}
