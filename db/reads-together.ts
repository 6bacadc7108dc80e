// Several reads a hot path needs at once, in one round trip on PostgreSQL: one statement answers each
// read's rows as a JSON array (json_agg), a column per read, all from the statement's one snapshot.
// On SQLite a statement costs no round trip (the database is in the process), so the reads run one
// after another as written. The rows come back as the driver gives them on each store: bigint and
// double precision as numbers (db/connect.ts), text as text; no table read here has another type.
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from './connect';
import { isPostgres } from './dialect';
import { type Placeholders, type Prepared, prepare } from './prepared';

/** One read: its query, and the columns its rows are ordered by (PostgreSQL's json_agg needs them named). */
export interface TogetherRead<R> {
  // biome-ignore lint/suspicious/noExplicitAny: any table's select.
  query: SelectQueryBuilder<any, any, R>;
  /** The order of the rows, as columns of the query's answer (the query's own orderBy on SQLite). */
  order?: readonly string[];
}

export type RowsOf<Q> = { [K in keyof Q]: Q[K] extends TogetherRead<infer R> ? R[] : never };

export async function readTogether<Q extends Record<string, TogetherRead<unknown>>>(
  db: Db,
  reads: Q,
): Promise<RowsOf<Q>> {
  const names = Object.keys(reads) as (keyof Q & string)[];
  const rows: Record<string, unknown[]> = {};
  if (!isPostgres(db)) {
    for (const name of names) rows[name] = await reads[name]!.query.execute();
    return rows as RowsOf<Q>;
  }
  const answer = await togetherStatement(reads).execute(db);
  const row = answer.rows[0]!;
  for (const name of names) rows[name] = row[name]!;
  return rows as RowsOf<Q>;
}

/** PostgreSQL's one statement: a column per read, its rows as a JSON array. */
function togetherStatement(
  reads: Record<string, TogetherRead<unknown>>,
): RawBuilder<Record<string, unknown[]>> {
  const columns = Object.entries(reads).map(([name, { query, order = [] }]) => {
    const orderBy =
      order.length > 0 ? sql` order by ${sql.join(order.map((column) => sql.ref(`q.${column}`)))}` : sql``;
    return sql`(select coalesce(json_agg(q${orderBy}), '[]'::json) from ${query} as q) as ${sql.ref(name)}`;
  });
  return sql<Record<string, unknown[]>>`select ${sql.join(columns)}`;
}

/** Reads by name, each built with placeholders (db/prepared.ts). */
type PreparedReads<A, Q> = (db: Db, p: Placeholders<A>) => Q;

/**
 * The same, for a hot path: built and compiled once (db/prepared.ts), each read's statement on
 * SQLite and the one statement on PostgreSQL kept prepared. `beside`: reads a caller adds to any
 * others (an event's, load-event.ts withEvent), their rows typed apart.
 */
export function prepareTogether<
  A extends Record<string, unknown>,
  Q extends Record<string, TogetherRead<unknown>>,
  E extends Record<string, TogetherRead<unknown>> = Record<never, TogetherRead<unknown>>,
>(
  build: PreparedReads<A, Q>,
  { beside }: { beside?: PreparedReads<A, E> } = {},
): { rows(db: Db, args: A): Promise<RowsOf<Q> & RowsOf<E>> } {
  const all = (db: Db, p: Placeholders<A>) => ({ ...build(db, p), ...beside?.(db, p) });
  const together = prepare<A, Record<string, unknown[]>>((db, p) => togetherStatement(all(db, p)));
  const alone = new Map<string, Prepared<A, unknown>>();
  let names: string[] | undefined;
  const aloneRead = (name: string) => {
    let read = alone.get(name);
    if (!read) {
      read = prepare<A, unknown>((db, p) => all(db, p)[name]!.query);
      alone.set(name, read);
    }
    return read;
  };
  return {
    async rows(db, args) {
      if (isPostgres(db)) return (await together.first(db, args)) as RowsOf<Q> & RowsOf<E>;
      names ??= Object.keys(all(db, {} as Placeholders<A>));
      const rows: Record<string, unknown[]> = {};
      for (const name of names) rows[name] = await aloneRead(name).rows(db, args);
      return rows as RowsOf<Q> & RowsOf<E>;
    },
  };
}
