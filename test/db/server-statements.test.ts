// PostgreSQL keeps the hot statements (db/prepared.ts) prepared on each connection
// (db/server-statements.ts), named by their text, and that stays safe through a rolling upgrade:
// the hot reads name their columns (db/columns.ts), so a migration adding a column beside a running
// process leaves its prepared reads answering (and its prepared inserts inserting); a prepared
// `select *` is refused by PostgreSQL then, and is never kept. Both stores: the column lists are the tables' columns, and rows (answered as
// arrays by both drivers, db/row-objects.ts) are the objects the drivers' own would be.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { loadEvent } from '../../core/platform/pipeline/load-event';
import {
  addOnColumns,
  attendeeColumns,
  doorColumns,
  eventColumns,
  questionColumns,
  ticketTypeColumns,
} from '../../db/columns';
import { schemaColumns } from '../../db/dialect';
import { insertRows } from '../../db/prepared';
import { keepPrepared, keptAfterUses, keptPrepared } from '../../db/server-statements';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, db } = raceHarness('Server statements');

it('names every column of the tables whose hot reads it keeps prepared', async () => {
  const columns = await schemaColumns(db());
  const names = (table: string) => (columns.get(table) ?? []).map((c) => c.name).sort();
  expect([...eventColumns].sort()).toEqual(names('events'));
  expect([...doorColumns].sort()).toEqual(names('doors'));
  expect([...attendeeColumns].sort()).toEqual(names('attendees'));
  expect([...ticketTypeColumns].sort()).toEqual(names('ticket_types'));
  expect([...addOnColumns].sort()).toEqual(names('add_ons'));
  expect([...questionColumns].sort()).toEqual(names('questions'));
});

it('never keeps a statement that selects every column', () => {
  const everyColumn = [
    'select * from "events" where "id" = $1',
    'select "attendees".*, "orders"."reference" from "attendees"',
    'insert into "outbox" ("id") values ($1) returning *',
  ];
  const named = ['select count(*) from "events"', 'select "id", "name" from "events" where "id" = $1'];
  for (const text of [...everyColumn, ...named]) keepPrepared(text);
  for (const text of everyColumn) expect(keptPrepared(text), text).toBe(false);
  for (const text of named) expect(keptPrepared(text), text).toBe(true);
});

it.runIf(onPostgres)(
  'prepares a hot read once a connection, and it answers after a migration adds a column',
  async () => {
    const { eventId } = await call(createEvent, eventBody());
    await db()
      .connection()
      .execute(async (connection) => {
        const ctx = { db: connection, actor: { workspaceId: await workspaceOf(eventId) } } as never;
        await loadEvent(ctx, eventId);
        const { rows } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(connection);
        const read = rows.find((r) => r.statement.includes('from "events"'));
        expect(read?.name).toMatch(/^tessera_[0-9a-f]{24}$/);
        expect(keptPrepared(read!.statement)).toBe(true);

        // A rolling upgrade's migration, from another connection.
        await sql`alter table events add column added_by_a_newer_version text`.execute(db());
        try {
          const event = await loadEvent(ctx, eventId);
          expect(event.id).toBe(eventId);
          expect(event).not.toHaveProperty('added_by_a_newer_version');
          // The same change refuses a prepared select *: why such statements are never kept.
          await sql`prepare every_column as select * from events where id = $1`.execute(connection);
          await sql`alter table events add column added_again text`.execute(db());
          await expect(sql`execute every_column(${sql.lit(eventId)})`.execute(connection)).rejects.toThrow(
            /cached plan must not change result type/,
          );
        } finally {
          await sql`alter table events drop column added_by_a_newer_version`.execute(db());
          await sql`alter table events drop column if exists added_again`.execute(db());
        }
      });
  },
);

it.runIf(onPostgres)(
  'keeps a read built anew on each call prepared once it was sent a few times, inside a transaction too; never a write',
  async () => {
    const read = (n: number) => sql`select ${n}::int as n, 'auto kept' as what`;
    const text = read(0).compile(db()).sql;
    const write = sql`update events set name = name where id = ${'none'}`;
    const writeText = write.compile(db()).sql;
    for (let i = 1; i < keptAfterUses; i++) await read(i).execute(db());
    expect(keptPrepared(text)).toBe(false);
    // The last use is a transaction's first statement, sent with its held opener.
    await db()
      .transaction()
      .execute((trx) => read(keptAfterUses).execute(trx));
    expect(keptPrepared(text)).toBe(true);
    for (let i = 0; i <= keptAfterUses; i++) await write.execute(db());
    expect(keptPrepared(writeText)).toBe(false);
    const named = await db()
      .connection()
      .execute(async (connection) => {
        expect((await read(7).execute(connection)).rows).toEqual([{ n: 7, what: 'auto kept' }]);
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements`.execute(connection);
        return rows.map((r) => r.statement);
      });
    expect(named).toContain(text);
  },
);

it.runIf(onPostgres)(
  "keeps a multi-row insert's shape prepared, and it inserts after a migration adds a column",
  async () => {
    const rows = (n: number) =>
      Array.from({ length: 2 }, (_, i) => ({ key: `kept-insert-${n}-${i}`, started_ms: n, used: i }));
    await db()
      .connection()
      .execute(async (connection) => {
        await insertRows(connection, 'rate_windows', rows(1));
        const { rows: kept } = await sql<{ statement: string }>`
          select statement from pg_prepared_statements where statement like 'insert into "rate_windows"%'`.execute(
          connection,
        );
        expect(kept).toHaveLength(1);
        expect(keptPrepared(kept[0]!.statement)).toBe(true);
        await sql`alter table rate_windows add column added_by_a_newer_version text`.execute(db());
        try {
          await insertRows(connection, 'rate_windows', rows(2));
        } finally {
          await sql`alter table rate_windows drop column added_by_a_newer_version`.execute(db());
        }
      });
    const written = await db()
      .selectFrom('rate_windows')
      .select('key')
      .where('key', 'like', 'kept-insert-%')
      .execute();
    expect(written.map((r) => r.key).sort()).toEqual([
      'kept-insert-1-0',
      'kept-insert-1-1',
      'kept-insert-2-0',
      'kept-insert-2-1',
    ]);
  },
);

it('answers rows as objects of the columns in order, a name given twice keeping its last column', async () => {
  const expected = [
    { a: 4, b: 'x', c: null },
    { a: 5, b: 'y', c: null },
  ];
  const pairs = sql`select 1 as a, 'x' as b, null as c, 4 as a union all select 2, 'y', null, 5 order by 4`;
  // Alone (a kept or plain statement), the first of a transaction (sent with its held begin) and
  // after it, with and without parameters.
  expect((await pairs.execute(db())).rows).toEqual(expected);
  expect(Object.keys((await pairs.execute(db())).rows[0] as object)).toEqual(['a', 'b', 'c']);
  const withParameter = sql`select cast(${7} as integer) as n, ${'z'} as t`;
  const inTransaction = await db()
    .transaction()
    .execute(async (trx) => [
      (await withParameter.execute(trx)).rows,
      (await pairs.execute(trx)).rows,
      (await sql`select 1 as a where 1 = 0`.execute(trx)).rows,
    ]);
  expect(inTransaction).toEqual([[{ n: 7, t: 'z' }], expected, []]);
  const plainFirst = await db()
    .transaction()
    .execute(async (trx) => (await pairs.execute(trx)).rows);
  expect(plainFirst).toEqual(expected);
});

async function workspaceOf(eventId: string): Promise<string> {
  const row = await db()
    .selectFrom('events')
    .select('workspace_id')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  return row.workspace_id;
}
