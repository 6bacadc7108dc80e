// `tessera migrate`: where a database stands (--status, which reads and never migrates, so it runs
// beside a serving process without holding it up) and the pending migrations run as a step of
// their own before an upgraded version starts (which would run them too).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tesseraVersion } from '../core/platform/version';
import { migrateToLatest, migrationStatus, openDatabase } from '../db/connect';
import { allMigrations } from '../db/migrations';
import { printableDatabase, SettingsError } from './settings';

export interface MigrateFlags {
  /** The data folder (its tessera.db), resolved. */
  dataDir: string;
  /** A PostgreSQL URL instead. */
  database?: string;
}

function locationOf(flags: MigrateFlags): { location: string; printable: string } {
  if (flags.database) return { location: flags.database, printable: printableDatabase(flags.database) };
  const file = join(flags.dataDir, 'tessera.db');
  return { location: file, printable: file };
}

/** A SQLite file that is not there is not made by asking about it. */
function missingSqlite(flags: MigrateFlags, file: string): boolean {
  return !flags.database && !existsSync(file);
}

export async function migrateStatus(flags: MigrateFlags) {
  const { location, printable } = locationOf(flags);
  const answer = (applied: string[], pending: string[], newer: string[]) => ({
    database: printable,
    version: tesseraVersion,
    applied: applied.length,
    latestApplied: applied.at(-1) ?? null,
    pending,
    newer,
  });
  if (missingSqlite(flags, location)) return answer([], Object.keys(allMigrations).sort(), []);
  const { db, close } = openDatabase(location);
  try {
    const status = await migrationStatus(db);
    const applied = [...status.applied.map((m) => m.name), ...status.newer].sort();
    return answer(applied, status.pending, status.newer);
  } finally {
    await close();
  }
}

export async function migrate(flags: MigrateFlags) {
  const { location, printable } = locationOf(flags);
  if (missingSqlite(flags, location))
    throw new SettingsError(
      `There is no database at ${location}: \`tessera serve\` makes one (give --data for another data folder).`,
    );
  const { db, close } = openDatabase(location);
  try {
    const ran = await migrateToLatest(db);
    const status = await migrationStatus(db);
    return {
      database: printable,
      version: tesseraVersion,
      ran,
      applied: status.applied.length,
      latestApplied: status.applied.map((m) => m.name).at(-1) ?? null,
      pending: status.pending,
    };
  } finally {
    await close();
  }
}
