// Opens the database, SQLite or PostgreSQL by its location (a file or a postgres:// URL). SQLite runs
// in WAL mode with foreign keys and a busy timeout; both are migrated to the latest schema by the
// same migrations (db/dialect.ts says the schema in PostgreSQL's terms).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { type CheckpointLog, startCheckpointer, writerCheckpointPages } from './checkpointer';
import { deferringStatements } from './deferred-statements';
import { storeOf } from './dialect';
import { readsAtOnceOn } from './read-at-once';
import { type OpenSnapshot, postgresSnapshots, sqliteSnapshots, takingTurns } from './read-snapshot';
import { readingThread } from './reading-thread';
import type { Database, Db } from './schema';
import { sendingStatements } from './server-statements';
import { openSqliteFile } from './sqlite-driver';
import { withStatementCache } from './sqlite-statements';

export type { Db };

import { SqliteDialectTakingTurns } from './sqlite-turns';

export interface OpenedDatabase {
  db: Db;
  /** A long read's own snapshot of the database (db/read-snapshot.ts). */
  snapshot: OpenSnapshot;
  /**
   * SQLite: a connection on the reading thread (db/reading-thread.ts) for a read that can take a
   * few milliseconds and needs no snapshot (a search), so the server's thread goes on meanwhile.
   * PostgreSQL: none; its reads never hold the event loop.
   */
  readsAside?: Db;
  /** Write transactions the store takes at once: SQLite one, PostgreSQL all connections but the reserved. */
  writers: number;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Receives every query with its duration (for profiling; off by default). */
  queryLog?: (event: LogEvent) => void;
  /** Checkpoints on a thread of their own (db/checkpointer.ts), reporting failures here: the server's choice. */
  backgroundCheckpoints?: CheckpointLog;
  /**
   * The server's: its one thread answers requests, so waiting for another process's write lock
   * (an import at the command line) must not sleep it (db/sqlite-turns.ts).
   */
  serving?: boolean;
  /** PostgreSQL's connections of this process (src/settings.ts, TESSERA_DB_CONNECTIONS); SQLite has one. */
  connections?: number;
  /**
   * Hears of a PostgreSQL connection the server ended (a restart, an administrator): the server's
   * log. Unheard, that error would end the process.
   */
  connectionLost?: (error: Error) => void;
}

/** PostgreSQL connections a process opens unless told otherwise (TESSERA_DB_CONNECTIONS). */
export const defaultConnections = 10;
/**
 * Connections kept from writers: the dispatcher and the mail sender each hold one for as long as
 * they run (their liveness lock, db/liveness.ts), and a request's reads, the rate counters and the
 * dispatcher's statements must not wait for a write transaction to end: two more.
 */
export const connectionsKeptFromWriters = 4;
/**
 * Long reads (whole exports) open at once on PostgreSQL: a tenth of the connections, at least one,
 * so at the default one of the two kept for reads stays free while every writer waits.
 */
export const longReadsAtOnce = (connections: number) => Math.max(1, Math.floor(connections / 10));
/** SQLite's long reads each open a read-only connection of their own, not from a pool. */
const sqliteLongReadsAtOnce = 4;

/** How long SQLite waits for another process's write lock before a write is refused. */
const lockPatience = {
  // SQLite's busy time-out sleeps the thread: the server keeps it short and waits between tries.
  serving: { sleepMs: 10, patienceMs: 60_000 },
  // A command has nothing else to do; it waits its turn beside a busy server for longer.
  command: { sleepMs: 5_000, patienceMs: 180_000 },
};

// Counts, sums and 64-bit columns come back as numbers, as SQLite gives them (pg answers text, to
// be safe beyond 2^53; no count or amount here comes near that).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

export function openDatabase(location: string, options: OpenOptions = {}): OpenedDatabase {
  if (storeOf(location) === 'postgres') return openPostgres(location, options);
  return openSqlite(location, options);
}

function openPostgres(url: string, options: OpenOptions): OpenedDatabase {
  const connections = options.connections ?? defaultConnections;
  // No JIT compilation: it pays for long analytic queries, and every statement here is short. A
  // page whose cost estimate crossed jit_above_cost (a sort priced out, db/dialect.ts inIndexOrder)
  // spent 240 ms compiling to read 500 rows.
  // Pipeline mode: a connection writes each statement without waiting for the answer of the one
  // before, so the statements held back (db/deferred-statements.ts) go in the next one's round trip.
  const pool = new pg.Pool({
    connectionString: url,
    max: connections,
    options: '-c jit=off',
    pipeline: true,
    // A server keeps its connections open rather than ending them after 10 s idle: a connection
    // opened in a rush (an on-sale's first second) costs a new backend, whose caches start empty.
    ...(options.serving ? { min: connections } : {}),
  });
  // A connection the server ends errors as an event, on the pool while idle and on the connection
  // while a request holds it: a statement in flight fails with it, and the pool lets the connection
  // go when it is given back (or at once, idle) and opens another when asked.
  const lost = (error: Error) => options.connectionLost?.(error);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  sendingStatements(pool);
  deferringStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.queryLog });
  if (options.serving) void openEvery(pool, connections);
  return {
    db,
    snapshot: takingTurns(postgresSnapshots(db), longReadsAtOnce(connections)),
    writers: Math.max(1, connections - connectionsKeptFromWriters),
    close: () => db.destroy(),
  };
}

/**
 * Opens all of a server's connections at its start, so its first requests find them open. Not
 * awaited: one that fails is opened again when a request asks (the start's migration has already
 * proven the database reachable).
 */
async function openEvery(pool: pg.Pool, connections: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: connections }, () => pool.connect()));
  for (const one of opened) if (one.status === 'fulfilled') one.value.release();
}

function openSqlite(file: string, options: OpenOptions): OpenedDatabase {
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = openSqliteFile(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  const patience = options.serving ? lockPatience.serving : lockPatience.command;
  sqlite.pragma(`busy_timeout = ${patience.sleepMs}`);
  sqlite.pragma('synchronous = NORMAL');
  // Erased or deleted text is overwritten, not left in free pages for anyone reading the file.
  sqlite.pragma('secure_delete = ON');
  const checkpointer = options.backgroundCheckpoints
    ? startCheckpointer(file, options.backgroundCheckpoints)
    : null;
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${writerCheckpointPages}`);
  const connection = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new SqliteDialectTakingTurns({ database: connection }, sqlite, patience),
    log: options.queryLog,
  });
  readsAtOnceOn(db, connection);
  const reading = readingThread(file);
  const readsAside = reading.connection(options.queryLog);
  return {
    db,
    snapshot: takingTurns(sqliteSnapshots(reading, options.queryLog), sqliteLongReadsAtOnce),
    readsAside,
    writers: 1,
    close: async () => {
      await checkpointer?.stop();
      await reading.stop();
      await db.destroy();
    },
  };
}

export { MigrationRefused, type MigrationStatus, migrateToLatest, migrationStatus } from './migrate';
