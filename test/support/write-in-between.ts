// A competing write put, deterministically, between a use case's read and its write: a trigger the
// test adds on the table the use case writes first after its read, running the other writer's
// statement inside the same transaction, after that write. What a concurrent request would do in a
// race (take the last places, welcome the same person) thus happens on every run, one request at a
// time, so the guard that handles it is tested by a plain sequential test. SQLite and PostgreSQL.
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { isPostgres } from '../../db/dialect';

export interface WriteInBetween {
  /** The table whose row write sets it off. */
  table: string;
  /** `insert`, or `update of column`. */
  on: string;
  /** A condition on new (and old) for it to run, SQL. */
  when?: string;
  /** The other writer's statement (no trailing semicolon). */
  statement: string;
}

/** Adds the trigger; answers the function that removes it. */
export async function writeInBetween(db: Db, spec: WriteInBetween): Promise<() => Promise<void>> {
  const name = `in_between_${Math.random().toString(36).slice(2, 10)}`;
  const when = spec.when ?? 'true';
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
         begin ${spec.statement}; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${spec.on} on ${spec.table} for each row
         when (${when}) execute function ${name}()`,
      )
      .execute(db);
    return async () => {
      await sql.raw(`drop trigger ${name} on ${spec.table}`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    };
  }
  await sql
    .raw(`create trigger ${name} after ${spec.on} on ${spec.table} for each row when ${when}
      begin ${spec.statement}; end`)
    .execute(db);
  return async () => {
    await sql.raw(`drop trigger ${name}`).execute(db);
  };
}
