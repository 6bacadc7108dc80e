// A single, ever-growing change counter. Rows stamp `change_seq` from it on every change, so
// "oldest change first" paging has a total order that never skips or repeats a row.
import { sql } from 'kysely';
import type { Db } from './connect';
import { prepare } from './prepared';

const next = prepare<Record<string, never>, { value: number }>(
  () =>
    sql<{
      value: number;
    }>`update change_sequence set value = value + 1 where name = 'changes' returning value`,
);

export async function nextChangeSeq(db: Db): Promise<number> {
  const value = (await next.first(db, {}))?.value;
  if (value === undefined) throw new Error('change_sequence is not initialised');
  return value;
}

/** Reserves `count` positions at once (for writes of many rows); answers the first of them. */
export async function reserveChangeSeqs(db: Db, count: number): Promise<number> {
  const row = await sql<{ value: number }>`
    update change_sequence set value = value + ${count} where name = 'changes' returning value`.execute(db);
  const value = row.rows[0]?.value;
  if (value === undefined) throw new Error('change_sequence is not initialised');
  return value - count + 1;
}
