// The backup file's format: a SQLite database (the online-backup copy of tessera.db, or empty on
// PostgreSQL) with two tables of its own beside the service's: the data folder's other files, and
// what the backup is (format, Tessera version, when, from which kind of store, rows per table).
// One file, readable with any SQLite tool, checked with PRAGMA integrity_check.
import type SqliteDatabase from 'better-sqlite3';

/** The backup's own tables; a restore drops them from the database it brings back. */
export const filesTable = 'tessera_backup_files';
export const infoTable = 'tessera_backup_info';
export const backupTables = [filesTable, infoTable] as const;

/** Bumped when a restore of this version could no longer read what an older one wrote. */
export const backupFormat = 1;

export type SourceKind = 'sqlite' | 'postgres';

export interface BackupInfo {
  format: number;
  tesseraVersion: string;
  madeUtc: string;
  source: SourceKind;
  /** The migrations the copied database had run (empty on PostgreSQL: the database is pg_dump's). */
  migrations: string[];
  /** Rows per table of the copied database. */
  rows: Record<string, number>;
}

export interface DataFolderFile {
  /** Relative to the data folder, with forward slashes. */
  path: string;
  mode: number;
  bytes: Buffer;
}

/** A backup or restore that cannot go ahead; the message says why and what to do. */
export class BackupRefused extends Error {}

export function writeBackupTables(db: SqliteDatabase.Database, info: BackupInfo, files: DataFolderFile[]) {
  db.exec(`create table ${infoTable} (name text primary key, value text not null)`);
  db.exec(`create table ${filesTable} (path text primary key, mode integer not null, bytes blob not null)`);
  const putInfo = db.prepare(`insert into ${infoTable} (name, value) values (?, ?)`);
  const putFile = db.prepare(`insert into ${filesTable} (path, mode, bytes) values (?, ?, ?)`);
  db.transaction(() => {
    for (const [name, value] of Object.entries(info)) putInfo.run(name, JSON.stringify(value));
    for (const file of files) putFile.run(file.path, file.mode, file.bytes);
  })();
}

/** The info and files of a backup; refused when the file is not one this version can read. */
export function readBackupTables(db: SqliteDatabase.Database): { info: BackupInfo; files: DataFolderFile[] } {
  const present = new Set(
    (db.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map(
      (t) => t.name,
    ),
  );
  if (!backupTables.every((t) => present.has(t)))
    throw new BackupRefused(
      'This is a SQLite database but not a Tessera backup (it has no backup tables). Give a file made by tessera backup.',
    );
  const entries = db.prepare(`select name, value from ${infoTable}`).all() as {
    name: string;
    value: string;
  }[];
  const info = Object.fromEntries(entries.map((e) => [e.name, JSON.parse(e.value)])) as BackupInfo;
  if (typeof info.format !== 'number' || typeof info.tesseraVersion !== 'string')
    throw new BackupRefused('The backup says neither its format nor the Tessera version that made it.');
  const files = db
    .prepare(`select path, mode, bytes from ${filesTable} order by path`)
    .all() as DataFolderFile[];
  return { info, files };
}

/** Rows per table of a SQLite database, the backup's own tables left out. */
export function rowCounts(db: SqliteDatabase.Database): Record<string, number> {
  const tables = (
    db
      .prepare(
        `select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`,
      )
      .all() as { name: string }[]
  )
    .map((t) => t.name)
    .filter((name) => !(backupTables as readonly string[]).includes(name));
  const rows: Record<string, number> = {};
  for (const name of tables)
    rows[name] = (
      db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }
    ).n;
  return rows;
}

/** PRAGMA integrity_check: refused with SQLite's first findings unless it answers ok. */
export function checkIntegrity(db: SqliteDatabase.Database, what: string): void {
  const findings = (db.pragma('integrity_check') as { integrity_check: string }[]).map(
    (r) => r.integrity_check,
  );
  if (findings.length !== 1 || findings[0] !== 'ok')
    throw new BackupRefused(`${what} fails SQLite's integrity check: ${findings.slice(0, 3).join('; ')}.`);
}

/** Whether version a is newer than b (major.minor.patch; a pre-release sorts before its release). */
export function newerVersion(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number(n) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  if (x.pre === y.pre) return false;
  if (x.pre === undefined) return true;
  if (y.pre === undefined) return false;
  return x.pre > y.pre;
}
