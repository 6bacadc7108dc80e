// The messages not yet fanned out, in their order, as an index of their own (issue 29). The
// dispatcher takes them `where dispatched_utc is null order by id limit n`; through the
// (dispatched_utc, id) index both stores read every waiting entry and sorted them for each batch,
// and on PostgreSQL the entries of messages just taken (dead until a scan marks them) among them:
// 4.8 ms a batch at an event's door, more with a backlog. Two partial indexes replace it, so each
// question has one index to ask: the waiting messages by id (a batch reads its own rows and stops),
// the dispatched ones by when (the purge of old messages).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index outbox_waiting on outbox (id) where dispatched_utc is null`.execute(db);
  await sql`create index outbox_dispatched on outbox (dispatched_utc) where dispatched_utc is not null`.execute(
    db,
  );
  await sql`drop index outbox_pending`.execute(db);
}
