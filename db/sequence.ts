// Change positions: a row's place in "oldest change first" is (change_txn, change_seq), the
// transaction that last wrote it and its position within what was written.
//
// SQLite commits one writer at a time, so a single counter row hands out positions in commit
// order: change_txn stays 0 and change_seq alone orders.
//
// On PostgreSQL one counter row would make every writer queue on it until it commits, and a
// SEQUENCE numbers in start order, not commit order: a cursor could pass a row whose transaction
// commits late. So the database stamps change_txn with the writing transaction's id
// (pg_current_xact_id; db/change-feed-schema.ts), change_seq counts within the transaction (a
// transaction-local setting: no lock, no shared row), and a page shows only rows of transactions
// below its snapshot's horizon, the oldest transaction running that may write this database: every
// transaction below it has ended, and every later one gets a larger id, so what a page has passed
// is final (settledChanges below, which core/platform/pipeline/paging.ts applies to
// oldest-change-first pages, and to any page filtered by updatedSince).
//
// A table only added to pages by (change_txn, its id). Where that id is a position clients hold
// themselves (checkInId, which door scanners pass back as `after`), it must grow in that order
// too: on PostgreSQL a trigger gives a new check-in its id and its change_txn in turn, a change_txn
// never below one an earlier id got (migration 0045), so the door-scan list is in checkInId order
// and the horizon never lets a page pass an id still in flight.
import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from './connect';
import { sendWhenNextRuns } from './deferred-statements';
import { isPostgres } from './dialect';
import { prepare } from './prepared';

/** PostgreSQL: advances the transaction's count by `count` and answers the new value (the scan function of
 * migration 0035 counts the same way). */
const advancedCount = (count: unknown) =>
  sql<number>`set_config('tessera.change_seq',
    (coalesce(nullif(current_setting('tessera.change_seq', true), ''), '0')::bigint + ${count})::text,
    true)::bigint`;

const counted = prepare<{ count: number }, { value: number }>((db, p) =>
  isPostgres(db)
    ? sql<{ value: number }>`select ${advancedCount(p.count)} as value`
    : sql<{
        value: number;
      }>`update change_sequence set value = value + ${p.count} where name = 'changes' returning value`,
);

/** The next change position, for one row's write. */
export function nextChangeSeq(db: Db): Promise<number> {
  return reserveChangeSeqs(db, 1);
}

/** Reserves `count` positions at once (for writes of many rows); answers the first of them. */
export async function reserveChangeSeqs(db: Db, count: number): Promise<number> {
  const value = (await counted.first(db, { count }))?.value;
  if (value === undefined) throw new Error('change_sequence is not initialised');
  return value - count + 1;
}

/**
 * The next change position as a value for one row's prepared update (db/prepared.ts): on
 * PostgreSQL an expression the update itself evaluates (the count is a transaction-local setting, so
 * this saves a round trip); on SQLite the placeholder of the number each call counts first
 * (preparedChangeSeq). The update must change at most one row.
 */
export function changeSeqInPrepared(db: Db, placeholder: number): number | RawBuilder<number> {
  return isPostgres(db) ? advancedCount(sql.lit(1)) : placeholder;
}

/** The number for changeSeqInPrepared's placeholder: counted on SQLite, unused on PostgreSQL. */
export async function preparedChangeSeq(db: Db): Promise<number> {
  return isPostgres(db) ? 0 : nextChangeSeq(db);
}

/**
 * `count` change positions as the value of one row's insert, which answers the first of them: on
 * PostgreSQL an expression the insert itself evaluates (no round trip of its own; the insert returns
 * the row's change_seq to say which positions it took); on SQLite the number, counted first. The
 * statement must write one row. Positions an insert took and did not keep (on conflict do nothing)
 * are skipped: the feed orders by them, it never needs them consecutive between rows.
 */
export async function changeSeqsInInsert(db: Db, count: number): Promise<number | RawBuilder<number>> {
  if (!isPostgres(db)) return reserveChangeSeqs(db, count);
  return sql<number>`(${advancedCount(count)} - ${count - 1})`;
}

