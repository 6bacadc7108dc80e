// PostgreSQL: whether another connection of the test's database waits for a lock, so a test can
// line transactions up by what waits on what instead of by timing.
import { type Kysely, sql } from 'kysely';

/**
 * Resolves once a connection of this database waits for a lock; with `pid`, once that backend does
 * (a database other processes use too may have their waits at any moment).
 */
export async function someoneWaitsOnALock(store: Kysely<any>, pid?: number): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'
        and (${pid ?? null}::int is null or pid = ${pid ?? null}::int)`.execute(store);
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
