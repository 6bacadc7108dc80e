// Concurrent writes interleaved at the one moment that tests a guard: every call has done its reads,
// none has written. The server's write queue (core/platform/storage/write-batch.ts) decides when
// its writes meet, so no other test chooses that moment. Here each call gets a connection of its own
// whose statements stop before the call's first write until every call has got that far; then they
// write, in whatever order, and only the guards keep them right:
//
// - PostgreSQL: each call in a transaction of its own, as two processes' writes are; the second to
//   write waits on the first's row lock, then works on what it committed. A call that finds under
//   its locks that it must run again (core's runAgain) runs again whole, as the write queue runs it,
//   without meeting the others again; a deadlock's victim does not (the queue would run it again
//   too, but a deadlock is a lock order the tests exist to catch), so it answers the error.
// - SQLite: a transaction writes alone there (BEGIN IMMEDIATE waits for the other to end), so two
//   never interleave inside transactions. The calls read outside one, then write in turn, each in a
//   transaction of its own from its first write to its end: a later call writes on what an earlier
//   one committed, from reads that no longer hold, so the statements' own conditions are all that
//   keeps it right; a refusal undoes what its call wrote, as the server's write queue does.
import SqliteDatabase from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { type Clock, frozenAt } from '../../core/platform/clock';
import { type WriteBatcher, writeAttempts } from '../../core/platform/storage/write-batch';
import type { Db } from '../../db/connect';
import { storeOf } from '../../db/dialect';
import { askedToRunAgain } from '../../db/errors';
import type { Database } from '../../db/schema';

// A call of the scan function (db/migrations/0035) writes too: on PostgreSQL a scan's reads of
// presence and its writes are that one statement. So does a read that locks its rows (db/dialect.ts
// lockingRow, changingRow, referencedRow): it takes them as a write would, and two calls locking
// one row could not both get past it to meet.
// The hold of its event a write takes with its first read (core/platform/pipeline/load-event.ts)
// is not one: writes at one event all hold it, and the calls meet after their reads as before.
const writes =
  /^\s*(insert|update|delete)\b|^\s*select\b[^;]*?\bfrom tessera_scan_v\d+\(|\bfor (no key update|update|key share|share)\b/i;
const eventHold = /^\s*select\b[^;]*?\bfrom "events"[^;]*\bfor key share\s*$/i;

/** How long a call waits for the others at the meeting before the test fails instead of hanging. */
const patienceMs = 5_000;

export interface Interleaving {
  /** A write queue for invoke (only run() is used): each call meets the others before writing. */
  writes: WriteBatcher;
  /** How many calls reached a write having read (the rest ended without writing). */
  metBeforeWriting(): number;
  /** Resolves once `count` calls have reached their first write (or ended without one). */
  arrived(count: number): Promise<void>;
  /** Counts as one of the parties without a call of its own (one run meanwhile, say). */
  standIn(): void;
}

/**
 * Interleaves `parties` calls made at once on the database at `location` (a file or a URL). Each
 * meets the others before its first write (or locking read), or before its first statement `meetAt`
 * matches when given (to hold a call after reads it locks, say).
 */
export function interleaved(location: string, parties: number, meetAt: RegExp = writes): Interleaving {
  const meeting = new Meeting(parties);
  let met = 0;
  /** SQLite: ends when the call writing now has ended; the next waits for it. */
  let writing: Promise<void> = Promise.resolve();
  const run = async <T>(work: (trx: Db, moment: Clock) => Promise<T>): Promise<T> => {
    // The write's moment, as the write queue gives it: the clock read once, when the write starts.
    const moment = frozenAt(new Date());
    let arrived = false;
    const connection = connectionTo(location);
    const { sqlite } = connection;
    /** SQLite: ends this call's turn to write, once it has one. */
    const turn = { end: () => {} };
    const beforeStatement = async (query: CompiledQuery): Promise<void> => {
      if (arrived || !meetAt.test(query.sql) || (meetAt === writes && eventHold.test(query.sql))) return;
      arrived = true;
      met += 1;
      await meeting.arrive();
      if (!sqlite) return;
      const before = writing;
      writing = new Promise((resolve) => {
        turn.end = resolve;
      });
      await before;
      sqlite.exec('BEGIN IMMEDIATE');
    };
    const db = new Kysely<Database>({ dialect: pausing(connection.dialect, beforeStatement) });
    try {
      if (!sqlite) return await runAgainWhenAsked(() => db.transaction().execute((trx) => work(trx, moment)));
      const done = await work(db, moment);
      if (sqlite.inTransaction) sqlite.exec('COMMIT');
      return done;
    } catch (error) {
      if (sqlite?.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    } finally {
      // A call that ended without writing keeps nobody waiting.
      if (!arrived) meeting.count();
      turn.end();
      await db.destroy();
    }
  };
  return {
    writes: { run } as unknown as WriteBatcher,
    metBeforeWriting: () => met,
    arrived: (count) => meeting.reached(count),
    standIn: () => meeting.count(),
  };
}

/** Runs a PostgreSQL transaction again whole when it asked to (core's runAgain), as often as the queue does. */
async function runAgainWhenAsked<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= writeAttempts || !askedToRunAgain(error)) throw error;
    }
  }
}

/** One connection of its own, as another process would have (SQLite's handle too, for its turns). */
function connectionTo(location: string): { dialect: Dialect; sqlite?: SqliteDatabase.Database } {
  if (storeOf(location) === 'postgres')
    return { dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) }) };
  const sqlite = new SqliteDatabase(location);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { dialect: new SqliteDialect({ database: sqlite }), sqlite };
}

/** Answers once `parties` calls have arrived (or ended). */
class Meeting {
  private arrived = 0;
  private waiting: { count: number; resolve: () => void }[] = [];
  private everyone!: () => void;
  private readonly all = new Promise<void>((resolve) => {
    this.everyone = resolve;
  });

  constructor(private readonly parties: number) {}

  count(): void {
    this.arrived += 1;
    for (const w of this.waiting.filter((w) => w.count <= this.arrived)) w.resolve();
    this.waiting = this.waiting.filter((w) => w.count > this.arrived);
    if (this.arrived === this.parties) this.everyone();
  }

  reached(count: number): Promise<void> {
    if (this.arrived >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  async arrive(): Promise<void> {
    this.count();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`only ${this.arrived} of ${this.parties} calls got to their first write`)),
        patienceMs,
      );
    });
    try {
      await Promise.race([this.all, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A dialect whose connections await `before(query)` ahead of each statement a call runs. */
function pausing(inner: Dialect, before: (query: CompiledQuery) => Promise<void>): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new PausingDriver(inner.createDriver(), before),
  };
}

class PausingDriver implements Driver {
  /** The driver's own connection behind each one handed out: its methods need the real one. */
  private readonly own = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly before: (query: CompiledQuery) => Promise<void>,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    const paused: DatabaseConnection = {
      executeQuery: async (query) => {
        await this.before(query);
        return connection.executeQuery(query);
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    this.own.set(paused, connection);
    return paused;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(this.ownOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(this.ownOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(this.ownOf(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.ownOf(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  private ownOf(connection: DatabaseConnection): DatabaseConnection {
    return this.own.get(connection) ?? connection;
  }
}
