// SQLite with another process beside it (the server, and `tessera import` or `key revoke` at the
// command line): one file, one writer at a time. Two things make that safe:
//
// - Every transaction takes the write lock when it begins (BEGIN IMMEDIATE). A deferred BEGIN
//   reads first and asks for the lock at its first write; when another process wrote in between,
//   SQLite answers SQLITE_BUSY at once, without waiting, because waiting could never help that
//   snapshot. That was the 500s beside an import.
// - A statement that finds the lock held (SQLITE_BUSY outside a transaction, BEGIN included) has
//   done nothing, so it waits its turn and runs again. It waits asynchronously, so a server's
//   event loop goes on answering while an import holds the file; SQLite's own busy time-out, which
//   sleeps the thread, is kept short on the server for that reason.
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { heldByAnotherWriter } from './errors';
import { SqliteTransactionalAdapter } from './sqlite-adapter';

export interface Turns {
  /** How long a statement waits for the lock in all, across its tries, before SQLITE_BUSY is answered. */
  patienceMs: number;
}

export class SqliteDialectTakingTurns extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly sqlite: Database.Database,
    private readonly turns: Turns,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new DriverTakingTurns(this.settings, this.sqlite, this.turns);
  }

  /** Migrations run in one transaction (db/sqlite-adapter.ts). */
  override createAdapter(): DialectAdapter {
    return new SqliteTransactionalAdapter();
  }
}

class DriverTakingTurns extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: Database.Database,
    private readonly turns: Turns,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: <R>(query: CompiledQuery) => this.inTurn(() => connection.executeQuery<R>(query)),
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
        connection.streamQuery<R>(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  private async inTurn<R>(run: () => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
    const giveUpAt = Date.now() + this.turns.patienceMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      // Inside a transaction the lock is already ours: a failure there is the statement's own.
      const retriable = !this.sqlite.inTransaction;
      try {
        return await run();
      } catch (error) {
        if (!retriable || !heldByAnotherWriter(error) || Date.now() >= giveUpAt) throw error;
      }
      // A little apart, so two waiting processes do not keep meeting at the same moment.
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    }
  }
}