/**
 * Rows whose change has settled, for a page of the feed: on PostgreSQL, written by a transaction
 * below the horizon of the statement's snapshot (the same snapshot the rows are read with).
 * PostgreSQL only: on SQLite every committed change has settled.
 *
 * The horizon is the snapshot's oldest transaction still running that may write this database.
 * Transaction ids are the cluster's, so pg_snapshot_xmin alone let any transaction of another
 * database on the same server (a report, a migration, another application) hold every list back
 * while it ran. A running transaction is passed over only when pg_stat_activity says it belongs
 * to another database: one that ended since the snapshot, or one whose session this role may not
 * see, still counts, so a page never passes a change its snapshot cannot show.
 */
export function settledChanges(txnColumn: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(txnColumn)} < coalesce(
    (select min(running::text::bigint) from pg_snapshot_xip(pg_current_snapshot()) as running
      where not exists (
        select from pg_stat_activity as other
        where other.backend_xid = running::xid and other.datname <> current_database()
      )),
    pg_snapshot_xmax(pg_current_snapshot())::text::bigint
  )`;
}

const changePosition = 'select pg_current_xact_id()';
sendWhenNextRuns(changePosition);

/**
 * Gives the transaction its change position before it writes anything (PostgreSQL: its transaction
 * id, which change_txn stamps). The write queue's lanes take it in turn with the write's moment
 * (core/platform/storage/write-batch.ts): `taken` resolves once the server gave it, which is in the
 * round trip of the transaction's first statement, answered ahead of it (db/deferred-statements.ts),
 * so taking it costs no round trip of its own. SQLite: nothing, one writer commits in order.
 */
export async function takeChangePosition(trx: Db): Promise<{ taken: Promise<void> }> {
  if (!isPostgres(trx)) return { taken: Promise.resolve() };
  const { rows } = await sql<{ sent?: Promise<void> }>`${sql.raw(changePosition)}`.execute(trx);
  // A connection that holds nothing back ran it already.
  return { taken: rows[0]?.sent ?? Promise.resolve() };
}

/**
 * Conditions on a row's place in the feed, (change_txn, change position), that an index of the list
 * ranges over. PostgreSQL compares the pair. On SQLite every change_txn is 0 (above), so the place
 * is the position alone, compared beside `change_txn = 0`: SQLite ranges a row value over declared
 * index columns only, and an appended table's position is its rowid (check-ins, deliveries), which
 * a pair would leave it to walk from the scope's first row.
 */
export interface FeedPlaces {
  /** Rows after (`>`) or before (`<`) a known place (a cursor's). */
  beyond(
    txn: Expression<unknown>,
    seq: Expression<unknown>,
    op: '>' | '<',
    at: readonly [unknown, unknown],
  ): RawBuilder<boolean>;
  /** Rows at or after the place of the first row `first` finds (ordered by place, limit 1). */
  fromFirst(
    txn: Expression<unknown>,
    seq: Expression<unknown>,
    // biome-ignore lint/suspicious/noExplicitAny: any list's select.
    first: SelectQueryBuilder<any, any, any>,
  ): RawBuilder<boolean>;
}

export function feedPlaces(db: Db): FeedPlaces {
  if (isPostgres(db))
    return {
      beyond: (txn, seq, op, [t, n]) => sql<boolean>`(${txn}, ${seq}) ${sql.raw(op)} (${t}, ${n})`,
      fromFirst: (txn, seq, first) =>
        sql<boolean>`(${txn}, ${seq}) >= (${first.clearSelect().select([sql`${txn} + 0`.as('t'), sql`${seq} + 0`.as('s')])})`,
    };
  return {
    beyond: (txn, seq, op, [, n]) => sql<boolean>`${txn} = 0 and ${seq} ${sql.raw(op)} ${n}`,
    fromFirst: (txn, seq, first) =>
      sql<boolean>`${txn} = 0 and ${seq} >= (${first.clearSelect().select(sql`${seq} + 0`.as('s'))})`,
  };
}
