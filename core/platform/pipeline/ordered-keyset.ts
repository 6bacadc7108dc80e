// A list in an order of its own rather than by change (sponsors by their level's rank, then their
// place in it): the keyset is several columns or expressions, each ascending or descending, the last
// one unique (the id), so a cursor still never skips or repeats a row. Planned with planPage as
// every list is (limit, a cursor bound to the list, its filters and the workspace).
import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Ctx } from '../context';
import { problem } from '../problems';
import { changedSince, encodeCursor, type KeysetColumns, type Page, type PagePlan } from './paging';

export type Position = (string | number)[];

export interface OrderKey {
  /** A column (table.column) or an expression. */
  by: string | RawBuilder<unknown>;
  direction: 'asc' | 'desc';
}

const refOf = (key: OrderKey) => (typeof key.by === 'string' ? sql.ref(key.by) : key.by);

/** Rows that come after the position in this order. */
function after(keys: OrderKey[], position: Position): RawBuilder<SqlBool> {
  const [key, ...rest] = keys;
  const [value, ...more] = position;
  const ref = refOf(key!);
  const beyond = key!.direction === 'asc' ? sql<SqlBool>`${ref} > ${value}` : sql<SqlBool>`${ref} < ${value}`;
  if (rest.length === 0) return beyond;
  return sql<SqlBool>`(${beyond} or (${ref} = ${value} and ${after(rest, more)}))`;
}

/**
 * Adds updatedSince (on the row's last-change column and, on PostgreSQL, settled changes only:
 * paging.ts changedSince), when the list takes it, the order, the position to continue after and
 * the limit (one extra row, to know whether more follow).
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any table's select.
export function applyOrder<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  plan: PagePlan,
  keys: OrderKey[],
  changes?: Pick<KeysetColumns, 'updated' | 'txn'>,
): QB {
  let q = qb;
  if (changes && plan.updatedSince !== null) q = changedSince(q, plan, changes);
  if (plan.after) {
    if (plan.after.length !== keys.length)
      throw problem('invalidCursor', 'The cursor was made for another order of this list.');
    q = q.where(after(keys, plan.after)) as QB;
  }
  for (const key of keys) q = q.orderBy(refOf(key), key.direction) as QB;
  return q.limit(plan.limit + 1) as QB;
}

/** Cuts the extra row off and makes the next cursor from the last row's position in the order. */
export function finishOrderedPage<R, T>(
  ctx: Ctx,
  plan: PagePlan,
  rows: R[],
  position: (row: R) => Position,
  render: (row: R) => T,
): Page<T> {
  const hasMore = rows.length > plan.limit;
  const kept = hasMore ? rows.slice(0, plan.limit) : rows;
  const last = kept[kept.length - 1];
  const nextCursor =
    hasMore && last !== undefined
      ? encodeCursor(ctx, { l: plan.list, f: plan.filterHash, s: plan.sort, p: position(last) })
      : null;
  return { data: kept.map(render), nextCursor, hasMore };
}
