// After an erasure the rows say erased, but the bytes they held may still be in the database's
// files: on SQLite in the write-ahead log (every page version written since the last checkpoint),
// on PostgreSQL in the tables' dead row versions until they are vacuumed. This makes the store let
// go of them. SQLite overwrites freed space as it goes (secure_delete, set on every connection), so
// what is left is the log: a TRUNCATE checkpoint copies its newest pages back and empties it.
import { sql } from 'kysely';
import type { Db } from './connect';
import { isPostgres } from './dialect';

/** Tries of a checkpoint while a reader of the server still uses the log. */
const checkpointTries = 50;

/** Makes the store drop the bytes of what was changed in `tables` (not in a transaction). */
export async function forgetFreedBytes(db: Db, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    // VACUUM removes the dead row versions the erasure left; it runs beside live traffic.
    await sql`vacuum ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
    return;
  }
  for (let attempt = 1; ; attempt += 1) {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db);
    if (rows[0]?.busy === 0) return;
    // A reader began before the last write and still reads the log: its read ends in milliseconds.
    if (attempt === checkpointTries)
      throw new Error('The write-ahead log stayed in use; run the erasure again.');
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}
