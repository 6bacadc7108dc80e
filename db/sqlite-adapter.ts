// Kysely's SQLite adapter says SQLite's schema changes are not transactional, so its Migrator ran
// each migration outside any transaction: one that failed half-way left half a schema. SQLite's
// CREATE, ALTER and DROP do run inside transactions; this adapter says so, and the Migrator then
// runs the pending migrations in one (BEGIN IMMEDIATE: db/sqlite-turns.ts), kept whole or not at all.
// Its "migration lock", taken on the connection before that transaction begins, turns foreign keys
// off for the migrations' table rebuilds (db/rebuild-table.ts), as SQLite's documentation asks:
// the pragma has no effect inside a transaction.
// biome-ignore-all lint/suspicious/noExplicitAny: the adapter's interface takes any database.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export class SqliteTransactionalAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`pragma foreign_keys = off`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
