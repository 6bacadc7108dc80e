// Brings a database to this version's schema, all or nothing. The pending migrations run in one
// transaction on both stores (SQLite's DDL is transactional too: db/sqlite-adapter.ts), so a
// migration that fails leaves the database exactly as it was before the start; the start is then
// refused with a message naming the migration, its cause and what to do. A database that records a
// migration this version does not know was made by a newer version and is refused before anything
// runs. PostgreSQL's processes take Kysely's migration lock (an advisory lock) in turn; SQLite's
// take the write lock (BEGIN IMMEDIATE). SQLite's run with foreign keys off (db/sqlite-adapter.ts):
// a migration that deletes rows deletes what refers to them itself, and a table rebuild checks
// every reference before it is kept (db/rebuild-table.ts).
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database } from './schema';

/** The database (db/connect.ts names it Db; spelled out here, as connect re-exports this file). */
type Db = Kysely<Database>;

import { isPostgres, postgresSchema } from './dialect';
import { allMigrations } from './migrations';

/** Why a start was refused: a migration failed, or the database is newer than this version. */
export class MigrationRefused extends Error {
  constructor(
    readonly code: 'migrationFailed' | 'databaseNewer',
    message: string,
  ) {
    super(message);
    this.name = 'MigrationRefused';
  }
}

/** Where a database stands: the migrations it has run, those this version would still run, and any it does not know. */
export interface MigrationStatus {
  applied: { name: string; executedUtc: string }[];
  pending: string[];
  /** Recorded by a newer version of Tessera: this one cannot run on the database. */
  newer: string[];
}

function migratorOf(db: Db, migrations: Record<string, Migration>): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  return new Migrator({ db: isPostgres(db) ? db.withPlugin(postgresSchema) : db, provider });
}

/** The names kysely_migration records (none when the database is new). */
async function recordedMigrations(db: Db): Promise<string[]> {
  const table = isPostgres(db)
    ? await sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`.execute(db)
    : await sql<{ found: string | null }>`
        select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
        db,
      );
  if (!table.rows[0]?.found) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

export async function migrationStatus(
  db: Db,
  migrations: Record<string, Migration> = allMigrations,
): Promise<MigrationStatus> {
  const all = await migratorOf(db, migrations).getMigrations();
  return {
    applied: all
      .filter((m) => m.executedAt !== undefined)
      .map((m) => ({ name: m.name, executedUtc: (m.executedAt as Date).toISOString() })),
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
    newer: compareMigrations(await recordedMigrations(db), migrations).newer,
  };
}

/** Of the migrations a database records: those this version would still run, and those it does not know. */
export function compareMigrations(
  applied: readonly string[],
  migrations: Record<string, Migration> = allMigrations,
): { pending: string[]; newer: string[] } {
  const done = new Set(applied);
  return {
    pending: Object.keys(migrations)
      .sort()
      .filter((name) => !done.has(name)),
    newer: applied.filter((name) => !(name in migrations)),
  };
}

function newerRefusal(newer: string[]): MigrationRefused {
  return new MigrationRefused(
    'databaseNewer',
    `This database was made by a newer version (${newer.join(', ')}); run that version of Tessera or restore a backup. Nothing was changed.`,
  );
}

/**
 * Runs the pending migrations (names in order; none when the database is current). Throws
 * MigrationRefused when they cannot run, the database left as it was.
 */
export async function migrateToLatest(
  db: Db,
  migrations: Record<string, Migration> = allMigrations,
): Promise<string[]> {
  const { newer } = compareMigrations(await recordedMigrations(db), migrations);
  if (newer.length > 0) throw newerRefusal(newer);
  const { error, results = [] } = await migratorOf(db, migrations).migrateToLatest();
  if (!error) return results.map((r) => r.migrationName);
  const failed = results.find((r) => r.status === 'Error')?.migrationName;
  // Another process may have run newer migrations in between.
  const newerNow = compareMigrations(await recordedMigrations(db), migrations).newer;
  if (newerNow.length > 0) throw newerRefusal(newerNow);
  const cause = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  const what = failed ? `Database migration ${failed} failed` : 'The database could not be migrated';
  const kept = failed
    ? ` None of the pending migrations (${results.map((r) => r.migrationName).join(', ')}) was kept: the database is as it was before this start.`
    : '';
  throw new MigrationRefused(
    'migrationFailed',
    `${what}: ${cause}.${kept} Tessera does not start on a database it cannot migrate. Run the previous version on it, or restore the backup made before upgrading, and report this message to the project.`,
  );
}
