// A long read (a whole export) that sees one moment of the database on a connection of its own, so
// it can be read a page at a time without holding the writers' connection: writes go on meanwhile
// and none of them shows in it.
//
// SQLite: a connection of the reading thread (db/reading-thread.ts), opened read-only, with one read
// transaction held from its first statement to the end (WAL keeps that snapshot whole while the
// writer commits); its statements run on that thread, not the server's. The writers' connection is
// never lent: a transaction there would hold every write for the whole read.
// PostgreSQL: a REPEATABLE READ, READ ONLY transaction on a pool connection of its own.
import { type Kysely, type LogEvent, sql, type Transaction } from 'kysely';
import type { ReadingThread } from './reading-thread';
import type { Database, Db } from './schema';
import { sessionsWithSnapshot } from './sessions-at-snapshot';

export interface ReadSnapshot {
  /** Every statement run here sees the same moment; writes are refused. */
  db: Db;
  /** Ends the read and gives its connection back; safe to call twice. */
  release(): Promise<void>;
}

/** Opens a snapshot: the database as it is now, for as long as the caller reads. */
export type OpenSnapshot = () => Promise<ReadSnapshot>;

export function sqliteSnapshots(thread: ReadingThread, queryLog?: (event: LogEvent) => void): OpenSnapshot {
  return async () => {
    const db = thread.connection(queryLog);
    try {
      await sql`begin`.execute(db);
      // A deferred transaction takes its snapshot at its first read: taken now, not at the first page.
      await sql`select count(*) from sqlite_schema`.execute(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    let released: Promise<void> | undefined;
    return {
      db,
      release: () => {
        released ??= (async () => {
          try {
            await sql`commit`.execute(db);
          } finally {
            await db.destroy();
          }
        })();
        return released;
      },
    };
  };
}

export function postgresSnapshots(db: Kysely<Database>): OpenSnapshot {
  return () =>
    new Promise<ReadSnapshot>((opened, failed) => {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => {
        end = resolve;
      });
      let snapshot: ReadSnapshot | undefined;
      // The transaction's callback lasts as long as the read: it hands its transaction out and
      // waits for release; Kysely then commits and gives the connection back to the pool.
      const done = db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(async (trx: Transaction<Database>) => {
          // Its first statement fixes the snapshot: the moment of opening, not of the first page.
          // The sessions go with it (db/sequence.ts sessionsWithSnapshot): a transaction of another
          // database that ended before the first page would otherwise hold every row back.
          await sessionsWithSnapshot(trx);
          await sql`select 1`.execute(trx);
          snapshot = {
            db: trx,
            release: async () => {
              end();
              await done;
            },
          };
          opened(snapshot);
          await ended;
        });
      done.catch((error) => {
        if (!snapshot) failed(error);
      });
    });
}

/**
 * At most `atOnce` snapshots open at a time; the next opens when one is released, in the order
 * asked. On PostgreSQL each holds a pool connection for as long as its read lasts: without a
 * bound, a few whole exports at once would leave writes and reads waiting for a connection.
 */
export function takingTurns(open: OpenSnapshot, atOnce: number): OpenSnapshot {
  let openNow = 0;
  const waiting: (() => void)[] = [];
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else openNow -= 1;
  };
  return async () => {
    if (openNow < atOnce) openNow += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    let snapshot: ReadSnapshot;
    try {
      snapshot = await open();
    } catch (error) {
      leave();
      throw error;
    }
    let left = false;
    return {
      db: snapshot.db,
      release: async () => {
        try {
          await snapshot.release();
        } finally {
          if (!left) {
            left = true;
            leave();
          }
        }
      },
    };
  };
}
