// `tessera backup --to FILE`: one file holding the database (SQLite's online backup, taken beside
// the running service) and the data folder's keys. The source is opened read-only and never
// migrated; the copy is taken in one step of the backup API, a single read transaction, so it is the
// database as of one moment and never restarts however busy the server is (in WAL mode a reader
// holds no lock the server's writes wait for). The file is written under a temporary name beside
// FILE, checked, made 0600 and only then given its name: there is never a half file at FILE.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tesseraVersion } from '../../core/platform/version';
import { migrationStatus, openDatabase } from '../../db/connect';
import { openSqliteFile } from '../../db/sqlite-driver';
import {
  type BackupInfo,
  BackupRefused,
  backupFormat,
  checkIntegrity,
  rowCounts,
  type SourceKind,
  writeBackupTables,
} from './backup-format';
import { readDataFolderFiles } from './data-folder-files';
import { schemaStanding } from './schema-standing';

export interface BackupAnswer {
  file: string;
  bytes: number;
  version: string;
  madeUtc: string;
  source: SourceKind;
  /** Where the copied database stands against this version's migrations. */
  schema: 'current' | 'behind' | 'ahead';
  tables: number;
  rows: number;
  files: string[];
  skipped: string[];
  notes: string[];
}

// More pages than any database has: the whole copy in one step of the backup API.
const allPages = 0x7fffffff;

export async function makeBackup(options: {
  to: string;
  dataDir: string;
  /** A PostgreSQL URL: the database is pg_dump's; the file holds the data folder's files. */
  database?: string;
  force?: boolean;
}): Promise<BackupAnswer> {
  const file = resolve(options.to);
  const source = join(options.dataDir, 'tessera.db');
  refuseWhereNoBackupGoes(file, source, options);

  const partial = join(dirname(file), `.${basename(file)}.partial-${randomBytes(4).toString('hex')}`);
  // Made 0600 before anything is written into it: the file holds the deployment's keys.
  closeSync(openSync(partial, 'wx', 0o600));
  try {
    const made = options.database ? await postgresPart(options.database) : await copySqlite(source, partial);
    const folder = readDataFolderFiles(options.dataDir, [file, partial]);
    const madeUtc = new Date().toISOString();
    const out = openSqliteFile(partial);
    try {
      // One file: no -wal beside it.
      out.pragma('journal_mode = DELETE');
      const rows = options.database ? {} : rowCounts(out);
      const info: BackupInfo = {
        format: backupFormat,
        tesseraVersion,
        madeUtc,
        source: options.database ? 'postgres' : 'sqlite',
        migrations: made.migrations,
        rows,
      };
      writeBackupTables(out, info, folder.files);
      checkIntegrity(out, 'The backup just written');
      out.close();
      putInPlace(partial, file, options.force === true);
      const standing = await schemaStanding(made.migrations);
      return {
        file,
        bytes: statSync(file).size,
        version: tesseraVersion,
        madeUtc,
        source: info.source,
        schema: standing.schema,
        tables: Object.keys(rows).length,
        rows: Object.values(rows).reduce((a, b) => a + b, 0),
        files: folder.files.map((f) => f.path),
        skipped: folder.skipped,
        notes: [
          ...standing.notes,
          ...(options.database
            ? [
                'The database is in PostgreSQL: back it up with pg_dump (docs/operations.md, "Backups"). This file holds the data folder\'s files (keys, signing keys, TLS), which pg_dump does not.',
              ]
            : []),
          "The file holds the deployment's keys: keep it off this machine, encrypted, readable by the operator only.",
        ],
      };
    } finally {
      if (out.open) out.close();
    }
  } finally {
    if (existsSync(partial)) unlinkSync(partial);
  }
}

/** Refuses a backup with nowhere to go or nothing to copy, before anything is written. */
function refuseWhereNoBackupGoes(
  file: string,
  source: string,
  options: { dataDir: string; database?: string; force?: boolean },
): void {
  if (existsSync(file) && !options.force)
    throw new BackupRefused(`${file} already exists. Give another --to, or --force to replace it.`);
  if (!existsSync(dirname(file))) throw new BackupRefused(`The folder ${dirname(file)} does not exist.`);
  if (!existsSync(options.dataDir))
    throw new BackupRefused(`There is no data folder at ${options.dataDir}: give --data (or TESSERA_DATA).`);
  if (!options.database && !existsSync(source))
    throw new BackupRefused(
      `There is no database at ${source}: give the data folder the service runs on (--data), or --database for PostgreSQL.`,
    );
}

/** The finished copy made durable under its name; without force, never over a file that appeared meanwhile. */
function putInPlace(partial: string, file: string, force: boolean): void {
  const fd = openSync(partial, 'r');
  fsyncSync(fd);
  closeSync(fd);
  // Without --force, link refuses a FILE that appeared meanwhile; rename would replace it.
  if (force) renameSync(partial, file);
  else {
    try {
      linkSync(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new BackupRefused(`${file} already exists. Give another --to, or --force to replace it.`);
      throw error;
    }
    unlinkSync(partial);
  }
  const dir = openSync(dirname(file), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

/** The online-backup copy of the SQLite database, and the migrations it had run. */
async function copySqlite(source: string, target: string): Promise<{ migrations: string[] }> {
  const from = openSqliteFile(source, { readonly: true, fileMustExist: true });
  try {
    from.pragma('busy_timeout = 5000');
    await from.backup(target, { progress: () => allPages });
  } finally {
    from.close();
  }
  const copy = openSqliteFile(target, { readonly: true });
  try {
    const hasTable = copy
      .prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`)
      .get();
    const migrations = hasTable
      ? (copy.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
          (m) => m.name,
        )
      : [];
    return { migrations };
  } finally {
    copy.close();
  }
}

/** On PostgreSQL: only where its schema stands (read, never migrated); the rows are pg_dump's. */
async function postgresPart(url: string): Promise<{ migrations: string[] }> {
  const { db, close } = openDatabase(url);
  try {
    const status = await migrationStatus(db);
    return { migrations: status.applied.map((m) => m.name) };
  } catch (error) {
    throw new BackupRefused(`Cannot read the PostgreSQL database: ${(error as Error).message}.`);
  } finally {
    await close();
  }
}
