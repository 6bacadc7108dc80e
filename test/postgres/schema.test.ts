// The same migrations make the same schema on PostgreSQL as on SQLite (db/dialect.ts): every table
// with the same columns and the same NOT NULLs, the same indexes, 64-bit integers and 8-byte reals,
// identity keys for SQLite's autoincrementing ones, and the key-generation triggers moving their
// counter. Needs PostgreSQL's server binaries (initdb, pg_ctl); without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchStructures } from '../../db/attendee-search';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { schemaColumns } from '../../db/dialect';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { databaseFrom } from '../../src/settings';
import { postgresHere } from '../support/postgres';

const available = postgresHere('the PostgreSQL schema test');

type Columns = Map<string, Map<string, { notNull: boolean; type: string }>>;

/** The schema's tables and columns, without Kysely's own bookkeeping. */
async function columnsOf(db: Db): Promise<Columns> {
  const out: Columns = new Map();
  for (const [table, columns] of await schemaColumns(db))
    if (!table.startsWith('kysely_')) out.set(table, new Map(columns.map((c) => [c.name, c])));
  return out;
}

const shapeOf = (columns: Columns) =>
  Object.fromEntries(
    [...columns].map(([table, cols]) => [
      table,
      Object.fromEntries([...cols].map(([name, c]) => [name, c.notNull])),
    ]),
  );

/** The shape without a store's own tables, each of which it must have. */
function withoutOwn(shape: ReturnType<typeof shapeOf>, own: readonly string[]) {
  for (const table of own) expect(shape, table).toHaveProperty(table);
  return Object.fromEntries(Object.entries(shape).filter(([table]) => !own.includes(table)));
}

