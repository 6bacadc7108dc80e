// SQLite: a read answered at once, on the server's connection as it stands. Every statement through
// Kysely waits for the one connection (a transaction in flight holds it across its awaits, so a
// call's first read waited for the write before it to commit) and then goes through its driver's
// promises. A read whose caller can tell a transaction's unfinished writes apart (the key
// generation, which only rises: core/platform/storage/key-cache.ts) is answered here instead,
// synchronously: it sees what is committed, and inside a transaction in flight what that one
// wrote so far.
import type { SqliteDatabase as SqliteConnection } from 'kysely';
import type { Db } from './schema';

/** The server's SQLite connection (with its statement cache) behind each database opened on a file. */
const connections = new WeakMap<Db, SqliteConnection>();

/** Registers the connection behind `db` (db/connect.ts). */
export function readsAtOnceOn(db: Db, connection: SqliteConnection): void {
  connections.set(db, connection);
}

/**
 * The rows `sql` answers, read at once on `db`'s SQLite connection; undefined where that cannot be
 * (PostgreSQL, a transaction's own Kysely handle, the connection busy streaming a read).
 */
export function readAtOnce<R>(db: Db, sql: string, parameters: readonly unknown[]): R[] | undefined {
  const connection = connections.get(db);
  if (!connection) return undefined;
  try {
    return connection.prepare(sql).all(parameters) as R[];
  } catch {
    // The connection is busy with a statement of its own (a read being streamed): the ordinary way.
    return undefined;
  }
}
