// PostgreSQL: a transaction's `begin` travels with its first statement (db/deferred-begin.ts): in one
// round trip when that statement takes no parameters (the write queue's change position), else just
// before it. What reaches the server is counted below the deferral, as the server sees it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferringBegin } from '../../db/deferred-begin';
import { databaseFor, onPostgres } from '../support/test-store';

describe.runIf(onPostgres)('begin sent with the first statement (PostgreSQL)', () => {
  let dir: string;
  let pool: pg.Pool;
  let db: Kysely<any>;
  const sent: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-begin-'));
    pool = new pg.Pool({ connectionString: await databaseFor(dir), max: 1 });
    // Registered first, so it sees what the deferral passes on: each call is one round trip.
    pool.on('connect', (client) => {
      const query = client.query;
      client.query = ((...args: unknown[]) => {
        sent.push(typeof args[0] === 'string' ? args[0] : 'cursor');
        return (query as (...a: unknown[]) => unknown).apply(client, args);
      }) as typeof client.query;
    });
    deferringBegin(pool);
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    await sql`create table if not exists marks (id int primary key)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the transaction in the round trip of a first statement without parameters', async () => {
    sent.length = 0;
    const ids = await db.transaction().execute(async (trx) => {
      const first = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx);
      const second = await sql<{
        id: string;
      }>`select pg_current_xact_id()::text as id where ${1} = 1`.execute(trx);
      return [first.rows[0]!.id, second.rows[0]!.id];
    });
    expect(sent).toEqual([
      'begin; select pg_current_xact_id()::text as id',
      'select pg_current_xact_id()::text as id where $1 = 1',
      'commit',
    ]);
    // One transaction: both statements have its id.
    expect(ids[0]).toBe(ids[1]);
  });

  it('sends begin just before a first statement with parameters, and a refusal undoes the transaction', async () => {
    sent.length = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into marks (id) values (${7})`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(sent).toEqual(['begin', 'insert into marks (id) values ($1)', 'rollback']);
    const { rows } = await sql`select id from marks where id = 7`.execute(db);
    expect(rows).toEqual([]);
  });

  it('keeps isolation and access mode: a read-only transaction refuses a write', async () => {
    sent.length = 0;
    await expect(
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((trx) => sql`insert into marks (id) values (8)`.execute(trx)),
    ).rejects.toThrow(/read-only transaction/);
    expect(sent[0]).toBe(
      'start transaction isolation level repeatable read read only; insert into marks (id) values (8)',
    );
  });

  it('leaves statements outside a transaction alone', async () => {
    sent.length = 0;
    const a = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    const b = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    expect(sent).toHaveLength(2);
    expect(a.rows[0]!.id).not.toBe(b.rows[0]!.id);
  });
});