describe.skipIf(!available)('the schema on PostgreSQL', () => {
  let cluster: Cluster;
  let postgres: { db: Db; close(): Promise<void> };
  let sqlite: { db: Db; close(): Promise<void> };
  const dir = mkdtempSync(join(tmpdir(), 'tessera-schema-'));

  beforeAll(async () => {
    cluster = await startCluster();
    postgres = openDatabase(cluster.url);
    sqlite = openDatabase(join(dir, 'tessera.db'));
    await migrateToLatest(postgres.db);
    await migrateToLatest(sqlite.db);
  });

  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every table, column and NOT NULL SQLite has (the search tables apart)', async () => {
    const lite = shapeOf(await columnsOf(sqlite.db));
    expect(Object.keys(lite).length).toBeGreaterThan(50);
    expect(withoutOwn(shapeOf(await columnsOf(postgres.db)), searchStructures.postgresTables)).toEqual(
      withoutOwn(lite, searchStructures.sqliteTables),
    );
  });

  it('is reached through its Unix socket by a URL naming the socket folder (the same machine: docs/deployment.md)', async () => {
    expect(databaseFrom(undefined, { TESSERA_DATABASE_URL: cluster.socketUrl })).toBe(cluster.socketUrl);
    const local = openDatabase(cluster.socketUrl);
    try {
      const { rows } = await sql<{ address: string | null; tables: number }>`
        select inet_server_addr() as address,
          (select count(*) from information_schema.tables where table_schema = current_schema()) as tables`.execute(
        local.db,
      );
      // No server address: the connection is a Unix socket's, to the database migrated over TCP.
      expect(rows[0]).toEqual({ address: null, tables: expect.any(Number) });
      expect(rows[0]!.tables).toBeGreaterThan(50);
    } finally {
      await local.close();
    }
  });

  it('keeps 64-bit integers and 8-byte reals', async () => {
    const pgColumns = await columnsOf(postgres.db);
    const liteColumns = await columnsOf(sqlite.db);
    let compared = 0;
    for (const [table, columns] of liteColumns) {
      if ((searchStructures.sqliteTables as readonly string[]).includes(table)) continue;
      for (const [name, column] of columns) {
        const expected = { integer: 'bigint', real: 'double precision', text: 'text' }[column.type];
        compared += expected ? 1 : 0;
        if (expected)
          expect(`${table}.${name} ${pgColumns.get(table)?.get(name)?.type}`).toBe(
            `${table}.${name} ${expected}`,
          );
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('writes no log for the shared call counters, and for nothing else', async () => {
    const { rows } = await sql<{ relname: string }>`
      select relname from pg_class where relpersistence = 'u' and relkind = 'r' order by relname`.execute(
      postgres.db,
    );
    expect(rows.map((r) => r.relname)).toEqual(['rate_windows']);
  });

  it('has the same indexes', async () => {
    const lite = await sql<{ name: string }>`
      select name from sqlite_master where type = 'index' and sql is not null`.execute(sqlite.db);
    const pg = await sql<{ name: string }>`
      select indexname as name from pg_indexes where schemaname = 'public'
      and indexname not like '%_pkey' and indexname not like 'kysely_%'
      and indexname not in (select conname from pg_constraint where contype in ('p', 'u'))`.execute(
      postgres.db,
    );
    expect(lite.rows.length).toBeGreaterThan(40);
    const own: readonly string[] = searchStructures.postgresIndexes;
    const pgNames = pg.rows.map((r) => r.name);
    expect(pgNames).toEqual(expect.arrayContaining([...own]));
    expect(pgNames.filter((name) => !own.includes(name)).sort()).toEqual(lite.rows.map((r) => r.name).sort());
  });

  it('numbers rows of autoincrementing tables itself, and moves the key generation on key changes', async () => {
    const generation = async () =>
      (await sql<{ value: number }>`select value from key_generation where id = 1`.execute(postgres.db))
        .rows[0]!.value;
    const before = await generation();
    await sql`insert into workspaces (id, name, demonstration, created_utc)
      values ('00000000-0000-4000-8000-000000000001', 'W', 0, '2026-11-24T00:00:00.000Z')`.execute(
      postgres.db,
    );
    await sql`insert into api_keys (id, workspace_id, name, prefix, secret_hash, scopes, created_utc)
      values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'K', 'abk_x', 'h', '[]',
      '2026-11-24T00:00:00.000Z')`.execute(postgres.db);
    expect(await generation()).toBe(before + 1);
    await sql`update api_keys set last_used_utc = '2026-11-24T00:00:01.000Z'`.execute(postgres.db);
    expect(await generation()).toBe(before + 1);
    await sql`update api_keys set revoked_utc = '2026-11-24T00:00:02.000Z'`.execute(postgres.db);
    expect(await generation()).toBe(before + 2);
    const activity = await sql<{ id: number }>`
      insert into key_activity (workspace_id, api_key_id, at_utc, transport, operation, outcome, status, duration_ms)
      values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
        '2026-11-24T00:00:03.000Z', 'rest', 'GET /me', 'ok', 200, 1.25) returning id`.execute(postgres.db);
    expect(typeof activity.rows[0]!.id).toBe('number');
  });

  it('stamps every row of the change feed with its writing transaction, on insert and when its position moves', async () => {
    const feedTables = [...(await columnsOf(postgres.db))]
      .filter(([, columns]) => columns.has('change_txn'))
      .map(([table]) => table);
    const triggers = await sql<{ table: string }>`
      select event_object_table as "table" from information_schema.triggers
      where trigger_name like '%_change_txn' and event_manipulation = 'UPDATE'`.execute(postgres.db);
    const withSeq = [...(await columnsOf(postgres.db))]
      .filter(([, columns]) => columns.has('change_seq'))
      .map(([table]) => table);
    expect(withSeq.length).toBeGreaterThan(30);
    expect(feedTables.sort()).toEqual([...withSeq, 'check_ins', 'deliveries'].sort());
    expect(triggers.rows.map((r) => r.table).sort()).toEqual(withSeq.sort());

    const workspace = '00000000-0000-4000-8000-0000000000a1';
    const txnOf = async () =>
      (
        await sql<{ change_txn: number }>`select change_txn from workspaces w, events e
        where e.workspace_id = w.id and w.id = ${workspace}`.execute(postgres.db)
      ).rows[0]!.change_txn;
    const written = await postgres.db.transaction().execute(async (trx) => {
      await sql`insert into workspaces (id, name, demonstration, created_utc)
        values (${workspace}, 'Feed', 0, '2026-11-24T00:00:00.000Z')`.execute(trx);
      await sql`insert into events (id, workspace_id, name, slug, status, online, time_zone, starts_utc, ends_utc,
        languages, currency, modules, created_utc, updated_utc, change_seq)
        values ('00000000-0000-4000-8000-0000000000a2', ${workspace}, 'Feed', 'feed-txn', 'draft', 0, 'UTC',
        '2027-01-01T00:00:00.000Z', '2027-01-01T01:00:00.000Z', '["en"]', 'EUR', '{}', '2026-11-24T00:00:00.000Z',
        '2026-11-24T00:00:00.000Z', 1)`.execute(trx);
      return (await sql<{ id: number }>`select pg_current_xact_id()::text::bigint as id`.execute(trx))
        .rows[0]!.id;
    });
    expect(await txnOf()).toBe(written);
    // A change that does not move the position keeps the transaction; one that does takes its own.
    await sql`update events set name = 'Feed again' where workspace_id = ${workspace}`.execute(postgres.db);
    expect(await txnOf()).toBe(written);
    await sql`update events set change_seq = 2 where workspace_id = ${workspace}`.execute(postgres.db);
    expect(await txnOf()).toBeGreaterThan(written);
  });
});
