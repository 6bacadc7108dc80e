// The data folder's files that a backup carries beside the database: everything in the folder (keys,
// signing keys, the TLS certificate and key, and whatever key file a later version adds), found by
// walking it rather than by name, except
//   - the SQLite database and its companions (tessera.db, -wal, -shm, -journal): the online backup
//     copies the database consistently, a byte copy of the live files would not be;
//   - every dot-file and dot-folder: caches and temporary files (the single executable's unpacked
//     native addon, editors' swap files) that the service makes again;
//   - the backup being written, when it is made inside the data folder.
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { BackupRefused, type DataFolderFile } from './backup-format';

export const databaseFiles = ['tessera.db', 'tessera.db-wal', 'tessera.db-shm', 'tessera.db-journal'];

export interface FolderWalk {
  files: DataFolderFile[];
  /** Entries left out that are neither the database nor dot-entries (links, sockets), with why. */
  skipped: string[];
}

export function readDataFolderFiles(dataDir: string, leaveOut: string[] = []): FolderWalk {
  const files: DataFolderFile[] = [];
  const skipped: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const path = relative(dataDir, full).split(sep).join('/');
      if (name.startsWith('.')) continue;
      if (dir === dataDir && databaseFiles.includes(name)) continue;
      if (leaveOut.includes(full)) continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) files.push({ path, mode: stat.mode & 0o777, bytes: readFileSync(full) });
      else skipped.push(`${path} (not a regular file)`);
    }
  };
  walk(dataDir);
  return { files, skipped };
}

/**
 * Writes the files back under the data folder: folders 0700, each file 0600 at most (a backup
 * never widens a file's permissions beyond the owner's).
 */
export function writeDataFolderFiles(dataDir: string, files: DataFolderFile[]): void {
  for (const file of files) {
    const parts = file.path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..') || file.path.startsWith('/'))
      throw new BackupRefused(`The backup names a file outside the data folder: ${file.path}.`);
    const target = join(dataDir, ...parts);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, file.bytes, { mode: file.mode & 0o600 || 0o600, flag: 'wx' });
  }
}
