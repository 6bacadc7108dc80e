// better-sqlite3's compiled addon, loaded from its packaged file (sqliteFiles below) rather than
// found by the driver beside itself: the single executable carries it inside, and a driver bundled
// into the executable has no folder of its own to look in. Every connection passes these options.
import { createRequire } from 'node:module';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { installedFile, packagedFiles } from './packaged-files';

// Node's own loader for a .node file: one copy per path in a process, whoever asks.
const require = createRequire(import.meta.url);

/** The driver's packaged files: its addon, and its JavaScript for the threads that load it by path. */
export const sqliteFiles = packagedFiles({
  'better_sqlite3.node': { path: installedFile('better-sqlite3', 'build', 'Release', 'better_sqlite3.node') },
  // For the checkpoint thread (db/checkpointer.ts), which loads the driver by path.
  'better-sqlite3.cjs': { path: () => require.resolve('better-sqlite3'), bundled: true },
});
let addon: object | undefined;

/** Options for `new SqliteDatabase(file, …)`: the addon, loaded once. */
export function sqliteDriverOptions(): SqliteDatabase.Options {
  addon ??= require(sqliteFiles.path('better_sqlite3.node')) as object;
  // The driver takes a loaded addon too (its types say only a path): a path it would require
  // itself, which inside the executable's bundle reaches Node's built-ins only.
  return { nativeBinding: addon as unknown as string };
}

/**
 * A thread of its own running `source`, plain CommonJS that loads nothing of ours: it finds the
 * driver's JavaScript and its addon by path (`workerData.driver`, `workerData.addon`: the installed
 * ones, or the single executable's copies) and the database at `workerData.file`, beside `data`.
 * Used by the checkpointer (db/checkpointer.ts) and the reading thread (db/reading-thread.ts).
 */
export function sqliteThread(
  source: string,
  file: string,
  options: { data?: object; resourceLimits?: ResourceLimits } = {},
): Worker {
  const driver = sqliteFiles.path('better-sqlite3.cjs');
  const addon = sqliteFiles.path('better_sqlite3.node');
  return new Worker(source, {
    eval: true,
    workerData: { ...options.data, driver, addon, file },
    // None of the process's flags: with --input-type=module (or a loader) the source would be
    // read as an ES module, where require does not exist.
    execArgv: [],
    resourceLimits: options.resourceLimits,
  });
}

/** A connection to a SQLite file with the packaged addon: the one way the service opens one. */
export function openSqliteFile(file: string, options: SqliteDatabase.Options = {}): SqliteDatabase.Database {
  return new SqliteDatabase(file, { ...options, ...sqliteDriverOptions() });
}
