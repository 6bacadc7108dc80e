// Hot statements built and compiled once. Kysely builds an operation tree and compiles it to SQL
// on every call, which was a fifth of a door check-in's time although the SQL never changes. A
// prepared statement is written once with named placeholders (`p.eventId`); it is compiled the
// first time it runs on a dialect, and each call only puts its values in their places. The SQL text is the
// same every time, so the connection's statement cache reuses the SQLite statement too, and
// PostgreSQL keeps it prepared on each connection (db/server-statements.ts).
import type { Compilable, CompiledQuery, Insertable, RawBuilder } from 'kysely';
import type { Db } from './connect';
import { sendWithNext } from './deferred-statements';
import { isPostgres } from './dialect';
import { readAtOnce } from './read-at-once';
import type { Database } from './schema';
import { keepPrepared } from './server-statements';

const marker = '\u0000param:';

/** Placeholders by name: `p.eventId` stands for the eventId of each call. */
export type Placeholders<A> = { readonly [K in keyof A]: A[K] };

const placeholders = new Proxy({} as Record<string, string>, {
  get: (_target, name) => `${marker}${String(name)}`,
});

export interface Prepared<A, R> {
  /** The rows it answers. */
  rows(db: Db, args: A): Promise<R[]>;
  /** Its first row, if any. */
  first(db: Db, args: A): Promise<R | undefined>;
  /** How many rows it changed. */
  changed(db: Db, args: A): Promise<number>;
  /**
   * A read's first row (null when none) answered at once on SQLite, inside a transaction in flight
   * too (db/read-at-once.ts); undefined where it cannot be, for the caller to read the ordinary way.
   */
  atOnce(db: Db, args: A): R | null | undefined;
}

export interface PrepareOptions {
  /**
   * Its callers read nothing of its answer (an outbox insert): on PostgreSQL, inside a
   * transaction, it travels with the next statement instead of a round trip of its own
   * (db/deferred-statements.ts), and answers no rows and no count there.
   */
  unread?: boolean;
}

export function prepare<A extends Record<string, unknown>, R = unknown>(
  build: (db: Db, p: Placeholders<A>) => Compilable<R> | RawBuilder<R>,
  options: PrepareOptions = {},
): Prepared<A, R> {
  // Compiled once per dialect (a process normally has one; tests open both).
  const compiledFor = new Map<unknown, { compiled: CompiledQuery<R>; slots: (string | undefined)[] }>();
  const compile = (db: Db) => {
    const built = build(db, placeholders as Placeholders<A>);
    const compiled = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    if (isPostgres(db)) {
      keepPrepared(compiled.sql);
      if (options.unread) sendWithNext(compiled.sql);
    }
    const slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(marker) ? value.slice(marker.length) : undefined,
    );
    return { compiled, slots };
  };
  const withValues = (db: Db, args: A): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let once = compiledFor.get(dialect);
    if (!once) {
      once = compile(db);
      compiledFor.set(dialect, once);
    }
    const { compiled, slots } = once;
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i];
      return name === undefined ? value : args[name];
    });
    return { ...compiled, parameters } as CompiledQuery<R>;
  };
  const run = (db: Db, args: A) => db.executeQuery<R>(withValues(db, args));
  return {
    rows: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
    changed: async (db, args) => Number((await run(db, args)).numAffectedRows ?? 0n),
    atOnce(db, args) {
      const { sql, parameters } = withValues(db, args);
      const rows = readAtOnce<R>(db, sql, parameters);
      return rows && (rows[0] ?? null);
    },
  };
}

/** The SQL of a multi-row insert, by table, columns and number of rows. */
const insertSql = new Map<string, CompiledQuery>();

/**
 * How many insert shapes PostgreSQL keeps prepared on each connection: a registration's attendees
 * and messages come in any number from 1 to 50, and a shape of 50 rows holds a plan of 1,000
 * parameters there. Shapes past the bound are parsed on each call, as every insert was.
 */
const mostInsertsKept = 64;
let insertsKept = 0;

/**
 * Inserts rows that all have the same columns, in one statement. Kysely parses every value of a
 * multi-row insert on each call (a registration's 50 attendees of 19 columns cost more in that
 * than in SQLite's insert); here the SQL is compiled once per shape and each call only lists the
 * values, in the columns' order. PostgreSQL keeps the first shapes prepared (above).
 */
export async function insertRows<T extends keyof Database & string>(
  db: Db,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  /** 'skipConflicts': a row that would break a unique rule is left out (ON CONFLICT DO NOTHING). */
  conflicts: 'refuse' | 'skipConflicts' = 'refuse',
  options: PrepareOptions = {},
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const key = `${db.getExecutor().adapter.constructor.name}|${table}|${columns.join(',')}|${rows.length}|${conflicts}`;
  let compiled = insertSql.get(key);
  if (!compiled) {
    const insert = db.insertInto(table).values(rows as never);
    compiled = (
      conflicts === 'skipConflicts' ? insert.onConflict((oc) => oc.doNothing()) : insert
    ).compile() as CompiledQuery;
    if (isPostgres(db)) {
      if (options.unread) sendWithNext(compiled.sql);
      if (insertsKept < mostInsertsKept) {
        keepPrepared(compiled.sql);
        insertsKept += 1;
      }
    }
    insertSql.set(key, compiled);
  }
  const parameters: unknown[] = [];
  for (const row of rows) {
    // Every row must name the same columns in the same order: the SQL lists them once.
    let i = 0;
    for (const [column, value] of Object.entries(row)) {
      if (column !== columns[i]) throw new Error(`insertRows: the rows of ${table} differ in their columns`);
      parameters.push(value);
      i += 1;
    }
    if (i !== columns.length) throw new Error(`insertRows: the rows of ${table} differ in their columns`);
  }
  await db.executeQuery({ ...compiled, parameters });
}
