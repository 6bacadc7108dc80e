// `tessera restore FILE`: brings a backup back into an empty data folder, never over a deployment.
// The file is checked first (a SQLite database passing its integrity check, a backup of a format
// and a Tessera version not newer than this one); everything is written into a dot-folder inside
// the data folder and moved into place at the end, so a refused or failed restore leaves nothing
// that looks like a deployment. The database comes back as tessera.db without the backup's tables;
// the service migrates it forward on its next start when the backup is older.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { tesseraVersion } from '../../core/platform/version';
import { openSqliteFile } from '../../db/sqlite-driver';
import {
  type BackupInfo,
  BackupRefused,
  backupFormat,
  backupTables,
  checkIntegrity,
  newerVersion,
  readBackupTables,
} from './backup-format';
import { writeDataFolderFiles } from './data-folder-files';
import { schemaStanding } from './schema-standing';

export interface RestoreAnswer {
  dataDir: string;
  from: string;
  version: string;
  madeUtc: string;
  source: BackupInfo['source'];
  schema: 'current' | 'behind' | 'ahead';
  tables: number;
  rows: number;
  files: string[];
  notes: string[];
}

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

function startsAsSqlite(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(sqliteHeader.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(sqliteHeader);
  } finally {
    closeSync(fd);
  }
}

/** The data folder's entries, dot-entries aside (caches; the restore's own staging folder). */
function occupied(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir).filter((name) => !name.startsWith('.'));
}

function damaged(file: string, error: unknown): BackupRefused {
  if (error instanceof BackupRefused) return error;
  return new BackupRefused(
    `${file} cannot be read as a Tessera backup (SQLite says: ${(error as Error).message}). It is damaged or truncated: restore another copy.`,
  );
}

export async function restoreBackup(options: { from: string; dataDir: string }): Promise<RestoreAnswer> {
  const file = resolve(options.from);
  const dataDir = resolve(options.dataDir);
  if (!existsSync(file)) throw new BackupRefused(`There is no file ${file}.`);
  const present = occupied(dataDir);
  if (present.length > 0)
    throw new BackupRefused(
      `The data folder ${dataDir} is not empty (it holds ${present.slice(0, 4).join(', ')}). A restore never writes over a deployment: give --data a new or empty folder, or move this one aside first (with its service stopped).`,
    );
  if (!startsAsSqlite(file))
    throw new BackupRefused(
      `${file} is not a Tessera backup (not a SQLite database): give a file made by tessera backup.`,
    );

  let backup: SqliteDatabase.Database;
  let contents: ReturnType<typeof readBackupTables>;
  try {
    backup = openSqliteFile(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw damaged(file, error);
  }
  try {
    try {
      checkIntegrity(backup, `The backup ${file}`);
      contents = readBackupTables(backup);
    } catch (error) {
      throw damaged(file, error);
    }
    const { info, files } = contents;
    if (info.format > backupFormat || newerVersion(info.tesseraVersion, tesseraVersion))
      throw new BackupRefused(
        `The backup was made by Tessera ${info.tesseraVersion}, newer than this one (${tesseraVersion}). Restore it with Tessera ${info.tesseraVersion} or later.`,
      );
    const standing = await schemaStanding(info.migrations);
    if (info.source === 'sqlite' && standing.schema === 'ahead')
      throw new BackupRefused(
        `${standing.notes[0]} Restore it with the Tessera that made it (${info.tesseraVersion}) or later.`,
      );

    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const staging = join(dataDir, `.restoring-${randomBytes(4).toString('hex')}`);
    mkdirSync(staging, { mode: 0o700 });
    try {
      writeDataFolderFiles(staging, files);
      if (info.source === 'sqlite') await restoreDatabase(backup, join(staging, 'tessera.db'));
      // Into place; the folder was checked empty, and nothing of a deployment is there until now.
      for (const name of readdirSync(staging)) renameSync(join(staging, name), join(dataDir, name));
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    const rows = info.rows ?? {};
    return {
      dataDir,
      from: file,
      version: info.tesseraVersion,
      madeUtc: info.madeUtc,
      source: info.source,
      schema: info.source === 'sqlite' ? standing.schema : 'current',
      tables: Object.keys(rows).length,
      rows: Object.values(rows).reduce((a, b) => a + b, 0),
      files: files.map((f) => f.path),
      notes: [
        ...(info.source === 'sqlite' ? standing.notes : []),
        ...(info.source === 'postgres'
          ? [
              'The backup was of a PostgreSQL deployment: restore its database with pg_restore from your pg_dump file (docs/operations.md, "Backups") before starting the service.',
            ]
          : []),
        'Start the service with the same TESSERA_SECRET_KEY as before (webhook signing secrets are encrypted with it; it is not in the data folder unless the service made it there).',
        `Start it: tessera serve --data ${JSON.stringify(dataDir)}`,
      ],
    };
  } finally {
    backup.close();
  }
}

/** The backup's database as tessera.db (0600), its own tables dropped and their pages zeroed. */
async function restoreDatabase(backup: SqliteDatabase.Database, target: string): Promise<void> {
  closeSync(openSync(target, 'wx', 0o600));
  await backup.backup(target, { progress: () => 0x7fffffff });
  const db = openSqliteFile(target);
  try {
    db.pragma('secure_delete = ON');
    for (const table of backupTables) db.exec(`drop table ${table}`);
    checkIntegrity(db, 'The restored database');
  } finally {
    db.close();
  }
}
