// Files the service reads at run time besides its code: SQLite's driver and native addon, Scalar's
// reference bundle, jsQR and the scanner page's files. Run from the sources or the bundle, each is
// read where it is installed; run as the single executable (scripts/build-binary.mjs), each
// travels inside it as an asset of Node's single executable applications. Readers ask by name and
// never know which. It lives in db, the lowest layer, because the addon is one of these files and
// db imports nothing above it.
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

const packageFolder = (name: string) => dirname(require.resolve(`${name}/package.json`));
const scanAppFile = (file: string) => () => join(projectRoot(), 'rest', 'pages', 'scan-app', file);

interface PackagedFile {
  /** Where it is installed. */
  path: () => string;
  /** The executable carries it bundled with what it requires into one CommonJS file (a package's JS). */
  bundled?: true;
}

/** Every packaged file by name; the builder of the executable carries exactly these. */
export const packagedFiles = {
  'better_sqlite3.node': {
    path: () => join(packageFolder('better-sqlite3'), 'build', 'Release', 'better_sqlite3.node'),
  },
  // For the checkpoint thread (db/checkpointer.ts), which loads the driver by path.
  'better-sqlite3.cjs': { path: () => require.resolve('better-sqlite3'), bundled: true },
  // The package exports no path to it: it sits beside the module entry (dist/index.js).
  'scalar-standalone.js': {
    path: () => join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
  },
  'jsQR.js': { path: () => join(packageFolder('jsqr'), 'dist', 'jsQR.js') },
  // The page's script: its modules bundled by the build (scripts/build.mjs) into one file.
  'scan-app/scan.js': { path: () => join(projectRoot(), 'dist', 'scan-app', 'scan.js') },
  'scan-app/scan.css': { path: scanAppFile('scan.css') },
  'scan-app/sw.js': { path: scanAppFile('sw.js') },
  'scan-app/icon.svg': { path: scanAppFile('icon.svg') },
  'scan-app/icon-192.png': { path: scanAppFile('icon-192.png') },
  'scan-app/icon-512.png': { path: scanAppFile('icon-512.png') },
  'scan-app/manifest.webmanifest': { path: scanAppFile('manifest.webmanifest') },
} satisfies Record<string, PackagedFile>;

export type PackagedFileName = keyof typeof packagedFiles;

/** Whether this process is the single executable (its files are inside it). */
export const runsAsSingleExecutable: boolean = isSea();

/** A packaged file's contents. */
export function packagedFile(name: PackagedFileName): Buffer {
  if (runsAsSingleExecutable) return Buffer.from(getAsset(name));
  return readFileSync(packagedFiles[name].path());
}

/**
 * A path to the packaged file on disk, for what only loads from a path (a native addon, a worker's
 * require). The executable writes its copy once into a folder of this user's alone under the
 * temporary folder (TMPDIR), named by the contents' hash, so versions never mix.
 */
export function packagedFilePath(name: PackagedFileName): string {
  if (!runsAsSingleExecutable) return packagedFiles[name].path();
  const contents = packagedFile(name);
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
