// SQLite: reads that can take long run on a thread of their own. better-sqlite3 answers on the
// thread that asks, so a search of 7 ms or an export's opening held every other call of the server
// for as long (GET /me waited 13 ms at p99 beside back-to-back searches of 400,000 attendees).
// Here each such read is a message to a worker thread holding read-only connections to the file;
// the server's thread goes on answering meanwhile. What the worker answers is what the server's
// own connection would: every committed write, rows as objects of the same columns.
//
// A connection of the thread is a Kysely of its own (SQLite's adapter and compiler, this driver):
// a snapshot's (db/read-snapshot.ts), which holds a read transaction across its steps, or the one
// kept for reads aside (a search's). The thread starts at the first read and holds the process
// open only while a read is in flight.
import type { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type LogEvent,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { rowObjectOf, rowsAsObjects } from './row-objects';
import type { Database, Db } from './schema';
import { sqliteThread } from './sqlite-driver';

// What the thread runs (db/sqlite-driver.ts sqliteThread). Statements are kept by their text per connection; rows answered as
// arrays with their column names, which the server's thread makes objects (db/row-objects.ts).
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connections = new Map();
function connection(id) {
  let c = connections.get(id);
  if (!c) {
    const db = new Database(workerData.file, { readonly: true, fileMustExist: true, nativeBinding: workerData.addon });
    // A reader waits for nothing but a checkpoint's brief lock.
    db.pragma('busy_timeout = 100');
    c = { db, statements: new Map() };
    connections.set(id, c);
  }
  return c;
}
function run(message) {
  if (message.close) {
    connections.get(message.connection)?.db.close();
    connections.delete(message.connection);
    return {};
  }
  const c = connection(message.connection);
  let statement = c.statements.get(message.sql);
  if (!statement) {
    if (c.statements.size >= 200) c.statements.clear();
    statement = c.db.prepare(message.sql);
    if (statement.reader) statement.raw(true);
    c.statements.set(message.sql, statement);
  }
  // A Buffer crosses threads as a Uint8Array: made a Buffer again on each side.
  const parameters = message.parameters.map((v) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
  if (!statement.reader) return { changes: statement.run(parameters).changes };
  const rows = statement.all(parameters);
  const blobs = rows.some((row) => row.some((v) => Buffer.isBuffer(v)));
  return { columns: statement.columns().map((column) => column.name), rows, blobs };
}
parentPort.on('message', (message) => {
  if (message.stop) {
    for (const c of connections.values()) c.db.close();
    parentPort.close();
    return;
  }
  let answer;
  try {
    answer = run(message);
  } catch (error) {
    answer = { error: { message: String(error && error.message), code: error && error.code } };
  }
  answer.id = message.id;
  parentPort.postMessage(answer);
});
`;

interface Answer {
  id: number;
  columns?: string[];
  rows?: unknown[];
  changes?: number;
  /** Some value is a blob (a Uint8Array here, made a Buffer as the server's connection gives it). */
  blobs?: boolean;
  error?: { message: string; code?: string };
}

export interface ReadingThread {
  /** A connection of the thread as a Kysely; destroying the Kysely closes the connection. */
  connection(queryLog?: (event: LogEvent) => void): Db;
  /** Closes every connection and ends the thread. */
  stop(): Promise<void>;
}

export function readingThread(file: string): ReadingThread {
  let worker: Worker | null = null;
  let nextId = 1;
  let nextConnection = 1;
  const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();

  const started = (): Worker => {
    if (worker) return worker;
    const thread = sqliteThread(workerSource, file);
    thread.unref();
    thread.on('message', (answer: Answer) => {
      const caller = waiting.get(answer.id);
      if (!caller) return;
      waiting.delete(answer.id);
      if (waiting.size === 0) thread.unref();
      caller.resolve(answer);
    });
    // A thread that failed takes its reads with it; the next read starts another.
    const ended = (error: Error) => {
      if (worker === thread) worker = null;
      for (const caller of waiting.values()) caller.reject(error);
      waiting.clear();
    };
    thread.on('error', ended);
    thread.on('exit', () => ended(new Error('the reading thread ended')));
    worker = thread;
    return thread;
  };

  const ask = (message: object): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const thread = started();
      const id = nextId++;
      // Held while a read is in flight: a command's last await may be one.
      if (waiting.size === 0) thread.ref();
      waiting.set(id, { resolve, reject });
      thread.postMessage({ ...message, id });
    });

  return {
    connection(queryLog) {
      const id = nextConnection++;
      return new Kysely<Database>({
        dialect: {
          createAdapter: () => new SqliteAdapter(),
          createDriver: () => new ThreadDriver(id, ask),
          createIntrospector: (db) => new SqliteIntrospector(db),
          createQueryCompiler: () => new SqliteQueryCompiler(),
        },
        log: queryLog,
      });
    },
    async stop() {
      const thread = worker;
      if (!thread) return;
      worker = null;
      const exited = new Promise((done) => thread.once('exit', done));
      thread.ref();
      thread.postMessage({ stop: true });
      await exited;
    },
  };
}

function asBuffer(value: unknown, i: number, row: unknown[]): void {
  if (value instanceof Uint8Array && !Buffer.isBuffer(value))
    row[i] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** One connection of the thread: its statements run there in the order they are asked. */
class ThreadDriver implements Driver {
  private readonly connection: DatabaseConnection;

  constructor(
    private readonly id: number,
    private readonly ask: (message: object) => Promise<Answer>,
  ) {
    this.connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const answer = await ask({ connection: id, sql: query.sql, parameters: query.parameters });
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        if (!answer.rows) return { rows: [], numAffectedRows: BigInt(answer.changes ?? 0) };
        if (answer.blobs) for (const row of answer.rows as unknown[][]) row.forEach(asBuffer);
        rowsAsObjects(answer.rows, rowObjectOf(answer.columns ?? []));
        return { rows: answer.rows as R[] };
      },
      streamQuery() {
        throw new Error('the reading thread answers whole results, not streams');
      },
    };
  }

  async init(): Promise<void> {}
  // Its statements are ordered by the thread; a transaction is the caller's `begin` and `commit`
  // (db/read-snapshot.ts), not Kysely's.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('a connection of the reading thread runs no transactions of its own');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.ask({ connection: this.id, close: true });
  }
}
