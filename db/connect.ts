// Opens the database, SQLite or PostgreSQL by its location (a file or a postgres:// URL). SQLite runs
// in WAL mode with foreign keys and a busy timeout; both are migrated to the latest schema by the
// same migrations (db/dialect.ts says the schema in PostgreSQL's terms).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  type LogEvent,
  PostgresDialect,
  type SqliteDatabase as SqliteDatabaseLike,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { type CheckpointLog, startCheckpointer, writerCheckpointPages } from './checkpointer';
import { storeOf } from './dialect';
import type { Database } from './schema';
import { openSqliteFile } from './sqlite-driver';
import { SqliteDialectTakingTurns } from './sqlite-turns';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
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
}

/** PostgreSQL connections a process opens unless told otherwise (TESSERA_DB_CONNECTIONS). */
export const defaultConnections = 10;
/**
 * Connections kept from writers: a request's reads, the rate counters and the dispatcher's
 * statements must not wait for a write transaction to end (a write may read beside its transaction).
 */
export const connectionsForReads = 2;

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
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.queryLog });
  return { db, writers: Math.max(1, connections - connectionsForReads), close: () => db.destroy() };
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
  const db = new Kysely<Database>({
    dialect: new SqliteDialectTakingTurns({ database: withStatementCache(sqlite) }, sqlite, patience),
    log: options.queryLog,
  });
  return {
    db,
    writers: 1,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely prepares every query anew; compiling the same SQL on every call was a sixth of the
 * check-in path's time. Statements are kept by their SQL text (queries are parameterised, so the
 * set is small) and reused.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabaseLike {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = withFastRows(sqlite.prepare(sql));
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Rows as objects, made twice as fast: better-sqlite3 builds each row object one property at a
 * time, which cost a page of 500 attendees about 2.5 ms of its 4.5. The statement answers arrays
 * instead, and one function per statement, generated from its column names, turns each into an
 * object literal of a fixed shape. A name given twice (a join's selectAll) keeps its last column,
 * as better-sqlite3's objects do.
 */
function withFastRows(statement: SqliteDatabase.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const lastIndex = new Map<string, number>();
  for (const [i, column] of statement.columns().entries()) lastIndex.set(column.name, i);
  const fields = [...lastIndex].map(([name, i]) => `${JSON.stringify(name)}: r[${i}]`);
  const toObject = new Function('r', `return { ${fields.join(', ')} };`) as (row: unknown[]) => unknown;
  return {
    reader: true,
    all(parameters) {
      const rows = statement.all(parameters) as unknown[];
      for (let i = 0; i < rows.length; i += 1) rows[i] = toObject(rows[i] as unknown[]);
      return rows;
    },
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

export { MigrationRefused, type MigrationStatus, migrateToLatest, migrationStatus } from './migrate';
