// Files the service reads at run time besides its code (SQLite's driver and native addon, the pages'
// scripts and the scanner's files). Run from the sources or the bundle, each is read where it is
// installed; run as the single executable (scripts/build-binary.mjs), each travels inside it as an
// asset of Node's single executable applications. Readers ask by name and never know which. Each
// layer declares its own files in a table of its own (db/sqlite-driver.ts, rest/pages/page-files.ts;
// the builder carries both): this file is only the way to read them, in db, the lowest layer,
// because the addon is one of them.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The checkout or installed package: the first folder upwards with a package.json (from db/ or dist/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the folder of Tessera (its package.json) was not found');
    dir = up;
  }
  return dir;
}

/** A file of a package, where it is installed. */
export const installedFile =
  (name: string, ...parts: string[]) =>
  (): string =>
    join(dirname(require.resolve(`${name}/package.json`)), ...parts);

/** A file beside a package's module entry, for a package that exports no path to it. */
export const fileBesideEntry =
  (name: string, ...parts: string[]) =>
  (): string =>
    join(dirname(require.resolve(name)), ...parts);

/** A file of the checkout or installed package (the folder of package.json). */
export const projectFile =
  (...parts: string[]) =>
  (): string =>
    join(projectRoot(), ...parts);

export interface PackagedFile {
  /** Where it is installed. */
  path: () => string;
  /** The executable carries it bundled with what it requires into one CommonJS file (a package's JS). */
  bundled?: true;
}

/** Whether this process is the single executable (its files are inside it). */
export const runsAsSingleExecutable: boolean = isSea();

/** A table of packaged files by name (their names are the executable's asset names), read by name. */
export function packagedFiles<const F extends Record<string, PackagedFile>>(files: F) {
  type Name = keyof F & string;
  return {
    files,
    /** A packaged file's contents. */
    read(name: Name): Buffer {
      if (runsAsSingleExecutable) return Buffer.from(getAsset(name));
      return readFileSync(files[name]!.path());
    },
    /**
     * A path to the packaged file on disk, for what only loads from a path (a native addon, a
     * worker's require). The executable writes its copy once into a folder of this user's alone
     * under the temporary folder (TMPDIR), named by the contents' hash, so versions never mix.
     */
    path(name: Name): string {
      if (!runsAsSingleExecutable) return files[name]!.path();
      return copyOnDisk(name, Buffer.from(getAsset(name)));
    },
  };
}

function copyOnDisk(name: string, contents: Buffer): string {
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 16);
  const file = join(ownCacheFolder(), `${hash}-${name.replaceAll('/', '-')}`);
  if (!existsSync(file)) {
    const scratch = `${file}.${process.pid}.tmp`;
    writeFileSync(scratch, contents, { mode: 0o700 });
    // Renamed into place whole: another process starting at once never loads half a file.
    renameSync(scratch, file);
  }
  return file;
}

/**
 * The cache folder, made readable and writable by this user only: a native addon is code, and one
 * planted by another user in a shared temporary folder must never be loaded.
 */
function ownCacheFolder(): string {
  const uid = process.getuid?.();
  const folder = join(tmpdir(), `tessera-files${uid === undefined ? '' : `-${uid}`}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  // Owner and mode are POSIX's (Windows has no uid; its temporary folder is the user's own).
  const ownAlone = uid === undefined || (stat.uid === uid && (stat.mode & 0o077) === 0);
  if (!stat.isDirectory() || !ownAlone)
    throw new Error(
      `${folder} must be a folder of this user's alone (mode 0700); remove it, or set TMPDIR to another folder`,
    );
  return folder;
}
